// Carrier codes or names wherever a carrier is accepted, resolved when the command runs (never a network call for
// a code), and carrier names beside codes in tables. Against the fake client and a cache folder holding the shared
// reference lists; the resource address points at a closed port, so any fetch would fail the test.
import { describe, expect, it } from 'vitest';
import { withCachedLists } from './carrier-lists.js';

const parse = withCachedLists();

describe('carrier flags take a code or a name', () => {
  it('every item command and list --carrier', async () => {
    for (const cmd of ['info', 'stop', 'retrack', 'push', 'delete']) {
      const { code, calls } = await parse([cmd, 'RR123456789CN', '--carrier', 'Yanwen', '--yes']);
      expect(code, cmd).toBe(0);
      expect(calls[0]!.body, cmd).toEqual([{ number: 'RR123456789CN', carrier: 190012 }]);
    }
    const update = await parse(['update', 'RR123456789CN', '--carrier', 'Yanwen', '--tag', 't']);
    expect(update.calls[0]!.body).toEqual([{ number: 'RR123456789CN', carrier: 190012, items: { tag: 't' } }]);
    const list = await parse(['list', '--carrier', 'China Post', '--page', '1'], {
      handler: () => ({ code: 0, data: { accepted: [] } }),
    });
    expect(list.calls[0]!.body).toMatchObject({ carrier: 3011 });
  });

  it('an ambiguous name is a usage error listing the candidates; nothing is sent', async () => {
    const r = await parse(['register', 'RR123456789CN', '--carrier', 'DHL']);
    expect(r.code).toBe(2);
    expect(r.calls).toEqual([]);
    expect(r.line).toMatch(
      /^--carrier "DHL" is part of carriers' names: .*DHL Express \(100001\).*: pass the code, or .*--carrier-map/,
    );
    const to = await parse(['change-carrier', 'RR123456789CN', '--to', 'dhl']);
    expect(to.code).toBe(2);
    expect(to.line).toMatch(/^--to "dhl" is part of carriers' names/);
  });

  it('--carrier Other names no carrier, as a cell "Other" does: none is sent (never "Mothership")', async () => {
    const r = await parse(['register', 'RR123456789CN', '--carrier', 'Other']);
    expect(r.code).toBe(0);
    expect(r.calls.find((c) => c.op === 'register')!.body).toEqual([{ number: 'RR123456789CN', auto_detection: true }]);
    const part = await parse(['register', 'RR123456789CN', '--carrier', 'Mother']);
    expect(part.code).toBe(2);
    expect(part.line).toMatch(/^--carrier "Mother" is part of a carrier's name: Mothership \(101056\)/);
    const list = await parse(['list', '--carrier', 'Other']);
    expect(list.code).toBe(2);
    expect(list.line).toBe(
      '--carrier "Other" names no carrier: a list filter needs a carrier: drop --carrier to list every carrier',
    );
  });

  it('an unknown name or code is a usage error naming the flag', async () => {
    const name = await parse(['info', 'RR123456789CN', '--carrier', 'No Such Carrier Anywhere']);
    expect(name.code).toBe(2);
    expect(name.line).toMatch(/^--carrier: unknown carrier "No Such Carrier Anywhere"/);
    const code = await parse(['stop', 'RR123456789CN', '--carrier', '99999']);
    expect(code.code).toBe(2);
    expect(code.line).toMatch(/^--carrier: unknown carrier code 99999/);
    expect(code.calls).toEqual([]);
    const empty = await parse(['stop', 'RR123456789CN', '--carrier', ' ']);
    expect(empty.code).toBe(2);
  });

  it('codes need no list: without a cache they are sent as given, with no network call', async () => {
    // The resource address is a closed port: a fetch would fail the command. A carrier code 0 is how the
    // service says "none": it is not sent.
    const r = await parse(['register', 'RR123456789CN', '--carrier', '99999', '--final-carrier', '0'], {
      lists: false,
    });
    expect(r.code).toBe(0);
    expect(r.fake.sent('register')).toEqual([[{ number: 'RR123456789CN', carrier: 99999 }]]);
  });

  it('a name without a cached list fetches it; when that fails, the error says so', async () => {
    const r = await parse(['register', 'RR123456789CN', '--carrier', 'China Post'], { lists: false });
    expect(r.code).toBe(1);
    expect(r.line).toMatch(/could not fetch the carrier list/);
    expect(r.calls).toEqual([]);
  });
});

describe('carrier names beside codes in tables', () => {
  it('item commands: the carrier column of a table', async () => {
    for (const cmd of [['register'], ['stop'], ['update', '--tag', 'x'], ['change-carrier', '--to', '3011']]) {
      const r = await parse([...cmd, 'RR123456789CN', '-o', 'table']);
      expect(r.code, cmd[0]).toBe(0);
      expect(r.out, cmd[0]).toMatch(/RR123456789CN\s+3011 China Post\s+/);
    }
  });
});
