// The parsers of option values, run by commander: a bad value is a usage error (exit 2) naming what it takes.

import { InvalidArgumentError, Option } from '../commander.js';

export function positiveInt(what: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim()) || Number(value) < 1)
      throw new InvalidArgumentError(`${what} must be a positive integer.`);
    return Number(value);
  };
}

export function nonNegativeInt(what: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError(`${what} must be an integer.`);
    return Number(value);
  };
}

/** A carrier code or name, kept as typed: names become codes when the command runs (see common/carrier-args.ts). */
export function carrierArg(value: string): string {
  const t = value.trim();
  if (t === '') throw new InvalidArgumentError('give a carrier code or name.');
  return t;
}

/**
 * `--number A,B --number C` → [A, B, C]. An empty value is refused: `--number "$EMPTY"` must not turn into no
 * filter at all, which would list (and hand on to a pipe) every record of the account.
 */
export function listOf(what: string) {
  return (value: string, previous: string[] | undefined): string[] => {
    const parts = value
      .split(/[,\s]+/)
      .map((s) => s.trim())
      .filter(Boolean);
    if (parts.length === 0) throw new InvalidArgumentError(`give at least one ${what}.`);
    return [...(previous ?? []), ...parts];
  };
}

/** Every value of a repeated option, as given. */
export function repeated(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function maxLength(what: string, max: number) {
  return (value: string): string => {
    if (value.length > max) throw new InvalidArgumentError(`${what} is at most ${max} characters.`);
    return value;
  };
}

export const carrierOption = (what = 'carrier code or name') =>
  new Option('--carrier <carrier>', what).argParser(carrierArg);

/**
 * Values of a fixed set, matched whatever their case (`--status delivered`), comma separated or repeated
 * (`--status Exception,DeliveryFailure --status Expired`): the canonical spellings, each once, in the order given.
 * The set shows in help and completions like commander's own choices.
 */
export function choiceList<F extends string, T extends string>(flag: F, description: string, values: readonly T[]) {
  const byLower = new Map(values.map((v) => [v.toLowerCase(), v]));
  const option = new Option(flag, description).argParser((value: string, previous: T[] | undefined): T[] => {
    const out = [...(previous ?? [])];
    const parts = value.split(',').map((s) => s.trim());
    if (parts.every((p) => p === '')) throw new InvalidArgumentError(`Allowed choices are ${values.join(', ')}.`);
    for (const part of parts) {
      if (part === '') continue;
      const canonical = byLower.get(part.toLowerCase());
      if (canonical === undefined)
        throw new InvalidArgumentError(`Allowed choices are ${values.join(', ')} (any case).`);
      if (!out.includes(canonical)) out.push(canonical);
    }
    return out;
  });
  option.argChoices = [...values];
  return option;
}

/** One value of a fixed set, matched whatever its case (`--order-by registertimedesc`); given twice, refused. */
export function choiceOf<F extends string, T extends string>(flag: F, description: string, values: readonly T[]) {
  const byLower = new Map(values.map((v) => [v.toLowerCase(), v]));
  const option = new Option(flag, description).argParser((value: string, previous: T | undefined): T => {
    const canonical = byLower.get(value.trim().toLowerCase());
    if (canonical === undefined) throw new InvalidArgumentError(`Allowed choices are ${values.join(', ')} (any case).`);
    if (previous !== undefined && previous !== canonical)
      throw new InvalidArgumentError(`give it once (${previous} was given already).`);
    return canonical;
  });
  option.argChoices = [...values];
  return option;
}

/** `30s`, `10m`, `1h` (a bare number is minutes) → milliseconds; at least a second. */
export function intervalArg(value: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(s|m|h)?$/i.exec(value.trim());
  const ms = m
    ? Number(m[1]) * { s: 1_000, m: 60_000, h: 3_600_000 }[(m[2]?.toLowerCase() ?? 'm') as 's' | 'm' | 'h']
    : NaN;
  if (!(ms >= 1_000)) throw new InvalidArgumentError('give a duration of at least a second, such as 30s, 10m or 1h.');
  return Math.round(ms);
}
