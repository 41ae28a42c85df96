import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { dedupeNumbers, parseNumberText, readNumbers, show, validateNumbers } from '../../src/commands/shared/input.js';
import { UsageError } from '../../src/errors.js';
import { createTestIO } from '../../src/io.js';

const dir = mkdtempSync(path.join(tmpdir(), 'trk-input-'));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};
const stdinIO = (text: string, tty = false) => createTestIO({ stdin: Readable.from([Buffer.from(text)]), tty });

describe('parseNumberText', () => {
  it('reads one number per line, skipping blanks, comments, a header, CRLF and a BOM', async () => {
    const items = await parseNumberText('\uFEFFnumber\r\nRR123456789CN\r\n\r\n# a comment\n  LX987654321CN  \n', 'f.txt');
    expect(items).toEqual([
      { number: 'RR123456789CN', where: 'line 2 of f.txt' },
      { number: 'LX987654321CN', where: 'line 5 of f.txt' },
    ]);
  });

  it('reads NUMBER,CARRIER rows', async () => {
    const items = await parseNumberText('RR123456789CN,3011\nLX987654321CN\n', 'f.csv');
    expect(items).toEqual([
      { number: 'RR123456789CN', carrier: 3011, where: 'line 1 of f.csv' },
      { number: 'LX987654321CN', where: 'line 2 of f.csv' },
    ]);
  });

  it('reads a CSV header with the columns in any order', async () => {
    const items = await parseNumberText('carrier,number\n100003,AB12345\n,CD67890\n', 'f.csv');
    expect(items).toEqual([
      { number: 'AB12345', carrier: 100003, where: 'line 2 of f.csv' },
      { number: 'CD67890', where: 'line 3 of f.csv' },
    ]);
  });

  it('refuses unknown columns, a carrier that is not a code, and rows with too many fields', async () => {
    await expect(parseNumberText('number,colour\nAB12345,red\n', 'f.csv')).rejects.toThrow(/unknown column "colour"/);
    await expect(parseNumberText('AB12345,china post\n', 'f.csv')).rejects.toThrow(/line 1 of f.csv: carrier "china post"/);
    await expect(parseNumberText('AB12345,1,2\n', 'f.csv')).rejects.toThrow(/line 1 of f.csv: expected NUMBER or NUMBER,CARRIER, got 3 fields/);
  });

  it('reports malformed CSV as a usage error', async () => {
    const err = await parseNumberText('"AB12345,3011\n', 'bad.csv').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toMatch(/bad.csv is not valid CSV/);
  });
});

describe('readNumbers', () => {
  it('takes arguments, and a file besides them', async () => {
    const f = file('a.txt', 'CCC33333\n');
    const items = await readNumbers({ args: ['AAA11111', 'BBB22222'], file: f }, createTestIO());
    expect(items.map((i) => i.number)).toEqual(['AAA11111', 'BBB22222', 'CCC33333']);
    expect(items[0]!.where).toBe('argument 1');
    expect(items[2]!.where).toBe(`line 1 of ${f}`);
  });

  it('reads -f - and piped stdin', async () => {
    expect((await readNumbers({ args: [], file: '-' }, stdinIO('AAA11111\n'))).map((i) => i.number)).toEqual(['AAA11111']);
    expect((await readNumbers({ args: [] }, stdinIO('AAA11111\nBBB22222'))).map((i) => i.number)).toEqual(['AAA11111', 'BBB22222']);
  });

  it('ignores stdin when numbers are given as arguments', async () => {
    expect((await readNumbers({ args: ['AAA11111'] }, stdinIO('BBB22222\n'))).map((i) => i.number)).toEqual(['AAA11111']);
  });

  it('refuses to wait on a terminal for numbers', async () => {
    await expect(readNumbers({ args: [] }, stdinIO('', true))).rejects.toThrow(/no tracking numbers given/);
  });

  it('names a missing file', async () => {
    const err = await readNumbers({ args: [], file: path.join(dir, 'nope.txt') }, createTestIO()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).toLine()).toMatch(/cannot read .*nope.txt: no such file/);
  });

  it('gives an empty list for empty stdin', async () => {
    expect(await readNumbers({ args: [] }, stdinIO(''))).toEqual([]);
  });
});

describe('validateNumbers', () => {
  it('passes numbers of the version format', () => {
    expect(() => validateNumbers([{ number: 'AB-12345', where: 'x' }], 'v2')).not.toThrow();
  });

  it('names the first bad number, where it is, how many more, and the rule', () => {
    const items = [
      { number: 'GOOD12345', where: 'line 1 of f' },
      { number: 'bad!', where: 'line 2 of f' },
      { number: 'x', where: 'line 3 of f' },
    ];
    const err = (() => {
      try {
        validateNumbers(items, 'v2');
      } catch (e) {
        return e as UsageError;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(UsageError);
    expect(err!.exitCode).toBe(2);
    expect(err!.toLine()).toBe(
      'invalid tracking number "bad!" (line 2 of f) and 1 more: tracking numbers are 5 to 50 letters, digits or hyphens; correct or remove it, nothing was sent',
    );
  });

  it('applies the v1 format (no hyphens)', () => {
    expect(() => validateNumbers([{ number: 'AB-12345', where: 'argument 1' }], 'v1')).toThrow(UsageError);
    try {
      validateNumbers([{ number: 'AB-12345', where: 'argument 1' }], 'v1');
    } catch (e) {
      expect((e as UsageError).toLine()).toMatch(/5 to 50 letters or digits/);
    }
  });

  it('escapes control characters in the message', () => {
    expect(() => validateNumbers([{ number: 'AB\u001b[31m123', where: 'argument 1' }], 'v2')).toThrow(/"AB\\u001b\[31m123"/);
    expect(show('a\u009bb')).toBe('"a\\u009bb"');
  });
});

describe('dedupeNumbers', () => {
  it('drops repeats of number and carrier, keeping order', () => {
    const items = [
      { number: 'A1234', where: '1' },
      { number: 'B1234', where: '2' },
      { number: 'A1234', where: '3' },
      { number: 'A1234', carrier: 5, where: '4' },
    ];
    expect(dedupeNumbers(items).map((i) => i.where)).toEqual(['1', '2', '4']);
  });
});
