// Secrets this process knows (the API key of the settings, of a client, of `auth login`) are never printed. Text
// from the service can carry them back (an error message that quotes the request, a `Location` header with the
// key in its query, a body shown with --verbose or printed by `trk api`): the IO passes everything it writes
// through `redact` (`redactingIO`, applied by src/cli.ts and the pager), so that no caller has to remember to.
//
// Values shorter than MIN_SECRET_LENGTH are not redacted: they cannot be told apart from ordinary text, and
// replacing them would garble the output (the service's keys are 32 characters).

import type { IO } from './io.js';

const secrets = new Set<string>();

export const MIN_SECRET_LENGTH = 8;

/** What a secret is shown as. */
export const REDACTED = '***';

/** From now on, `value` is never printed (see the top of this file). */
export function addSecret(value: string | undefined): void {
  if (value !== undefined && value.length >= MIN_SECRET_LENGTH) secrets.add(value);
}

/** `text` with every secret replaced by REDACTED. */
export function redact(text: string): string {
  if (secrets.size === 0) return text;
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
  return out;
}

/**
 * `io` with the secrets this process knows (src/io/secrets.ts) taken out of everything written: data, status lines,
 * the progress line, error lines. The one place output passes, so that no caller can forget.
 */
export function redactingIO<T extends IO>(io: T): T {
  // Copied by descriptor, not spread: the process IO makes process.stdin only when a command reads it (a getter).
  return Object.defineProperties(Object.create(Object.getPrototypeOf(io) as object) as T, {
    ...Object.getOwnPropertyDescriptors(io),
    // Wrapped when first used: a pager's stdout is its input, and starts the pager.
    stdout: { get: once(() => redactingStream(io.stdout)), enumerable: true },
    stderr: { get: once(() => redactingStream(io.stderr)), enumerable: true },
    // Writable as an IO's own are: the progress line puts its err in place while it is drawn.
    out: { value: (text: string) => io.out(redact(text)), enumerable: true, writable: true },
    err: { value: (line: string) => io.err(redact(line)), enumerable: true, writable: true },
  });
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** The stream, its text writes redacted; everything else (isTTY, columns, events) is the stream's own. */
function redactingStream<S extends NodeJS.WritableStream>(stream: S): S {
  return new Proxy(stream, {
    get(target, prop) {
      if (prop === 'write') {
        return (chunk: unknown, ...rest: unknown[]) =>
          (target.write as (...args: unknown[]) => boolean)(typeof chunk === 'string' ? redact(chunk) : chunk, ...rest);
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
