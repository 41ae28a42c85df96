// What a command asks of the renderers: times are counted from the service's clock as it is when a row is drawn.
import { describe, expect, it } from 'vitest';
import { outputOf } from '../../src/commands/common/output.js';
import { tableTime } from '../../src/output/times.js';
import { createFake } from '../fake-context.js';

describe('outputOf', () => {
  it('reads "now" when a table is drawn: the sandbox\'s clock, known only once it has started, counts', () => {
    const fake = createFake({ global: { relative: true } });
    let now = Date.parse('2026-11-26T12:00:00Z');
    fake.ctx.now = () => now;
    const spec = outputOf(fake.ctx);
    // The emulator starts with the first request, ten simulated days ahead of the machine.
    now += 10 * 86_400_000;
    expect(spec.times?.now).toBe(now);
    expect(tableTime('2026-12-03T12:00:00Z', spec.times!)).toBe('3d ago');
  });
});
