// Carrier aliases: a shop's own names of carriers ("DHL" for DHL Paket, "Post" for the national post), kept in
// the profile (`trk config set carrier-alias.NAME CODE`) or given for a run (`--carrier-map FILE` of `name,code`
// rows), beside the few built in (names.ts). `trk carriers --aliases` shows them all. A code of 0, or a word
// for no carrier, makes the name mean "no carrier: let the service detect it".

import { MAX_ALIAS_NAME, keyNameProblem } from '../config/keys.js';
import type { Settings } from '../config/settings.js';
import { UsageError } from '../core/errors.js';
import { BUILT_IN_ALIASES, foldName, isNoCarrier } from './names.js';
import { nodeFs } from '../core/node.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { readFileSync } = nodeFs();

export interface AliasEntry {
  name: string;
  /** 0: no carrier. */
  code: number;
  /** `built in`, `profile "NAME"`, or the map file's path. */
  from: string;
}

/** Every alias in force, the ones that win last: built in, the profile's, the map file's. */
export function aliasEntries(
  settings: Pick<Settings, 'profile' | 'carrierAliases'>,
  carrierMap: string | undefined,
): AliasEntry[] {
  const out: AliasEntry[] = Object.entries(BUILT_IN_ALIASES).map(([name, code]) => ({ name, code, from: 'built in' }));
  for (const [name, code] of Object.entries(settings.carrierAliases ?? {}))
    out.push({ name, code, from: `profile "${settings.profile}"` });
  if (carrierMap !== undefined) out.push(...readCarrierMap(carrierMap));
  return out;
}

/** An alias's code as written: digits, or a word for no carrier (0). Throws a plain Error naming what it wants. */
export function parseAliasCode(text: string): number {
  const t = text.trim();
  if (/^\d{1,9}$/.test(t)) return Number(t);
  if (isNoCarrier(t)) return 0;
  throw new Error(
    `${JSON.stringify(t)} is not a carrier code (a whole number from \`trk carriers\`, or 0 for no carrier)`,
  );
}

/**
 * `--carrier-map FILE`: one `name,code` row a line (`;`, tab or `|` also separate; the code is the last value,
 * so a name may hold commas), a header line allowed, `#` lines and blank lines skipped.
 */
export function readCarrierMap(file: string): AliasEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (err) {
    throw new UsageError(
      `cannot read --carrier-map ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
      'give a file of name,code rows',
    );
  }
  const out: AliasEntry[] = [];
  text.split(/\r\n|\n|\r/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const m = /^(.*)[,;\t|]([^,;\t|]*)$/.exec(line);
    const name = unquote(m?.[1] ?? '');
    const code = unquote(m?.[2] ?? '');
    if (i === 0 && foldName(code) === 'code') return;
    if (!m || foldName(name) === '')
      throw new UsageError(
        `--carrier-map ${file} line ${i + 1}: give name,code`,
        'one carrier name and its code a line',
      );
    const problem = keyNameProblem(name, MAX_ALIAS_NAME);
    if (problem !== undefined)
      throw new UsageError(
        `--carrier-map ${file} line ${i + 1}: ${problem}`,
        "give the carrier's name as your shop writes it",
      );
    try {
      out.push({ name, code: parseAliasCode(code), from: file });
    } catch (err) {
      throw new UsageError(`--carrier-map ${file} line ${i + 1}: ${(err as Error).message}`);
    }
  });
  return out;
}

function unquote(text: string): string {
  const t = text.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1).replace(/""/g, '"').trim() : t;
}
