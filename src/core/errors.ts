// Errors trk raises itself. Each knows its exit code and what the user should do; src/cli.ts is the only
// place that turns them into a line on stderr and an exit code. Service errors extend TrkError in
// src/api/errors.ts.

import { EXIT, type ExitCode } from './exit-codes.js';
import { LOGIN_HINT } from '@trk/service/codes.js';

export class TrkError extends Error {
  readonly exitCode: ExitCode;
  /** What to do next, appended to the message as `: <hint>`. */
  readonly hint: string | undefined;

  constructor(message: string, opts: { exitCode?: ExitCode; hint?: string; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.exitCode = opts.exitCode ?? EXIT.failure;
    this.hint = opts.hint;
  }

  /** The one line shown to the user. */
  toLine(): string {
    return this.hint ? `${this.message}: ${this.hint}` : this.message;
  }
}

/** Bad flags or input: exit 2, nothing sent. */
export class UsageError extends TrkError {
  constructor(message: string, hint?: string) {
    super(message, { exitCode: EXIT.usage, ...(hint === undefined ? {} : { hint }) });
  }
}

/** Missing or refused credentials detected before anything was sent: exit 4. */
export class CredentialsError extends TrkError {
  constructor(message: string, hint?: string) {
    super(message, { exitCode: EXIT.auth, ...(hint === undefined ? {} : { hint }) });
  }
}

/** What to do when there is no usable API key, wherever that is found out. */

/** No API key in the environment or the profile. */
export function noApiKeyError(): CredentialsError {
  return new CredentialsError('no API key configured', LOGIN_HINT);
}

/** The user pressed Ctrl-C (or the process got SIGTERM); work in flight was finished and saved. */
export class InterruptedError extends TrkError {
  constructor(message = 'interrupted', exitCode: ExitCode = EXIT.interrupted) {
    super(message, { exitCode });
  }
}

/** The exit code of a run stopped by `signal`: 143 after SIGTERM, 130 after Ctrl-C. */
export function stopExitCode(signal: AbortSignal): ExitCode {
  return signal.reason instanceof InterruptedError ? signal.reason.exitCode : EXIT.interrupted;
}

/** `permission denied (EACCES)`: the system's reason, never the message of a parser (it quotes the file). */
export function fileReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  const words: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on device',
    EDQUOT: 'disk quota exceeded',
    EFBIG: 'file too large',
    EIO: 'input/output error',
    EISDIR: 'it is a directory',
  };
  return typeof code === 'string' ? (words[code] ? `${words[code]} (${code})` : code) : 'unknown error';
}

/**
 * Output could not be written (a full disk, a file system gone read-only, a device that refuses it): the command
 * stops as it would on Ctrl-C (temporaries removed, progress saved), and ends with this line, exit 1.
 */
export class OutputError extends InterruptedError {
  constructor(where: string, cause: unknown) {
    super(`cannot write to ${where}: ${fileReason(cause)}`, EXIT.failure);
  }
}
