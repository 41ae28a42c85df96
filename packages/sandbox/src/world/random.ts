// Seeded randomness for the simulated world: the same input always gives the same shipment, on every
// machine and every run. FNV-1a turns text into a 32-bit seed; mulberry32 draws from it.

/** FNV-1a 32-bit hash of a string (UTF-16 code units), unsigned. */
export function fnv1a(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Signed 32-bit form of a hash: the service's hash fields (`events_hash`, `hs`) are signed integers. */
export function signed32(text: string): number {
  return fnv1a(text) | 0;
}

/** A small deterministic generator with the draws the world needs. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** Float in [min, max). */
  range(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
}

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    range: (min, max) => min + next() * (max - min),
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new RangeError('pick from an empty list');
      return items[Math.floor(next() * items.length)] as T;
    },
  };
}

/** Generator seeded by text. */
export function rngFor(text: string): Rng {
  return mulberry32(fnv1a(text));
}
