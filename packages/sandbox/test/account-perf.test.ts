// Smoke check at full size: 100,000 records load, tick and answer a filtered gettracklist. Times are
// printed, not asserted (the machine is shared).

import { expect, it } from 'vitest';
import { Account } from '../src/account/account.js';
import { sampleNumber } from '../src/world/index.js';
import { DAY, type Json, makeAccount } from './account-fixture.js';

const CARRIERS = [3011, 190012, 100002, 21051, 190271];

it('100,000 records: register, first runs, filtered lists, a 40-day jump, save and load', async () => {
  const t = makeAccount();
  const timings: Record<string, number> = {};
  const time = async <T>(name: string, fn: () => T | Promise<T>): Promise<T> => {
    const start = performance.now();
    const out = await fn();
    timings[name] = Math.round(performance.now() - start);
    return out;
  };

  await time('register 100k (2,500 requests)', () => {
    for (let b = 0; b < 2500; b++) {
      const items = Array.from({ length: 40 }, (_, i) => {
        const k = b * 40 + i;
        return { number: sampleNumber(CARRIERS[k % CARRIERS.length] as number, k), tag: `batch-${b % 50}` };
      });
      const env = t.v2('register', items);
      if (env.data.rejected.length > 0) throw new Error(JSON.stringify(env.data.rejected[0]));
    }
  });
  expect(t.account.stats().records).toBe(100_000);

  await time('first tracking runs (one tick)', () => t.advance(20_000));

  const inTransit: Json = await time('gettracklist package_status + order + page 3', () =>
    t.v2('gettracklist', { package_status: 'InTransit', order_by: 'RegisterTimeDesc', page_no: 3 }),
  );
  expect(inTransit.data.accepted).toHaveLength(40);
  expect(inTransit.data.accepted.every((r: Json) => r.package_status === 'InTransit')).toBe(true);

  const fuzzy: Json = await time('gettracklist fuzzy number (v2.1)', () => t.v21('gettracklist', { number: '12345' }));
  expect(fuzzy.data.accepted.every((r: Json) => r.number.includes('12345'))).toBe(true);

  const exact: Json = await time('gettracklist 200 exact numbers', () =>
    t.v2('gettracklist', {
      number: Array.from({ length: 200 }, (_, k) => sampleNumber(CARRIERS[k % 5] as number, k)).join(','),
    }),
  );
  expect(exact.page.data_total).toBe(200);

  await time('gettracklist no filter', () => t.v2('gettracklist', {}));
  await time('one idle tick', () => t.advance(1000));
  await time('jump 40 days (one tick)', () => t.advance(40 * DAY));

  const json = await time('toJSON + stringify', () => JSON.stringify(t.account.toJSON()));
  const restored = await time(
    'parse + restore',
    () => new Account({ settings: t.account.settings, now: t.now, deliver: async () => 200 }, JSON.parse(json)),
  );
  expect(restored.stats().records).toBe(t.account.stats().records);
  const a = restored.handle('v2', 'gettracklist', { tracking_status: 'Stopped', page_no: 7 });
  expect(a).toEqual(t.v2('gettracklist', { tracking_status: 'Stopped', page_no: 7 }));

  process.stderr.write(`account at 100,000 records (state ${(json.length / 1e6).toFixed(1)} MB):\n`);
  for (const [name, ms] of Object.entries(timings)) process.stderr.write(`  ${name}: ${ms} ms\n`);
}, 120_000);
