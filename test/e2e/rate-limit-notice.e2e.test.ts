// A 429 although trk keeps to the service's pace: one in a run is said only with -v, with why it happened (this
// machine was busy, or something the budget does not count uses the key); from the second on it is shown. The
// emulator answers 429 to the next requests when told to (burst429), as a request of another program on the key
// would make it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numbers, startEmulator, trk, type Emulator } from './helpers.js';

let emu: Emulator;

beforeAll(async () => {
  emu = await startEmulator({ speed: 0 });
  const r = await trk(['-q', 'register', ...numbers(3, 'LA'), '--carrier', '3011'], { env: emu.env });
  expect(r.code, r.stderr).toBe(0);
}, 60_000);

afterAll(async () => {
  await emu?.close();
});

/** The lines of a wait for a 429. */
const limited = (stderr: string) => stderr.split('\n').filter((l) => l.includes('rate limited'));
/** Why: a stall of this process just before it, or nothing this machine's trk can see. */
const WHY = new RegExp(
  String.raw`: (this machine was busy \(trk stalled \d+ ms\), so requests reached it closer together than paced|` +
    String.raw`something else uses this API key \(another host or program\), which trk's pace does not count)`,
);

describe('a 429 in a run paced to the service', () => {
  it('once: nothing on stderr without -v; with -v, why, and the wait', async () => {
    emu.sandbox.setFaults({ burst429: 1 });
    const quiet = await trk(['list'], { env: emu.env });
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(limited(quiet.stderr)).toEqual([]);
    emu.sandbox.setFaults({ burst429: 1 });
    const verbose = await trk(['list', '-v'], { env: emu.env });
    expect(verbose.code, verbose.stderr).toBe(0);
    const [line, ...more] = limited(verbose.stderr).filter((l) => l.startsWith('rate limited'));
    expect(more).toEqual([]);
    expect(line).toMatch(new RegExp(`^rate limited by the service${WHY.source}, resuming in [12] s$`));
  });

  it('again in the same run: shown without -v, saying it is not the first', async () => {
    emu.sandbox.setFaults({ burst429: 2 });
    const r = await trk(['list'], { env: emu.env });
    expect(r.code, r.stderr).toBe(0);
    expect(limited(r.stderr)).toEqual([
      expect.stringMatching(new RegExp(`^rate limited by the service again${WHY.source}, resuming in [12] s$`)),
    ]);
  });
});
