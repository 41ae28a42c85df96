// Whether request logs and stack traces are wanted: --verbose, or TRK_DEBUG set to anything but "", "0" or
// "false". One rule for the CLI and the context, in a module light enough for `trk --help` to load.

export function debugEnabled(env: NodeJS.ProcessEnv, verbose: boolean | undefined): boolean {
  const flag = env.TRK_DEBUG;
  return verbose === true || (flag !== undefined && flag !== '' && flag !== '0' && flag !== 'false');
}
