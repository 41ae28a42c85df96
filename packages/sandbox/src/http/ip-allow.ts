// The account's IP whitelist: entries are single addresses or CIDR subnets, IPv4 or IPv6. An empty list
// means no restriction, as in the console.

import { BlockList, isIP } from 'node:net';

/** Build a matcher; throws a RangeError naming the first entry that is not an address or subnet. */
export function ipMatcher(list: readonly string[]): (address: string) => boolean {
  if (list.length === 0) return () => true;
  const allowed = new BlockList();
  for (const entry of list) {
    const [addr = '', bits, ...rest] = entry.trim().split('/');
    const family = isIP(addr);
    const prefix = bits === undefined ? undefined : Number(bits);
    const maxBits = family === 6 ? 128 : 32;
    if (
      family === 0 ||
      rest.length > 0 ||
      (prefix !== undefined && (!Number.isInteger(prefix) || prefix < 0 || prefix > maxBits || bits === ''))
    ) {
      throw new RangeError(`invalid IP address or subnet "${entry}"`);
    }
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) allowed.addAddress(addr, type);
    else allowed.addSubnet(addr, prefix, type);
  }
  return (address) => {
    const plain = unmapIPv4(address);
    const family = isIP(plain);
    return family !== 0 && allowed.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/** `::ffff:127.0.0.1` (an IPv4 caller on a dual-stack socket) → `127.0.0.1`. */
export function unmapIPv4(address: string): string {
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address;
}

export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const plain = unmapIPv4(address);
  return plain === '::1' || /^127\.\d+\.\d+\.\d+$/.test(plain);
}
