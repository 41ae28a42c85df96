// The runs of `trk sandbox start` and `trk sandbox reset` (declared in start.ts and reset.ts): the service emulator
// as a foreground process for tests, CI and rehearsals (the way stripe-mock is run), and a way to forget what it holds.

import { stateDir } from '../../config/paths.js';
import type { Context } from '../../context/context.js';
import { TrkError } from '../../core/errors.js';
import type { SandboxOptions, StartFlags } from '../../sandbox.js';
import { refuseOwnFile } from '../../config/own-files.js';

/** The flags of `trk sandbox start`, read by the emulator (its start-options.ts) as `trk-sandbox` reads them. */
export type SandboxStartOptions = StartFlags;

export interface SandboxResetOptions {
  /** State file; default `<state dir>/sandbox.json`. */
  state?: string;
}

/** Turn the command's options into the emulator's, refusing impossible values as usage errors. */
export async function sandboxOptions(opts: SandboxStartOptions, env: NodeJS.ProcessEnv): Promise<SandboxOptions> {
  const { sandboxStateFile, startOptions } = await import('../../sandbox.js');
  return startOptions(opts, {
    stateFile: sandboxStateFile(stateDir(env)),
    // Never one of trk's own files, but the sandbox's.
    checkStateFile: (file) => refuseOwnState(file, env),
  });
}

/**
 * Runs until Ctrl-C (or SIGTERM): prints the base URL and key on stdout (data: the sandbox's own key, not
 * a secret), status on stderr, and saves the state on the way out.
 */
export async function runSandboxStart(opts: SandboxStartOptions, ctx: Context): Promise<void> {
  const options = await sandboxOptions(opts, ctx.env);
  const { serveInForeground } = await import('../../sandbox.js');
  await serveInForeground(
    options,
    {
      out: (text) => ctx.io.out(text),
      info: (line) => ctx.info(line),
      // One line per request: with --log always (what a rehearsed script did), else with --verbose.
      request: (line) => (opts.log ? ctx.io.err(line) : ctx.debug(line)),
      error: (message) => ctx.io.err(`trk: sandbox: ${message}`),
    },
    { json: ctx.global.output === 'json' || ctx.global.output === 'ndjson', signal: ctx.signal },
  );
}

/** Forget every number, the quota used and the simulated clock: the next start is a fresh account. */
export async function runSandboxReset(opts: SandboxResetOptions, ctx: Context): Promise<void> {
  const { currentStateHolder, removeStateFile, sandboxStateFile } = await import('../../sandbox.js');
  // The reset removes the file: never one of trk's own, but the sandbox's.
  if (opts.state !== undefined) await refuseOwnState(opts.state, ctx.env);
  const path = opts.state ?? sandboxStateFile(stateDir(ctx.env));
  // A running sandbox would write its state back on its next save: the reset would not hold.
  const holder = await currentStateHolder(path);
  if (holder) {
    const who =
      holder.kind === 'server'
        ? `a sandbox server${holder.url === null ? '' : ` at ${holder.url}`}`
        : 'a trk --sandbox command';
    throw new TrkError(`${who} (pid ${holder.pid}) is using ${path}`, {
      hint:
        holder.kind === 'server'
          ? 'stop it first, or reset it while it runs: POST /__sandbox/reset'
          : 'run the reset again once that command is done',
    });
  }
  const removed = await removeStateFile(path);
  ctx.info(removed ? `sandbox reset: removed ${path}` : `sandbox reset: no state at ${path}, nothing to do`);
}

/** A --state FILE that is one of trk's own files, but the sandbox's state, is refused (src/config/own-files.ts). */
async function refuseOwnState(file: string, env: NodeJS.ProcessEnv): Promise<void> {
  const { sandboxStateFile } = await import('../../sandbox.js');
  refuseOwnFile(file, env, '--state', [sandboxStateFile(stateDir(env))]);
}
