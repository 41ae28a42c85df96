// Small words and numbers of status lines, one way everywhere: `1 number`/`2 numbers`, `1,234,567`, `12m 21s`.

/** `1 number`, `2 numbers`, `3,000 numbers`. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${fmt(n)} ${n === 1 ? word : many}`;
}

/**
 * 1234567 → `1,234,567`. Grouped by hand: toLocaleString loads the ICU locale data, some 3 ms and several MB
 * at the first call, and commands print a count on every run.
 */
/** `a`, `a and b`, `a, b and c`. */
export function listWords(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

export function fmt(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Seconds → `45s`, `12m 21s`, `2h 5m`. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}
