// The emulator as a foreground process (`trk-sandbox`, `trk sandbox start`): started, its addresses printed for a
// shell or a program to read, run until Ctrl-C or SIGTERM (CI stopping a background sandbox), its state saved on
// the way out. Where the lines go is the caller's: data on stdout, the rest on stderr.

import { formatRequestLine } from './http/request-log.js';
import { startSandbox } from './http/server.js';
import type { SandboxOptions } from './http/types.js';

export interface ForegroundReport {
  /** Data: the addresses and key (the sandbox's own key, not a secret). */
  out(text: string): void;
  /** Status lines. */
  info(line: string): void;
  /** One line per request. */
  request(line: string): void;
  /** An error of the running emulator (it goes on serving). */
  error(message: string): void;
}

export interface ForegroundOptions {
  /** The addresses as one JSON object rather than NAME=value lines. */
  json?: boolean;
  /** Stops the emulator when aborted (Ctrl-C). */
  signal?: AbortSignal;
}

/** Starts the emulator and serves until the signal aborts or SIGTERM comes; resolves once it stopped. */
export async function serveInForeground(
  options: SandboxOptions,
  report: ForegroundReport,
  run: ForegroundOptions = {},
): Promise<void> {
  const sandbox = await startSandbox({
    ...options,
    onError: (err) => report.error(err instanceof Error ? err.message : String(err)),
    onRequest: (r) => report.request(formatRequestLine(r)),
    // A --sandbox command may be using the state file: this one starts once it is done.
    onWait: (line) => report.info(line),
    ...(run.signal === undefined ? {} : { signal: run.signal }),
  });
  // The emulator serves the carrier and country lists too: TRK_RES_URL points trk's lookups (`--carrier "China
  // Post"`, `trk carriers`) at it rather than at the real list host.
  if (run.json) {
    report.out(`${JSON.stringify({ url: sandbox.url, key: sandbox.key, res_url: sandbox.url })}\n`);
  } else {
    // Shell-friendly: `trk sandbox start > sandbox.env &` then `set -a; . ./sandbox.env; set +a` (plain
    // NAME=value lines, as env files take them; `set -a` exports them to the commands the shell runs).
    report.out(`TRK_BASE_URL=${sandbox.url}\nTRK_API_KEY=${sandbox.key}\nTRK_RES_URL=${sandbox.url}\n`);
  }
  const speed = sandbox.clock.speed === 1 ? 'real time' : `×${sandbox.clock.speed}`;
  report.info(
    `sandbox listening on ${sandbox.url} (simulated time ${new Date(sandbox.clock.now()).toISOString()}, ${speed})`,
  );
  report.info(options.stateFile === undefined ? 'state kept in memory only' : `state file ${options.stateFile}`);
  report.info(`control: ${sandbox.url}/__sandbox/state; stop with Ctrl-C`);

  await stopRequested(run.signal);
  report.info('stopping the sandbox…');
  await sandbox.close();
  report.info(
    options.stateFile === undefined ? 'sandbox stopped' : `sandbox stopped; state saved to ${options.stateFile}`,
  );
}

/** Resolves on the signal's abort (Ctrl-C) or SIGTERM. */
function stopRequested(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      signal?.removeEventListener('abort', done);
      process.off('SIGTERM', done);
      resolve();
    };
    if (signal?.aborted) return resolve();
    signal?.addEventListener('abort', done, { once: true });
    process.once('SIGTERM', done);
  });
}
