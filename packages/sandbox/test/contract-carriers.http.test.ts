// Every carrier of the service's carrier list is a carrier of the emulator, over HTTP on 127.0.0.1: a seeded
// sample of 200 list keys registers under its own code, tracks, and is addressed by that code afterwards;
// -18019910 is reserved for codes the list lacks.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../src/index.js';
import { mulberry32 } from '../src/world/random.js';
import { fixtureJson } from '../../../test/fixture-files.js';
import { accepted, DAY, openSandbox, post } from './contract-helpers.js';

const LIST = fixtureJson<{ key: number; _group: string }[]>('reference/apicarrier.all.json');
const KEYS = new Set(LIST.map((c) => c.key));

/** 200 distinct keys of the list, the same on every run. */
function sampleKeys(seed: number, n: number): number[] {
  const rng = mulberry32(seed);
  const picked = new Set<number>();
  while (picked.size < n) picked.add(LIST[rng.int(0, LIST.length - 1)]!.key);
  return [...picked];
}
const SAMPLE = sampleKeys(20260601, 200);

/** The extra parameter the carriers simulated in detail ask for (the generic ones need none). */
const PARAMS: Record<number, string> = { 100012: '1234', 100010: 'M1 1AE', 100005: 'DE-10115', 100009: '2026-06-01' };

/** A number no detection pattern claims confidently, so that the code passed stands. */
const numberFor = (key: number): string => `ZQ${key}K${(key * 7919) % 100000}`;

let s: RunningSandbox;
beforeAll(async () => {
  s = await openSandbox();
});
afterAll(() => s.close());

const chunks = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

describe('a sample of 200 carriers of the service list', () => {
  it('registers each under its own code (origin 2), and is addressed by that code afterwards', async () => {
    for (const batch of chunks(SAMPLE, 40)) {
      const items = batch.map((carrier) => ({
        number: numberFor(carrier),
        carrier,
        ...(PARAMS[carrier] ? { param: PARAMS[carrier] } : {}),
      }));
      const got = await accepted(s, 'v2', 'register', items);
      expect(got.map((a) => [a.number, a.carrier, a.origin])).toEqual(batch.map((c) => [numberFor(c), c, 2]));
    }
    await s.advance(10 * DAY);
    for (const batch of chunks(SAMPLE, 40)) {
      const infos = await accepted(
        s,
        'v2',
        'gettrackinfo',
        batch.map((carrier) => ({ number: numberFor(carrier), carrier })),
      );
      expect(infos.map((i) => i.carrier)).toEqual(batch);
      for (const info of infos) {
        // A story of its own carrier: the registered carrier reports the events (or is the one asked, before any).
        const providers = info.track_info.tracking.providers.map((p: any) => p.provider.key);
        expect(providers, `carrier ${info.carrier}`).toContain(info.carrier);
      }
      await accepted(
        s,
        'v2',
        'changeinfo',
        batch.map((carrier) => ({ number: numberFor(carrier), carrier, items: { tag: 't' } })),
      );
    }
    // v1 knows them too.
    const v1 = await accepted(
      s,
      'v1',
      'gettrackinfo',
      SAMPLE.slice(0, 40).map((carrier) => ({ number: numberFor(carrier), carrier })),
    );
    expect(v1.map((i) => i.track?.w1)).toEqual(SAMPLE.slice(0, 40));
  });
});

describe('codes', () => {
  it('a real code outside the detailed table stands at register and works in every later call (100048)', async () => {
    const number = '1Z999AA10123456784'.replace('1Z', 'CE');
    const [reg] = await accepted(s, 'v2', 'register', [{ number, carrier: 100048 }]);
    expect(reg).toMatchObject({ number, carrier: 100048, origin: 2 });
    await s.advance(60_000); // the first result (before it gettrackinfo rejects the number -18019909)
    await accepted(s, 'v2', 'gettrackinfo', [{ number, carrier: 100048 }]);
    await accepted(s, 'v2', 'stoptrack', [{ number, carrier: 100048 }]);
    await accepted(s, 'v1', 'gettrackinfo', [{ number, carrier: 100048 }]);
  });

  it('-18019910 only for codes the list lacks', async () => {
    const absent = [1, 4242, 999_999, 123_456_789].filter((c) => !KEYS.has(c));
    expect(absent).toHaveLength(4);
    for (const carrier of absent) {
      const a = await post(s, 'v2', 'gettrackinfo', [{ number: 'ZQ0000000001', carrier }]);
      expect(a.json.data.rejected[0].error.code, `code ${carrier}`).toBe(-18019910);
      // At register, detection stands in for a wrong code ("if omitted or wrong..."): an undetectable number
      // with a code the list lacks is refused as an incorrect code.
      const r = await post(s, 'v2', 'register', [{ number: 'XX12345', carrier }]);
      expect(r.json.data.rejected[0].error.code, `code ${carrier}`).toBe(-18019910);
    }
  });
});
