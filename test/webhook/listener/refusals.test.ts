import { describe, expect, it } from 'vitest';
import { REFUSALS_SHOWN, RefusalLog } from '../../../src/webhook/listener/refusals.js';

describe('RefusalLog', () => {
  it('shows REFUSALS_SHOWN a minute, counts the rest, and tells the count when the minute turns or at the end', () => {
    const lines: string[] = [];
    let t = 100_000;
    const log = new RefusalLog(
      (l) => lines.push(l),
      () => t,
    );
    for (let i = 0; i < REFUSALS_SHOWN + 3; i++) log.log(`refused ${i}`);
    expect(lines).toHaveLength(REFUSALS_SHOWN);
    t += 60_000;
    log.log('next minute');
    expect(lines.slice(-2)).toEqual(['3 more refused notifications not shown', 'next minute']);
    log.tellHidden();
    expect(lines.at(-1)).toBe('next minute');
    for (let i = 0; i < REFUSALS_SHOWN; i++) log.log('again');
    log.tellHidden();
    expect(lines.at(-1)).toBe('1 more refused notification not shown');
  });
});
