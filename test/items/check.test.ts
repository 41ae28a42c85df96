import { describe, expect, it } from 'vitest';
import { Chunker, type ChunkRow } from '../../src/items/chunker.js';
import { checkDefaults, checkValues, ProblemList } from '../../src/items/check.js';
import { UsageError } from '../../src/core/errors.js';

const v2 = { operation: 'register' as const, version: 'v2' as const };

describe('checkValues', () => {
  it('turns a valid row into an item with typed fields', () => {
    const r = checkValues(
      {
        number: 'RR000000001CN',
        carrier: '03011',
        final_carrier: '21051',
        auto_detection: 'No',
        lang: 'ZH-Hans',
        tag: 't',
      },
      v2,
    );
    expect(r.problems).toEqual([]);
    expect(r.item).toEqual({
      number: 'RR000000001CN',
      carrier: 3011,
      final_carrier: 21051,
      auto_detection: false,
      lang: 'zh-hans',
      tag: 't',
    });
  });

  it('applies the number format of the version', () => {
    expect(checkValues({ number: 'AB-12345' }, v2).problems).toEqual([]);
    expect(checkValues({ number: 'AB-12345' }, { ...v2, version: 'v1' }).problems).toEqual([
      'number "AB-12345" is not 5 to 50 letters or digits',
    ]);
    expect(checkValues({}, v2).problems).toEqual(['no tracking number']);
    expect(checkValues({ number: 'A'.repeat(51) }, v2).problems[0]).toMatch(/^number "A{37}\.\.\." is not/);
  });

  it('checks lengths in characters, not bytes', () => {
    expect(checkValues({ number: 'RR000000001CN', tag: '包'.repeat(100) }, v2).problems).toEqual([]);
    expect(checkValues({ number: 'RR000000001CN', tag: '包'.repeat(101) }, v2).problems).toEqual([
      'tag longer than 100 characters (101)',
    ]);
    expect(
      checkValues({ number: 'RR000000001CN', remark: 'r'.repeat(1001) }, { ...v2, version: 'v2.1' }).problems,
    ).toEqual(['remark longer than 1000 characters (1001)']);
  });

  it('reports every problem of a row', () => {
    expect(
      checkValues({ number: 'RR000000001CN', carrier: 'DHL', final_carrier: '1.5', auto_detection: 'maybe' }, v2)
        .problems,
    ).toEqual([
      'carrier "DHL" is not a carrier code (a whole number from the carrier list)',
      'final_carrier "1.5" is not a carrier code (a whole number from the carrier list)',
      'auto_detection "maybe" is not true or false',
    ]);
  });

  it('knows what change-carrier and change-info rows need', () => {
    const cc = { operation: 'changecarrier' as const, version: 'v2' as const };
    expect(checkValues({ number: 'RR000000001CN', carrier: '3011' }, cc).problems).toEqual([
      'carrier_new or final_carrier_new is needed',
    ]);
    expect(checkValues({ number: 'RR000000001CN', carrier: '3011', carrier_new: '21051' }, cc).item).toEqual({
      number: 'RR000000001CN',
      carrier: 3011,
      carrier_old: 3011,
      carrier_new: 21051,
    });
    const ci = { operation: 'changeinfo' as const, version: 'v1' as const };
    expect(checkValues({ number: 'RR000000001CN' }, ci).problems).toEqual(['nothing to change (tag)']);
    expect(checkValues({ number: 'RR000000001CN' }, { operation: 'deletetrack', version: 'v1' }).problems).toEqual([
      'the v1 API needs the carrier to delete a number (--carrier, or a carrier column)',
    ]);
  });

  it('checks defaults from flags once, naming the flag', () => {
    expect(() => checkDefaults({ tag: 'x'.repeat(101) }, v2)).toThrow(
      'invalid option: tag longer than 100 characters (101)',
    );
    expect(() => checkDefaults({ lang: 'en' }, { ...v2, version: 'v1' })).toThrow(UsageError);
    expect(() => checkDefaults({ carrier: '3011', tag: 'ok' }, v2)).not.toThrow();
  });
});

describe('ProblemList', () => {
  it('keeps the first ones and counts the rest', () => {
    const list = new ProblemList(2);
    for (let i = 1; i <= 5; i++) list.add(i, `p${i}`);
    expect(list.lines()).toEqual(['line 1: p1', 'line 2: p2', '... and 3 more']);
  });
});

describe('Chunker', () => {
  const row = (n: string, line: number): ChunkRow => ({ line, cells: [n], item: { number: n }, key: n });

  it('cuts rows into chunks of the size, numbered in order', () => {
    const c = new Chunker(3);
    const out = [...'abcdefg'].flatMap((n, i) => c.push(row(n, i + 1)));
    out.push(...c.flush());
    expect(out.map((ch) => [ch.index, ch.rows.map((r) => r.key).join('')])).toEqual([
      [0, 'abc'],
      [1, 'def'],
      [2, 'g'],
    ]);
  });

  it('never puts one number twice in a chunk, the same way every time', () => {
    const split = () => {
      const c = new Chunker(3);
      const out = [...'aabacaad'].flatMap((n, i) => c.push(row(n, i + 1)));
      out.push(...c.flush());
      return out.map((ch) => ch.rows.map((r) => `${r.key}${r.line}`).join(' '));
    };
    const first = split();
    expect(first).toEqual(split());
    for (const chunk of first) {
      const keys = chunk.split(' ').map((x) => x[0]);
      expect(new Set(keys).size).toBe(keys.length);
    }
    expect(first.join(' ').split(' ').sort()).toEqual(['a1', 'a2', 'a4', 'a6', 'a7', 'b3', 'c5', 'd8']);
  });
});
