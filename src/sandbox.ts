// trk's one door to the emulator (@trk/sandbox, packages/sandbox): everything of its entry, with the functions
// that start or stop one raising trk's errors in place of the emulator's (a usage error exits 2, an interruption
// 130, the rest 1 with their hint), as src/cli.ts shows them. Imported lazily, on the paths that use the emulator
// (--sandbox, `trk sandbox`): start-up never loads it.

import * as sandbox from '@trk/sandbox';
import { InterruptedError, TrkError, UsageError } from './core/errors.js';

export * from '@trk/sandbox';

/** The emulator's error as trk's; any other error as it is. */
export function trkError(err: unknown): unknown {
  if (!(err instanceof sandbox.SandboxError)) return err;
  if (err instanceof sandbox.SandboxUsageError) return new UsageError(err.message, err.hint);
  if (err instanceof sandbox.SandboxInterruptedError) return new InterruptedError(err.message);
  return new TrkError(err.message, {
    ...(err.hint === undefined ? {} : { hint: err.hint }),
    ...(err.cause === undefined ? {} : { cause: err.cause }),
  });
}

/** `fn` with the emulator's errors thrown as trk's, whether it throws or its promise rejects. */
function withTrkErrors<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  return (...args) => {
    try {
      const result = fn(...args);
      return (result instanceof Promise ? result.catch((err: unknown) => Promise.reject(trkError(err))) : result) as R;
    } catch (err) {
      throw trkError(err);
    }
  };
}

export const startOptions = withTrkErrors(sandbox.startOptions);
export const serveInForeground = withTrkErrors(sandbox.serveInForeground);
export const startSandbox = withTrkErrors(sandbox.startSandbox);
export const startEmbeddedSandbox = withTrkErrors(sandbox.startEmbeddedSandbox);
export const currentStateHolder = withTrkErrors(sandbox.currentStateHolder);
export const removeStateFile = withTrkErrors(sandbox.removeStateFile);
