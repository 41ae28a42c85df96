import { describe, expect, it } from 'vitest';
import { ago, tableTime, zonedTime, zoneOfEnv } from '../../src/output/times.js';
import { isoWithOffset } from '@trk/service/times.js';

const NOW = Date.parse('2026-11-23T12:00:00Z');

describe('isoWithOffset: what machine formats print', () => {
  it('keeps ISO times with an offset, adds the T to a spaced one', () => {
    expect(isoWithOffset('2026-06-30T17:23:00Z')).toBe('2026-06-30T17:23:00Z');
    expect(isoWithOffset('2026-06-30T14:23:00-03:00')).toBe('2026-06-30T14:23:00-03:00');
    expect(isoWithOffset('2026-11-23 17:52:00 -05:00')).toBe('2026-11-23T17:52:00-05:00');
    expect(isoWithOffset('2026-11-23 17:52 +0530')).toBe('2026-11-23T17:52:00+05:30');
    expect(isoWithOffset('2026-06-30T17:23:00.250Z')).toBe('2026-06-30T17:23:00.250Z');
  });

  it('a time without a zone is UTC only when the service meant UTC; else it has no ISO form', () => {
    expect(isoWithOffset('2022-03-07 17:22:53', { utc: true })).toBe('2022-03-07T17:22:53Z');
    expect(isoWithOffset('2026-11-23 17:52')).toBeNull();
    expect(isoWithOffset('yesterday')).toBeNull();
    expect(isoWithOffset('')).toBeNull();
    expect(isoWithOffset(null)).toBeNull();
  });
});

describe('tableTime: what tables show', () => {
  it('the instant in the reader zone with its offset, summer and winter alike', () => {
    expect(tableTime('2026-11-23T16:52:00Z', { zone: 'Europe/Berlin', now: NOW })).toBe('2026-11-23 17:52 +01:00');
    expect(tableTime('2026-06-30T17:23:00Z', { zone: 'Europe/Berlin', now: NOW })).toBe('2026-06-30 19:23 +02:00');
    expect(tableTime('2026-06-30T14:23:00-03:00', { zone: 'Asia/Kolkata', now: NOW })).toBe('2026-06-30 22:53 +05:30');
    expect(tableTime('2026-06-30T14:23:00-03:00', { zone: 'UTC', now: NOW })).toBe('2026-06-30 17:23 +00:00');
  });

  it('ages with relative', () => {
    expect(tableTime('2026-11-23T09:00:00Z', { relative: true, now: NOW })).toBe('3h ago');
    expect(tableTime('2026-11-20T12:00:00Z', { relative: true, now: NOW })).toBe('3d ago');
    expect(tableTime('2026-11-23T11:59:30Z', { relative: true, now: NOW })).toBe('just now');
    expect(tableTime('2026-11-26', { relative: true, now: NOW })).toBe('in 2d');
  });

  it('a carrier wall clock without a zone is shown as written; text that is no time as is', () => {
    expect(tableTime('2026-06-30 14:23:00', { zone: 'Asia/Tokyo', now: NOW })).toBe('2026-06-30 14:23');
    expect(tableTime('Mon 3pm', { now: NOW })).toBe('Mon 3pm');
    expect(tableTime(null, { now: NOW })).toBe('');
  });
});

describe('the reader zone', () => {
  it('is TZ when Intl knows it, the system one otherwise', () => {
    expect(zoneOfEnv({ TZ: 'America/New_York' })).toBe('America/New_York');
    expect(zoneOfEnv({ TZ: ':Europe/Paris' })).toBe('Europe/Paris');
    expect(zoneOfEnv({ TZ: 'Not/AZone' })).toBeUndefined();
    expect(zoneOfEnv({})).toBeUndefined();
    expect(zonedTime(Date.parse('2026-01-01T00:00:00Z'), 'America/New_York')).toBe('2025-12-31 19:00 -05:00');
  });

  it('ago: minutes, hours, days, future', () => {
    expect(ago(NOW - 5 * 60_000, NOW)).toBe('5m ago');
    expect(ago(NOW - 47 * 3_600_000, NOW)).toBe('47h ago');
    expect(ago(NOW + 2 * 3_600_000, NOW)).toBe('in 2h');
  });
});
