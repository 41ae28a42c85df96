// Country flags (`trk report --from CN --to "United States"`) take an ISO 3166-1 code, as the mirror's records hold
// countries, or a country's name. A code needs no list; the first name loads the country list (and the carrier
// list, which alone gives the ISO code of each country), as a carrier name loads the carrier list.

import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { countryIsoByKey, normalise } from '../../carriers/parse.js';
import { searchCountries } from '../../carriers/search.js';

const ISO_CODE = /^[A-Za-z]{2}$/;

/** The ISO codes of `values` given to `flag`; undefined when the flag was not given. */
export async function resolveCountryArgs(
  ctx: Context,
  flag: string,
  values: readonly string[] | undefined,
): Promise<string[] | undefined> {
  if (values === undefined) return undefined;
  let byName: ((name: string) => string) | undefined;
  const out: string[] = [];
  for (const value of values) {
    const v = value.trim();
    if (ISO_CODE.test(v)) {
      out.push(v.toUpperCase());
      continue;
    }
    byName ??= await countryResolver(ctx, flag);
    out.push(byName(v));
  }
  return [...new Set(out)];
}

async function countryResolver(ctx: Context, flag: string): Promise<(name: string) => string> {
  const { loadCarriers, loadCountries } = await import('../../carriers/lookup.js');
  const [{ countries }, { carriers }] = await Promise.all([loadCountries(ctx), loadCarriers(ctx)]);
  const iso = countryIsoByKey(carriers);
  return (name) => {
    const found = searchCountries(countries, name, (k) => iso.get(k)).filter((c) => iso.has(c.key));
    const exact = found.filter((c) => c.matchNames.includes(normalise(name)));
    const chosen = exact.length === 1 ? exact : found;
    if (chosen.length === 1) return iso.get(chosen[0]!.key)!;
    if (chosen.length === 0)
      throw new UsageError(
        `${flag} ${JSON.stringify(name)} names no country`,
        'give an ISO code such as US or DE, or see "trk countries NAME"',
      );
    const names = chosen.slice(0, 5).map((c) => `${c.name} (${iso.get(c.key)})`);
    throw new UsageError(
      `${flag} ${JSON.stringify(name)} names several countries: ${names.join(', ')}${chosen.length > 5 ? ', ...' : ''}`,
      'give its ISO code',
    );
  };
}
