// Carrier flags (--carrier, --final-carrier, --to, --from, --final-to, --final-from) take a code or a name
// (`--carrier "DHL Express"`). commander keeps them as typed; they become codes here, once the command runs,
// because a name needs the carrier list. A code is checked against the cached list only (never fetched), so
// numeric codes keep working offline; the first name fetches the list when there is no cached copy. A flag and
// a cell of a file resolve alike (carriers/search.ts): `--carrier Other` names no carrier, as an "Other" cell does.

import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';

/** By key: the flag's name (for messages) and its value as typed (undefined when the flag was not given). */
export type CarrierFlags<K extends string> = Readonly<Record<K, readonly [flag: string, value: unknown]>>;

/**
 * The codes of the given carrier flags, by key; absent flags stay undefined. Every flag is resolved before
 * anything is sent: an unknown or ambiguous name is a UsageError (exit 2) naming the flag and, when ambiguous,
 * the candidates.
 */
export async function resolveCarrierFlags<K extends string>(
  ctx: Context,
  flags: CarrierFlags<K>,
  opts: CarrierFlagOptions = {},
): Promise<Record<K, number | undefined>> {
  const out = {} as Record<K, number | undefined>;
  // The lookup's code is loaded with the first flag given: `trk info N` and `trk list` without one never load it.
  let resolve: Resolve | undefined;
  for (const key of Object.keys(flags) as K[]) {
    const [flag, value] = flags[key];
    if (value === undefined) {
      out[key] = undefined;
      continue;
    }
    resolve ??= (await import('../../carriers/lookup.js')).carrierResolver(ctx, { carrierMap: opts.carrierMap });
    const code = await resolveOne(resolve, flag, value);
    if (code === undefined) {
      if (opts.refuseNone)
        throw new UsageError(`${flag} ${JSON.stringify(String(value))} names no carrier`, `${opts.refuseNone}`);
      ctx.info(`${flag} ${JSON.stringify(String(value))} names no carrier: none is sent`);
    }
    out[key] = code;
  }
  for (const note of resolve?.notes() ?? []) ctx.info(note);
  return out;
}

export interface CarrierFlagOptions {
  /** `--carrier-map FILE`. */
  carrierMap?: string | undefined;
  /** A word for no carrier (`Other`) is refused with this hint, where it would widen what a command does. */
  refuseNone?: string | undefined;
}

type Resolve = ReturnType<typeof import('../../carriers/lookup.js').carrierResolver>;

async function resolveOne(resolve: Resolve, flag: string, value: unknown): Promise<number | undefined> {
  try {
    // A number (from a caller other than commander) is a code like its text.
    return await resolve(String(value));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    // `carrier "DHL" is ambiguous: ...` → `--to "DHL" is ambiguous: ...`, so the message says which flag.
    const message = err.message.startsWith('carrier ')
      ? `${flag} ${err.message.slice('carrier '.length)}`
      : `${flag}: ${err.message}`;
    throw new UsageError(message, err.hint);
  }
}
