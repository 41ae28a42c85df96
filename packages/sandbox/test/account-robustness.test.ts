// Whatever JSON arrives, handle() answers an envelope and never throws.

import { expect, it } from 'vitest';
import { API_VERSIONS } from '@trk/service/vocabulary.js';
import { OPERATIONS, operationPath } from '@trk/service/operations/index.js';
import { mulberry32 } from '../src/world/random.js';
import { chinaPost, makeAccount } from './account-fixture.js';

const FIELDS = [
  'number',
  'carrier',
  'tag',
  'param',
  'extra_param',
  'lang',
  'email',
  'final_carrier',
  'auto_detection',
  'order_no',
  'order_time',
  'remark',
  'items',
  'carrier_old',
  'carrier_new',
  'final_carrier_old',
  'final_carrier_new',
  'cacheLevel',
  'page_no',
  'order_by',
  'package_status',
  'register_time_from',
  'push_state',
  'tracking_state',
];

it('random bodies never make handle() throw', async () => {
  const rng = mulberry32(2026);
  const values = (): unknown => {
    const pick = rng.int(0, 11);
    return [
      null,
      true,
      0,
      -1,
      1.5,
      3011,
      '',
      'x',
      chinaPost(rng.int(0, 5)),
      ['a'],
      { tag: 'x', lang: 'de', param: 5 },
      '2026-03-02',
    ][pick];
  };
  const item = (): Record<string, unknown> =>
    Object.fromEntries(Array.from({ length: rng.int(0, 5) }, () => [rng.pick(FIELDS), values()]));
  const body = (): unknown => {
    switch (rng.int(0, 5)) {
      case 0:
        return values();
      case 1:
        return item();
      default:
        return Array.from({ length: rng.int(0, 3) }, () => (rng.chance(0.9) ? item() : values()));
    }
  };
  const t = makeAccount({ settings: { webhookUrl: 'http://127.0.0.1:1/hook' } });
  t.v2(
    'register',
    Array.from({ length: 6 }, (_, i) => ({ number: chinaPost(i) })),
  );
  for (let round = 0; round < 3000; round++) {
    const version = rng.pick(API_VERSIONS);
    const op = rng.pick(OPERATIONS.filter((o) => operationPath(version, o) !== undefined));
    const env = t.call(version, op, body());
    expect(typeof env.code).toBe('number');
    expect(env.data).toBeTypeOf('object');
    if (round % 100 === 0) await t.advance(7 * 3600_000);
  }
});
