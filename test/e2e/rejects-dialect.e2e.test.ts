// The rejects file of a file import is written as the input was: its delimiter, byte-order mark, line endings and
// encoding, so that a spreadsheet opens it as it opened the input (a German Excel's `;` file is not one column, its
// "€" not garbled). A rejected row's cells come back byte for byte; trk's own columns follow in the same dialect,
// and the file imports again. JSON input keeps the comma-separated UTF-8 file it always had.

import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureBytes } from '../fixture-files.js';
import { numbers, startEmulator, trk, type Emulator } from './helpers.js';

let emu: Emulator;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  emu = await startEmulator();
  dir = mkdtempSync(path.join(tmpdir(), 'trk-rejects-dialect-'));
  // Carrier names (DHL Paket, Colissimo) are read from the emulator's carrier list.
  env = { ...emu.env, TRK_RES_URL: emu.sandbox.url };
});
afterAll(async () => {
  await emu.close();
});

type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

interface Dialect {
  encoding: Encoding;
  bom: boolean;
  delimiter: string;
  eol: string;
}

/** Windows-1252's letters outside Latin-1 that these tests use. */
const CP1252_EXTRA: Record<string, number> = { '€': 0x80, '’': 0x92, œ: 0x9c };

function cp1252(ch: string): number {
  const code = ch.codePointAt(0) ?? 0;
  const byte = CP1252_EXTRA[ch] ?? (code <= 0xff && (code < 0x80 || code > 0x9f) ? code : undefined);
  if (byte === undefined) throw new Error(`${ch} is not in Windows-1252`);
  return byte;
}

/** Lines of text as a file of the dialect writes them. */
function encode(d: Dialect, lines: readonly string[]): Buffer {
  const text = `${d.bom ? '\uFEFF' : ''}${lines.map((l) => `${l}${d.eol}`).join('')}`;
  if (d.encoding === 'utf-8') return Buffer.from(text, 'utf8');
  if (d.encoding === 'utf-16le') return Buffer.from(text, 'utf16le');
  if (d.encoding === 'utf-16be') return Buffer.from(text, 'utf16le').swap16();
  return Buffer.from([...text].map(cp1252));
}

/** A file's lines, read in its dialect (the test's own reading, not trk's). */
function linesOf(d: Dialect, bytes: Buffer): string[] {
  const text = new TextDecoder(d.encoding, { ignoreBOM: true }).decode(bytes).replace(/^\uFEFF/, '');
  return text.split(d.eol).slice(0, -1);
}

/** Bytes one for one as text (Latin-1), so that a difference shows as readable text with its escapes. */
function bytes(file: string): string {
  return readFileSync(file).toString('latin1');
}

/** A cell as CSV writes it for the dialect's delimiter; tab-separated files are never quoted. */
function cell(d: Dialect, text: string): string {
  if (d.delimiter === '\t') return text;
  return /["\r\n]/.test(text) || text.includes(d.delimiter) ? `"${text.replace(/"/g, '""')}"` : text;
}

interface Case {
  name: string;
  dialect: Dialect;
  /** The input's lines before the rows set aside: its header and rows the service registers. */
  lines: string[];
  /** A row the checks refuse (its number, as the message quotes it), and one the service rejects. */
  invalid: { row: string; number: string };
  rejected: string;
  /** The rejected row as the rejects file writes it, where that differs (trk's quote before formula-like cells). */
  rejectedWritten?: string;
}

const NOT_A_NUMBER = (n: string) => `number "${n}" is not 5 to 50 letters, digits or hyphens`;
const UNDETECTED = ['-18019903', 'carrier cannot be detected'];

/** A shop's export as a test input: the fixture's own lines, with a row the checks refuse and one rejected. */
function fixtureCase(
  name: string,
  file: string,
  dialect: Dialect,
  rows: Omit<Case, 'name' | 'dialect' | 'lines'>,
): Case {
  const bytes = fixtureBytes(`exports/${file}`);
  const lines = linesOf(dialect, bytes);
  // The fixture is in the dialect said here: the expectations below are written in it.
  expect(encode(dialect, lines).equals(bytes)).toBe(true);
  return { name, dialect, lines, ...rows };
}

/** A table of number, carrier and tag in `dialect`. */
function tableCase(name: string, dialect: Dialect, prefix: string): Case {
  const d = dialect.delimiter;
  const good = numbers(2, prefix);
  return {
    name,
    dialect,
    lines: [['number', 'carrier', 'tag'].join(d), `${good[0]}${d}3011${d}Grüße`, `${good[1]}${d}${d}plain`],
    invalid: { row: `n°${prefix}${d}3011${d}Bär € 5`, number: `n°${prefix}` },
    rejected: `XX${prefix}0001${d}${d}Straße`,
  };
}

const CASES = (): Case[] => [
  fixtureCase(
    'German Excel: UTF-8 with a BOM, semicolons, CRLF',
    'german-excel.csv',
    { encoding: 'utf-8', bom: true, delimiter: ';', eol: '\r\n' },
    {
      invalid: { row: '10022;22.11.2026;Jörg Bär;joerg@example.de;DHL Paket;Paket#1;1,0;19,99 €', number: 'Paket#1' },
      // "-", no carrier: quoted as a formula-like cell is in every CSV trk writes, and read back without it.
      rejected: '10023;23.11.2026;Ölaf Übel;oelaf@example.de;-;XX0000000123;0,5;5,00 €',
      rejectedWritten: "10023;23.11.2026;Ölaf Übel;oelaf@example.de;'-;XX0000000123;0,5;5,00 €",
    },
  ),
  fixtureCase(
    'French Excel: Windows-1252, semicolons, CRLF',
    'french-excel.csv',
    { encoding: 'windows-1252', bom: false, delimiter: ';', eol: '\r\n' },
    {
      invalid: { row: 'FR-3305;21/11/2026;Zoé Lefèvre;zoe@example.fr;Colissimo;n°12345;12,00 €', number: 'n°12345' },
      rejected: 'FR-3306;21/11/2026;Cœur d’Acier;coeur@example.fr;Autre;XX0000000456;7,50 €',
    },
  ),
  tableCase('tab-separated UTF-8, LF', { encoding: 'utf-8', bom: false, delimiter: '\t', eol: '\n' }, 'TB'),
  tableCase('comma-separated UTF-8, LF', { encoding: 'utf-8', bom: false, delimiter: ',', eol: '\n' }, 'CM'),
  tableCase(
    'Excel\'s "Unicode text": UTF-16 LE with a BOM, tabs, CRLF',
    { encoding: 'utf-16le', bom: true, delimiter: '\t', eol: '\r\n' },
    'UL',
  ),
  tableCase(
    'UTF-16 BE with a BOM, semicolons, CR',
    { encoding: 'utf-16be', bom: true, delimiter: ';', eol: '\r' },
    'UB',
  ),
];

/** The rejects file expected of `c`, its two rows at `lines` of the file they came from. */
function expectedRejects(c: Case, lines: [invalid: number, rejected: number]): string {
  const d = c.dialect.delimiter;
  const row = (cells: string, extra: string[]) => [cells, ...extra.map((e) => cell(c.dialect, e))].join(d);
  return encode(c.dialect, [
    row(c.lines[0]!, ['input_line', 'error_code', 'error_message']),
    row(c.invalid.row, [String(lines[0]), 'invalid', NOT_A_NUMBER(c.invalid.number)]),
    row(c.rejectedWritten ?? c.rejected, [String(lines[1]), ...UNDETECTED]),
  ]).toString('latin1');
}

describe('the rejects file keeps the dialect of its input', () => {
  it.each(CASES().map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const slug = c.name.replace(/\W+/g, '-');
    const input = path.join(dir, `${slug}.csv`);
    writeFileSync(input, encode(c.dialect, [...c.lines, c.invalid.row, c.rejected]));
    const rejects = path.join(dir, `${slug}-rejects.csv`);
    const r = await trk(['register', '-f', input, '--skip-invalid', '--rejects', rejects], { env });
    expect(r.code, r.stderr).toBe(3);
    const n = c.lines.length;
    expect(bytes(rejects)).toBe(expectedRejects(c, [n + 1, n + 2]));

    // Fixed (or not) and imported again: the same rows set aside the same way, in the same dialect.
    const again = path.join(dir, `${slug}-again.csv`);
    const second = await trk(['register', '-f', rejects, '--skip-invalid', '--rejects', again, '--again'], { env });
    expect(second.code, second.stderr).toBe(1);
    expect(bytes(again)).toBe(expectedRejects(c, [2, 3]));
  });

  it("trk's own rejects file of a tab-separated input is a .tsv file", async () => {
    const [good] = numbers(1, 'OT');
    const input = path.join(dir, 'own.txt');
    writeFileSync(input, `number\ttag\n${good}\ta\nXX00000789\tb "c"\n`);
    const r = await trk(['register', '-f', input], { env });
    expect(r.code, r.stderr).toBe(3);
    const own = readdirSync(path.join(env.TRK_STATE_DIR!, 'rejects')).filter((f) => f.includes('register-own'));
    expect(own).toEqual([expect.stringMatching(/-register-own\.tsv$/)]);
    expect(readFileSync(path.join(env.TRK_STATE_DIR!, 'rejects', own[0]!), 'utf8')).toBe(
      'number\ttag\tinput_line\terror_code\terror_message\n' +
        'XX00000789\tb "c"\t3\t-18019903\tcarrier cannot be detected\n',
    );
  });

  it('JSON input, even UTF-16, keeps a comma-separated UTF-8 rejects file with LF', async () => {
    const input = path.join(dir, 'in.json');
    const json = '[\r\n{"number": "XX00000790", "tag": "Grüße; €"}\r\n]\r\n';
    writeFileSync(input, Buffer.from(`\uFEFF${json}`, 'utf16le'));
    const rejects = path.join(dir, 'json-rejects.csv');
    const r = await trk(['register', '-f', input, '--rejects', rejects], { env });
    expect(r.code, r.stderr).toBe(1);
    expect(readFileSync(rejects, 'utf8')).toBe(
      'number,tag,input_line,error_code,error_message\nXX00000790,Grüße; €,2,-18019903,carrier cannot be detected\n',
    );
  });
});
