import { describe, expect, it } from 'vitest';
import { parseTimeArg, toIsoUtc } from '../../src/commands/list/time.js';

const NOW = Date.parse('2025-06-15T12:30:45.678Z');

describe('parseTimeArg', () => {
  it.each([
    ['30s', '2025-06-15T12:30:15Z'],
    ['30m', '2025-06-15T12:00:45Z'],
    ['12h', '2025-06-15T00:30:45Z'],
    ['7d', '2025-06-08T12:30:45Z'],
    ['2w', '2025-06-01T12:30:45Z'],
    ['0d', '2025-06-15T12:30:45Z'],
    ['7D', '2025-06-08T12:30:45Z'],
    ['now', '2025-06-15T12:30:45Z'],
  ])('relative %s is that long before now, in UTC', (text, expected) => {
    expect(parseTimeArg(text, NOW)).toBe(expected);
  });

  it.each([
    ['2024-05-01', '2024-05-01T00:00:00Z'],
    ['2024-05-01T08:15', '2024-05-01T08:15:00Z'],
    ['2024-05-01 08:15:30', '2024-05-01T08:15:30Z'],
    ['2024-05-01T08:15:30Z', '2024-05-01T08:15:30Z'],
    ['2024-05-01T08:15:30.250Z', '2024-05-01T08:15:30Z'],
    ['2024-05-01T10:00+02:00', '2024-05-01T08:00:00Z'],
    ['2024-05-01T10:00:00+0200', '2024-05-01T08:00:00Z'],
    ['2024-05-01T00:30-01:00', '2024-05-01T01:30:00Z'],
    ['2024-02-29', '2024-02-29T00:00:00Z'],
  ])('ISO %s becomes %s (no zone = UTC)', (text, expected) => {
    expect(parseTimeArg(text, NOW)).toBe(expected);
  });

  it.each([
    '',
    'yesterday',
    '7',
    'd7',
    '7y',
    '-7d',
    '2024-13-01',
    '2024-02-30',
    '2023-02-29',
    '2024-05-01T24:00',
    '2024-5-1',
    '1.5h',
  ])('refuses %j', (text) => {
    expect(parseTimeArg(text, NOW)).toBeUndefined();
  });

  it('toIsoUtc drops milliseconds', () => {
    expect(toIsoUtc(Date.UTC(2020, 0, 2, 3, 4, 5, 999))).toBe('2020-01-02T03:04:05Z');
  });
});
