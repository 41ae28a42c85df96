import { describe, expect, it } from 'vitest';
import { parseDuration, requestTimeoutMs } from '../../src/config/timeout.js';
import { UsageError } from '../../src/core/errors.js';

describe('request time limit', () => {
  it('reads 30s, 2m, 1500ms and bare seconds', () => {
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration(' 2m ')).toBe(120_000);
    expect(parseDuration('1500ms')).toBe(1500);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('45')).toBe(45_000);
    expect(parseDuration('2h')).toBeUndefined();
    expect(parseDuration('-1s')).toBeUndefined();
    expect(parseDuration('')).toBeUndefined();
  });

  it('the flag wins over TRK_TIMEOUT, which wins over the default of 30 s', () => {
    expect(requestTimeoutMs(undefined, {})).toBe(30_000);
    expect(requestTimeoutMs(undefined, { TRK_TIMEOUT: '10s' })).toBe(10_000);
    expect(requestTimeoutMs(undefined, { TRK_TIMEOUT: ' ' })).toBe(30_000);
    expect(requestTimeoutMs('5s', { TRK_TIMEOUT: '10s' })).toBe(5000);
  });

  it('refuses what is not a duration, or too short or long to mean one, naming its source', () => {
    expect(() => requestTimeoutMs('fast', {})).toThrow(UsageError);
    expect(() => requestTimeoutMs('50ms', {})).toThrow('invalid --timeout "50ms"');
    expect(() => requestTimeoutMs(undefined, { TRK_TIMEOUT: '2d' })).toThrow('invalid TRK_TIMEOUT "2d"');
    expect(() => requestTimeoutMs('61m', {})).toThrow('invalid --timeout "61m"');
  });
});
