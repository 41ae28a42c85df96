// The signature comparison goes through crypto.timingSafeEqual on equal-length buffers, on the matching path
// and the failing ones alike.
import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const calls = vi.hoisted(() => [] as [Buffer, Buffer][]);
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return {
    ...actual,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      calls.push([Buffer.from(a as Uint8Array), Buffer.from(b as Uint8Array)]);
      return actual.timingSafeEqual(a, b);
    },
  };
});

const { verifyV1, verifyV2, signedV1Body } = await import('../../src/webhook/verify.js');

const body = '{"event":"TRACKING_STOPPED","data":{"number":"AB123456789","carrier":3011}}';
const sign = createHash('sha256').update(`${body}/key`).digest('hex');

describe('constant-time comparison', () => {
  beforeEach(() => {
    calls.length = 0;
  });

  it('compares a matching v2 sign with timingSafeEqual', () => {
    expect(verifyV2(body, sign, 'key')).toBe(true);
    expect(calls).toHaveLength(1);
    expect(calls[0]![0].length).toBe(calls[0]![1].length);
    expect(calls[0]![1].toString()).toBe(sign);
  });

  it('compares a wrong sign of the right length with timingSafeEqual', () => {
    expect(verifyV2(body, 'f'.repeat(64), 'key')).toBe(false);
    expect(calls).toHaveLength(1);
    expect(calls[0]![1].toString()).toBe('f'.repeat(64));
  });

  it('still spends a comparison on a sign of the wrong length', () => {
    expect(verifyV2(body, 'abc!', 'key')).toBe(false);
    expect(calls).toHaveLength(1);
    expect(calls[0]![0].length).toBe(calls[0]![1].length);
  });

  it('compares v1 signs with timingSafeEqual', () => {
    const v1 = signedV1Body('TRACKING_STOPPED', { number: 'AB123456789', carrier: 3011, tag: '' }, 'key');
    expect(verifyV1(v1, 'key')).toBe(true);
    expect(calls.length).toBeGreaterThanOrEqual(1);
    for (const [a, b] of calls) expect(a.length).toBe(b.length);
  });
});
