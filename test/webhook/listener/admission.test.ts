import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Admission, Lane } from '../../../src/webhook/listener/admission.js';

describe('Lane', () => {
  it('gives turns at once up to its limit, then in order as released, and busy past the waiting room', async () => {
    const lane = new Lane(1, 2);
    expect(await lane.take(new EventEmitter())).toBe(lane);
    const order: string[] = [];
    const second = lane.take(new EventEmitter()).then((t) => order.push(`second ${t === lane}`));
    const third = lane.take(new EventEmitter()).then((t) => order.push(`third ${t === lane}`));
    expect(await lane.take(new EventEmitter())).toBe('busy');
    lane.release();
    await second;
    lane.release();
    await third;
    expect(order).toEqual(['second true', 'third true']);
  });

  it('a request that closes while it waits gives up its place', async () => {
    const lane = new Lane(1, 1);
    await lane.take(new EventEmitter());
    const req = new EventEmitter();
    const waiting = lane.take(req);
    req.emit('close');
    expect(await waiting).toBe('gone');
    // Its place is free again.
    const next = lane.take(new EventEmitter());
    lane.release();
    expect(await next).toBe(lane);
  });
});

describe('Admission', () => {
  const limits = { maxConcurrentBodies: 1, smallBodyBytes: 100, maxConcurrentSmallBodies: 1, maxWaiting: 0 };

  it('reads bodies announced small in a lane of their own: large ones cannot take their turns', async () => {
    const a = new Admission(limits);
    const large = await a.take(new EventEmitter(), 5000);
    expect(large).toBeInstanceOf(Lane);
    expect(await a.take(new EventEmitter(), undefined)).toBe('busy'); // no length: read as large
    const small = await a.take(new EventEmitter(), 100);
    expect(small).toBeInstanceOf(Lane);
    expect(small).not.toBe(large);
    expect(await a.take(new EventEmitter(), 10)).toBe('busy');
    (small as Lane).release();
    expect(await a.take(new EventEmitter(), 0)).toBe(small);
  });
});
