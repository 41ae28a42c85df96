// The pace per target: waits on trk's clock (the tests' clock counts what they would cost), each target apart.

import { expect, it } from 'vitest';
import { clock } from '../../../src/core/clock.js';
import { TargetPace } from '../../../src/mirror/notify/pace.js';
import type { SkippingClock } from '../../skipping-clock.js';

it('spaces the messages to one target by 1/pace seconds, and leaves other targets their own pace', async () => {
  const skipping = clock() as SkippingClock;
  const pace = new TargetPace(2);
  const start = skipping.skippedMs;
  for (let i = 0; i < 5; i++) await pace.wait('smtp');
  // Four gaps of half a second after the first message.
  expect(skipping.skippedMs - start).toBeGreaterThanOrEqual(1900);
  const other = skipping.skippedMs;
  await pace.wait('https://hooks.example/x');
  expect(skipping.skippedMs - other).toBe(0);
  const none = new TargetPace(undefined);
  const before = skipping.skippedMs;
  for (let i = 0; i < 5; i++) await none.wait('smtp');
  expect(skipping.skippedMs).toBe(before);
});
