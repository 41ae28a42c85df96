// `trk config get|set|unset carrier-alias.NAME [CODE]`: a shop's own name of a carrier, kept in the profile.
// Names are compared folded (accents, case and punctuation aside), so `carrier-alias.dhl` replaces `DHL`.

import { parseAliasCode } from '../../carriers/aliases.js';
import { foldName } from '../../carriers/names.js';
import { CARRIER_ALIAS_PREFIX, MAX_ALIAS_NAME, keyNameProblem } from '../../config/keys.js';
import type { Settings } from '../../config/settings.js';
import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';

/** The alias `key` names; a name that is empty or not a plain name (keyNameProblem) is refused, exit 2. */
function aliasName(key: string): string {
  const name = key.slice(CARRIER_ALIAS_PREFIX.length).trim();
  const fix = "give carrier-alias.NAME with a carrier's name as your shop writes it, e.g. carrier-alias.DHL";
  if (foldName(name) === '') throw new UsageError(`${JSON.stringify(key)} names no carrier alias`, fix);
  const problem = keyNameProblem(name, MAX_ALIAS_NAME);
  if (problem !== undefined) throw new UsageError(`carrier alias ${problem}`, fix);
  return name;
}

/** The profile's aliases without `name` (in any spelling that folds alike). */
function without(aliases: Readonly<Record<string, number>>, name: string): Record<string, number> {
  return Object.fromEntries(Object.entries(aliases).filter(([n]) => foldName(n) !== foldName(name)));
}

export async function getAlias(key: string, ctx: Context): Promise<number> {
  const name = aliasName(key);
  const found = Object.entries((await ctx.settings()).carrierAliases ?? {}).find(
    ([n]) => foldName(n) === foldName(name),
  );
  if (found) ctx.io.out(`${found[1]}\n`);
  else ctx.info(`${key} is not set`);
  return 0;
}

/** Sets (or with `value` undefined removes) one alias of the profile `s`. */
export async function setAlias(key: string, value: string | undefined, s: Settings, ctx: Context): Promise<number> {
  const name = aliasName(key);
  let code: number | undefined;
  if (value !== undefined) {
    try {
      code = parseAliasCode(value);
    } catch (err) {
      throw new UsageError(`${key}: ${(err as Error).message}`, 'find the code with `trk carriers NAME`');
    }
  }
  const { openProfileStore } = await import('../../config/profiles.js');
  const store = openProfileStore(ctx.env);
  const saved = store.get(s.profile)?.carrierAliases ?? {};
  const aliases = without(saved, name);
  if (code === undefined && Object.keys(aliases).length === Object.keys(saved).length) {
    // Nothing to remove: the file stays as it is (no empty profile is saved for it).
    ctx.info(`${CARRIER_ALIAS_PREFIX}${name} is not set in profile "${s.profile}"`);
    return 0;
  }
  if (code !== undefined) aliases[name] = code;
  store.set(s.profile, { carrierAliases: aliases });
  const meaning = code === 0 ? 'no carrier (the service detects it)' : String(code);
  ctx.info(
    code === undefined
      ? `removed ${CARRIER_ALIAS_PREFIX}${name} from profile "${s.profile}"`
      : `${CARRIER_ALIAS_PREFIX}${name} = ${meaning} in profile "${s.profile}"`,
  );
  return 0;
}
