import { describe, expect, it } from 'vitest';
import { isoUtc, isoWithOffset, parseTimeFilter, v1Time } from '../src/account/time.js';

describe('account time formats', () => {
  const t = Date.parse('2026-06-30T17:23:05.250Z');
  it('formats like the service', () => {
    expect(isoUtc(t)).toBe('2026-06-30T17:23:05Z');
    expect(isoUtc(null)).toBeNull();
    expect(v1Time(t)).toBe('2026-06-30 17:23:05');
    expect(isoWithOffset(t, -180)).toBe('2026-06-30T14:23:05-03:00');
    expect(isoWithOffset(t, 330)).toBe('2026-06-30T22:53:05+05:30');
  });

  it.each([
    ['2026-06-30T17:23:05Z', false, '2026-06-30T17:23:05.000Z'],
    ['2026-06-30T17:23:05', false, '2026-06-30T17:23:05.000Z'],
    ['2026-06-30 17:23:05', false, '2026-06-30T17:23:05.000Z'],
    ['2026-06-30T19:23:05+02:00', false, '2026-06-30T17:23:05.000Z'],
    ['2026-06-30T19:23:05+0200', false, '2026-06-30T17:23:05.000Z'],
    ['2026-06-30', false, '2026-06-30T00:00:00.000Z'],
    ['2026-06-30', true, '2026-06-30T23:59:59.999Z'],
  ])('parseTimeFilter(%s, end=%s)', (text, end, expected) => {
    expect(new Date(parseTimeFilter(text, end) as number).toISOString()).toBe(expected);
  });

  it.each(['yesterday', '2026-13-01', '2026/06/30', '', 5])('refuses %s', (value) => {
    expect(parseTimeFilter(value)).toBeUndefined();
  });
});
