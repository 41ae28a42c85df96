// Values the mirror's flags take: ages (`--stale 7d`) and starting points (`--since 24h`, `--since 2026-06-01`).

import { InvalidArgumentError, Option } from '../commander.js';

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** `45s`, `30m`, `12h`, `7d`, `2w` → milliseconds. */
export function ageArg(value: string): number {
  const m = /^(\d+)\s*([smhdw])$/i.exec(value.trim());
  if (!m) throw new InvalidArgumentError('give an age such as 12h, 7d or 2w.');
  return Number(m[1]) * UNIT_MS[m[2]!.toLowerCase() as keyof typeof UNIT_MS];
}

/** --db on every command that opens the mirror. */
export const dbOption = () =>
  new Option(
    '--db <file|url>',
    'the mirror: a SQLite file or a postgres:// address ' +
      '(default: TRK_DB, the db setting, else a file per profile in the data folder)',
  );
