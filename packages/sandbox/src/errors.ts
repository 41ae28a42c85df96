// The errors the emulator raises to whoever started it: a message and what to do next, in one line. They are its
// own, so that the emulator needs nothing of trk; trk turns them into its errors at its door to the emulator
// (src/sandbox.ts in trk's repository), and `trk-sandbox` prints them itself.

export class SandboxError extends Error {
  /** What to do next, appended to the message as `: <hint>`. */
  readonly hint: string | undefined;

  constructor(message: string, opts: { hint?: string; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.hint = opts.hint;
  }

  /** The one line shown to the user. */
  toLine(): string {
    return this.hint ? `${this.message}: ${this.hint}` : this.message;
  }
}

/** An option of the emulator's start with an impossible value (`--port 70000`): nothing was started. */
export class SandboxUsageError extends SandboxError {}

/** The start was called off (its signal aborted) while it waited for the state file. */
export class SandboxInterruptedError extends SandboxError {}
