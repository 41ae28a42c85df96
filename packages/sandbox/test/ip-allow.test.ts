import { describe, expect, it } from 'vitest';
import { ipMatcher, isLoopback } from '../src/http/ip-allow.js';

describe('ipMatcher', () => {
  it('lets everyone in with an empty list', () => {
    expect(ipMatcher([])('203.0.113.9')).toBe(true);
  });

  it('matches addresses and subnets, IPv4 callers on dual-stack sockets too', () => {
    const allowed = ipMatcher(['10.0.0.0/8', '192.168.1.7', '2001:db8::/32']);
    expect(allowed('10.20.30.40')).toBe(true);
    expect(allowed('::ffff:10.1.2.3')).toBe(true);
    expect(allowed('192.168.1.7')).toBe(true);
    expect(allowed('192.168.1.8')).toBe(false);
    expect(allowed('2001:db8::1')).toBe(true);
    expect(allowed('2001:db9::1')).toBe(false);
    expect(allowed('not an address')).toBe(false);
  });

  it.each(['300.1.1.1', '10.0.0.0/33', '10.0.0.0/', 'example.com', '1.2.3.4/8/9'])('refuses %s', (entry) => {
    expect(() => ipMatcher([entry])).toThrow(RangeError);
  });
});

describe('isLoopback', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['10.0.0.1', false],
    [undefined, false],
  ])('%s → %s', (address, expected) => {
    expect(isLoopback(address)).toBe(expected);
  });
});
