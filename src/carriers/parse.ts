// The service's reference lists, read defensively: they change over time and have carried surprises (carrier
// keys as zero-padded strings in old lists, names with stray spaces, empty country codes). An entry without a
// usable key is skipped rather than failing the whole list.

export interface Carrier {
  /** The carrier code. */
  key: number;
  /** Display name, trimmed and with inner runs of spaces collapsed. */
  name: string;
  /** Localised names (`_name_zh-cn`, ...) that differ from `name`, cleaned the same way. */
  altNames: string[];
  /** `name` and `altNames` in comparison form (see normalise), computed once for searching. */
  matchNames: string[];
  /** ISO 3166-1 code of the carrier's country; null when the list gives none. */
  countryIso: string | null;
  /** Key of the carrier's country in the country list; null when none (0). */
  countryKey: number | null;
  url: string | null;
  /** The entry as the service sent it (what --json prints). */
  raw: Record<string, unknown>;
}

export interface Country {
  key: number;
  name: string;
  matchNames: string[];
  raw: Record<string, unknown>;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Comparison form: Unicode-normalised, spaces collapsed, lower case. */
export function normalise(s: string): string {
  return s.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/** `"  DHL  Express "` → `DHL Express`. */
export function cleanName(v: unknown): string {
  return typeof v === 'string' ? v.trim().replace(/\s+/g, ' ') : '';
}

/** An integer key, or a string of digits (old lists zero-padded them: `"03011"`); anything else is none. */
export function parseKey(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? v : undefined;
  if (typeof v === 'string' && /^\s*\d{1,15}\s*$/.test(v)) return Number.parseInt(v, 10);
  return undefined;
}

function optionalText(v: unknown): string | null {
  const s = cleanName(v);
  return s === '' ? null : s;
}

export function parseCarriers(items: readonly unknown[]): Carrier[] {
  const out: Carrier[] = [];
  for (const item of items) {
    if (!isObj(item)) continue;
    const key = parseKey(item.key);
    if (key === undefined) continue;
    const name = cleanName(item._name);
    const altNames: string[] = [];
    for (const [field, value] of Object.entries(item)) {
      if (!field.startsWith('_name_')) continue;
      const alt = cleanName(value);
      if (alt !== '' && alt !== name && !altNames.includes(alt)) altNames.push(alt);
    }
    const countryKey = parseKey(item._country);
    const iso = cleanName(item._country_iso).toUpperCase();
    const shown = name || altNames[0] || String(key);
    out.push({
      key,
      name: shown,
      altNames,
      matchNames: [...new Set([shown, ...altNames].map(normalise))],
      countryIso: /^[A-Z]{2}$/.test(iso) ? iso : null,
      countryKey: countryKey === undefined || countryKey === 0 ? null : countryKey,
      url: optionalText(item._url),
      raw: item,
    });
  }
  return out;
}

export function parseCountries(items: readonly unknown[]): Country[] {
  const out: Country[] = [];
  for (const item of items) {
    if (!isObj(item)) continue;
    const key = parseKey(item.key);
    if (key === undefined) continue;
    const name = cleanName(item._name) || String(key);
    out.push({ key, name, matchNames: [normalise(name)], raw: item });
  }
  return out;
}

/**
 * Country key → ISO code, learnt from the carrier list (the country list itself has no ISO codes; each carrier
 * entry gives both its country's key and its ISO code).
 */
export function countryIsoByKey(carriers: readonly Carrier[]): Map<number, string> {
  const map = new Map<number, string>();
  for (const c of carriers) {
    if (c.countryKey !== null && c.countryIso !== null && !map.has(c.countryKey)) map.set(c.countryKey, c.countryIso);
  }
  return map;
}
