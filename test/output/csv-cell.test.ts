// CSV injection: formula-like cells get a quote, numbers stay numbers, trk reads its own cells back unchanged.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { createTestIO } from '../test-io.js';
import { csvCell, restoreCell } from '../../src/output/csv-cell.js';
import { printItemResults, printRows, type Column } from '../../src/output/render.js';

describe('csvCell', () => {
  it('puts a quote before cells that start like a formula', () => {
    expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe('\'=HYPERLINK("http://evil.example","x")');
    expect(csvCell('+1+2')).toBe("'+1+2");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe("'\r=1");
  });

  it('leaves numbers, ordinary text and tracking numbers alone', () => {
    for (const cell of [
      '-18019901',
      '-3.5',
      '+1',
      '1e5',
      '-.5',
      'RR123456789CN',
      'AB-123-CD',
      'a=b',
      '',
      "'quoted",
      "'-5",
    ]) {
      expect(csvCell(cell)).toBe(cell);
    }
  });

  it('--raw-csv keeps every cell as it is', () => {
    expect(csvCell('=1+1', true)).toBe('=1+1');
  });

  it('restoreCell takes off exactly the quote csvCell adds, whatever the cell', () => {
    for (const cell of [
      '=1+1',
      '-AB123',
      '@x',
      '-18019901',
      "'=quoted by the user",
      "''=twice",
      "'plain",
      "'-5",
      'RR123456789CN',
    ]) {
      expect(restoreCell(csvCell(cell))).toBe(cell);
    }
    // A user's own quote before a formula gets one more, so the first quote is always trk's.
    expect(csvCell("'=x")).toBe("''=x");
    // A quote csvCell would not have added is the user's own.
    expect(restoreCell("'-5")).toBe("'-5");
    expect(restoreCell("'abc")).toBe("'abc");
  });
});

describe('CSV output', () => {
  interface Row {
    number: string;
    tag: string;
    code: number;
  }
  const columns: Column<Row>[] = [
    { key: 'number', header: 'NUMBER', value: (r) => r.number },
    { key: 'tag', header: 'TAG', value: (r) => r.tag },
    { key: 'code', header: 'CODE', value: (r) => r.code },
  ];
  const rows: Row[] = [{ number: 'RR123456789CN', tag: '=HYPERLINK("http://evil.example","x")', code: -18019901 }];

  it(
    'neutralises formula cells by default, keeps numbers, and --raw-csv turns it off; JSON and TSV ' + 'stay raw',
    async () => {
      const io = createTestIO();
      await printRows(io, rows, columns, 'csv');
      expect(parse(io.stdoutText(), { columns: true })).toEqual([
        { number: 'RR123456789CN', tag: '\'=HYPERLINK("http://evil.example","x")', code: '-18019901' },
      ]);
      const raw = createTestIO({ rawCsv: true });
      await printRows(raw, rows, columns, 'csv');
      expect((parse(raw.stdoutText(), { columns: true }) as Row[])[0]!.tag).toBe(rows[0]!.tag);
      const json = createTestIO();
      await printRows(json, rows, columns, 'json', rows);
      expect(JSON.parse(json.stdoutText())).toEqual(rows);
      const tsv = createTestIO();
      await printRows(tsv, rows, columns, undefined);
      expect(tsv.stdoutText()).toBe('RR123456789CN\t=HYPERLINK("http://evil.example","x")\t-18019901\n');
    },
  );

  it('item results: a rejected row keeps its error code as a number', async () => {
    const io = createTestIO();
    await printItemResults(
      io,
      {
        accepted: [],
        rejected: [
          { number: 'RR123456789CN', tag: '@cmd', error: { code: -18019901, message: '-already registered' } },
        ],
      },
      [{ key: 'number', header: 'NUMBER', value: (r: { number?: string }) => r.number }],
      'csv',
    );
    expect(parse(io.stdoutText(), { columns: true })).toEqual([
      { number: 'RR123456789CN', result: 'rejected', error_code: '-18019901', error_message: "'-already registered" },
    ]);
  });
});
