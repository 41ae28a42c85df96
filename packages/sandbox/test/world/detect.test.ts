import { describe, expect, it } from 'vitest';
import { SIM_CARRIERS } from '../../src/world/carriers.js';
import { detectCarrier } from '../../src/world/detect.js';
import { sampleNumber } from '../../src/world/shipment.js';

const detected = (number: string, passed?: number) => {
  const d = detectCarrier(number, passed);
  return d && { key: d.carrier.key, origin: d.origin };
};

describe('detectCarrier without a carrier code', () => {
  it.each([
    ['RR123456789CN', 3011],
    ['LX123456789US', 21051],
    ['CP123456789GB', 11031],
    ['EE123456789AU', 1151],
    ['AA123456789BR', 2151],
    ['RR123456789DE', 7041],
    ['CP123456789FR', 6051],
    ['EJ123456789JP', 10021],
    ['RR123456789CA', 3041],
    ['GE123456789WW', 100004],
    ['1Z999AA10123456784', 100002],
    ['YT2616912345678901', 190012],
    ['LP00123456789012', 190271],
    ['CAINIAO0012345', 190271],
    ['4PX1234567890', 190094],
    ['SF1234567890123', 100012],
    ['JJD000390007812345678', 7041],
    ['GM123456789012345678', 7047],
    ['9214490221582737950192', 21051],
    ['1234567890', 100001],
  ])('%s is confidently %i (origin 1)', (number, key) => {
    expect(detected(number)).toEqual({ key, origin: 1 });
  });

  it('reads lower case and hyphens like the upper-case number', () => {
    expect(detected('rr123456789cn')).toEqual({ key: 3011, origin: 1 });
    expect(detected('1Z-999AA1-0123456784')).toEqual({ key: 100002, origin: 1 });
  });

  it.each([
    ['123456789012', 100003],
    ['123456789012345', 100003],
    ['12345678901234', 100010],
    ['12345678901', 100005],
    ['ABC12345XYZ', 190271],
    ['12345678', 190271],
  ])('%s is a weak guess of %i (origin 3)', (number, key) => {
    expect(detected(number)).toEqual({ key, origin: 3 });
  });

  it.each([
    'XX123456789CN',
    'xx0000000001',
    'ABCDEFGHIJ',
    'NODIGITS-AT-ALL',
    'AB123',
    'A1B2C3',
    'RR123456789RU',
    'RR123456789ZZ',
  ])('%s cannot be detected', (number) => {
    expect(detectCarrier(number)).toBeUndefined();
  });

  it('treats 0 as no code', () => {
    expect(detected('RR123456789CN', 0)).toEqual({ key: 3011, origin: 1 });
  });
});

describe('detectCarrier with a carrier code', () => {
  it('keeps a code that fits the number (origin 2)', () => {
    expect(detected('RR123456789CN', 3011)).toEqual({ key: 3011, origin: 2 });
    expect(detected('1Z999AA10123456784', 100002)).toEqual({ key: 100002, origin: 2 });
  });

  it('accepts any postal operator for a UPU item', () => {
    expect(detected('RR123456789CN', 21051)).toEqual({ key: 21051, origin: 2 });
  });

  it('keeps the code for numbers only weakly guessed or not detectable at all', () => {
    expect(detected('123456789012', 100002)).toEqual({ key: 100002, origin: 2 });
    expect(detected('XX123456789CN', 100766)).toEqual({ key: 100766, origin: 2 });
    expect(detected('DFE000123456', 101066)).toEqual({ key: 101066, origin: 2 });
  });

  it('corrects a wrong code when another carrier confidently owns the number (origin 1)', () => {
    expect(detected('1Z999AA10123456784', 100003)).toEqual({ key: 100002, origin: 1 });
    expect(detected('RR123456789CN', 190012)).toEqual({ key: 3011, origin: 1 });
    expect(detected('YT2616912345678901', 3011)).toEqual({ key: 190012, origin: 1 });
  });

  it('replaces an unknown code by detection, keeping weak guesses weak', () => {
    expect(detected('RR123456789CN', 424242)).toEqual({ key: 3011, origin: 1 });
    expect(detected('123456789012', 424242)).toEqual({ key: 100003, origin: 3 });
    expect(detectCarrier('XX123456789CN', 424242)).toBeUndefined();
  });
});

describe('sample numbers', () => {
  it('are detected as their carrier when the carrier has a pattern, and accepted with their code always', () => {
    const explicitOnly = new Set([100009, 101066, 100766]);
    for (const c of SIM_CARRIERS) {
      for (let i = 0; i < 20; i++) {
        const n = sampleNumber(c.key, i);
        expect(n).toMatch(/^[A-Z0-9]{5,50}$/);
        expect(detected(n, c.key)).toEqual({ key: c.key, origin: 2 });
        if (!explicitOnly.has(c.key)) expect(detectCarrier(n)?.carrier.key, n).toBe(c.key);
      }
    }
  });
});
