import { beforeAll, describe, expect, it } from 'vitest';
import {
  rowLines,
  shorten,
  shortenStart,
  tableLayout,
  withoutTrailingSpaces,
  type LayoutColumn,
} from '../../src/output/table.js';
import { loadTextWidths } from '../../src/output/width.js';

const header = (h: string, extra: Partial<LayoutColumn> = {}): LayoutColumn => ({ header: h, ...extra });
const names = (cols: readonly LayoutColumn[], shown: readonly number[]) => shown.map((i) => cols[i]!.header);

// Widths as a terminal draws them, as for a command laying out text for people (src/cli.ts loads them).
beforeAll(loadTextWidths);

describe('tableLayout', () => {
  // A list-like table: the number, a long tag, and ranked columns that should stay.
  const cols = [
    header('NUMBER'),
    header('STATUS'),
    header('TRACKING'),
    header('TAG', { rank: 10, shrink: 10 }),
    header('FROM', { rank: 32 }),
    header('TO', { rank: 32 }),
    header('TRACKED', { rank: 30 }),
  ];
  const row = (tag: string) => ['RR123456789CN', 'InTransit', 'Tracking', tag, 'CN', 'US', '2026-11-23 17:52 +01:00'];

  it('shortens a long cell instead of leaving columns out', () => {
    const long = 'x'.repeat(90);
    const layout = tableLayout(cols, [row(long), row('order-1')], 120);
    expect(names(cols, layout.shown)).toEqual(['NUMBER', 'STATUS', 'TRACKING', 'TAG', 'FROM', 'TO', 'TRACKED']);
    const total = layout.widths.reduce((s, w) => s + w, 0) + 2 * (layout.widths.length - 1);
    expect(total).toBeLessThanOrEqual(120);
    // The tag took what was left, and no less than its shortest width.
    expect(layout.widths[layout.shown.indexOf(3)]).toBeGreaterThanOrEqual(10);
  });

  it('leaves ranked columns out, highest rank first, when shortening cannot make room; never the unranked ones', () => {
    const layout = tableLayout(cols, [row('order-1')], 50);
    expect(names(cols, layout.shown)).toEqual(['NUMBER', 'STATUS', 'TRACKING', 'TAG']);
    const tiny = tableLayout(cols, [row('order-1')], 20);
    expect(names(cols, tiny.shown)).toEqual(['NUMBER', 'STATUS', 'TRACKING']);
    // The unranked columns keep their width even when the terminal is narrower.
    expect(tiny.widths).toEqual([13, 9, 8]);
  });

  it('takes columns of one rank together, and fills the room a wide column leaves with narrower ones', () => {
    // TRACKED (rank 30) does not fit at 60; FROM and TO (rank 32) do, together.
    const layout = tableLayout(cols, [row('order-1')], 60);
    expect(names(cols, layout.shown)).toEqual(['NUMBER', 'STATUS', 'TRACKING', 'TAG', 'FROM', 'TO']);
    const noRoomForBoth = tableLayout(cols, [row('order-1')], 52);
    expect(names(cols, noRoomForBoth.shown)).toEqual(['NUMBER', 'STATUS', 'TRACKING', 'TAG']);
  });

  it('leaves out ranked columns without a value, keeps those marked always', () => {
    const rows = [row('order-1').map((c, i) => (i === 6 ? '' : c))];
    expect(names(cols, tableLayout(cols, rows, 200).shown)).not.toContain('TRACKED');
    const named = cols.map((c) => ({ ...c, rank: undefined, always: true }));
    expect(names(named, tableLayout(named, rows, 40).shown)).toEqual(cols.map((c) => c.header));
  });

  it('-o wide: every column at its natural width, whatever the terminal', () => {
    const layout = tableLayout(cols, [row('y'.repeat(90))], 60, { wide: true });
    expect(layout.shown).toHaveLength(cols.length);
    expect(layout.widths[3]).toBe(90);
  });

  it('keeps room for the widest known value of a column (rows that come later)', () => {
    const status = [header('NUMBER'), header('STATUS', { room: 18 })];
    expect(tableLayout(status, [['A', 'Delivered']], 80).widths).toEqual([6, 18]);
  });
});

describe('shorten', () => {
  it('cuts to the width with an ellipsis, counting wide characters twice', () => {
    expect(shorten('order-10001', 20)).toBe('order-10001');
    expect(shorten('order-10001', 8)).toBe('order-1…');
    expect(shorten('已到达处理中心', 7)).toBe('已到达…');
    expect(shorten('abc', 0)).toBe('');
    expect(shorten('2151 Correios Brasil', 15)).toBe('2151 Correios…');
  });
});

describe('withoutTrailingSpaces', () => {
  it('drops the spaces at the end of a line (a last column left empty), and nothing else', () => {
    expect(withoutTrailingSpaces(`NUMBER${' '.repeat(100_000)}`)).toBe('NUMBER');
    expect(withoutTrailingSpaces('a  b  ')).toBe('a  b');
    expect(withoutTrailingSpaces('a\u3000')).toBe('a\u3000');
    expect(withoutTrailingSpaces('   ')).toBe('');
  });
});

describe('room for rows that come later', () => {
  const cols = [
    header('NUMBER', { room: 22, roomRank: 6 }),
    header('CARRIER', { rank: 5, shrink: 10, room: 20 }),
    header('STATUS', { room: 18 }),
    header('TRACKED', { rank: 30 }),
  ];
  const row = ['RR123456789CN', '3011 China Post', 'InTransit', '2026-11-23 17:52 +01:00'];

  it("a number's room comes before the optional columns; a status's only from what is left", () => {
    // 13 + 15 + 9 + 23 and the gaps: 66. The number's room (9) first, then TRACKED, then what is left, from
    // left to right: the carrier's 5, and none for the status.
    expect(tableLayout(cols, [row], 80).widths).toEqual([22, 20, 9, 23]);
    expect(tableLayout(cols, [row], 100).widths).toEqual([22, 20, 18, 23]);
    // Without room for TRACKED, what is left goes to the rooms.
    expect(tableLayout(cols, [row], 60)).toEqual({ shown: [0, 1, 2], widths: [22, 20, 14] });
  });

  it('keeping room never cuts the text at hand', () => {
    const layout = tableLayout(cols, [row], 45);
    // 13 + 15 + 9 and the gaps: 41; the number gets the 4 that are left, the carrier stays whole.
    expect(layout).toEqual({ shown: [0, 1, 2], widths: [17, 15, 9] });
  });
});

describe('rowLines', () => {
  const cols = [
    header('NUMBER'),
    header('CARRIER', { shrink: 10 }),
    header('STATUS'),
    header('MESSAGE', { shrink: 10, wrap: true }),
  ];
  const layout = { shown: [0, 1, 2, 3], widths: [13, 15, 9, 20] };
  const plain = (t: string) => t;

  it('a cell that may not be cut pushes its row until a cell that may be cut takes the push back', () => {
    const [line] = rowLines(['9400111899223000000001', '21051 USPS', 'InTransit', 'ok'], layout, cols, plain);
    const [header] = rowLines(['NUMBER', 'CARRIER', 'STATUS', 'MESSAGE'], layout, cols, plain);
    // Pushed 9 cells: the carrier has 15 - 9 = 6, but is never cut below its shortest (10), which takes back 5.
    expect(line).toBe('9400111899223000000001  21051 USPS  InTransit  ok');
    expect(line!.indexOf('ok')).toBe(header!.indexOf('MESSAGE') + 4);
    const [cut] = rowLines(['9400111899223000000001', '2151 Correios Brazil', 'Delivered', 'ok'], layout, cols, plain);
    expect(cut).toBe('9400111899223000000001  2151 Corr…  Delivered  ok');
    // A status with room to spare takes back the rest.
    const [spare] = rowLines(['9400111899223000000001', '21051 USPS', 'Expired', 'ok'], layout, cols, plain);
    expect(spare!.indexOf('ok')).toBe(header!.indexOf('MESSAGE') + 2);
  });

  it('a message goes on over more lines of its column, never cut', () => {
    const text = "The tracking number 'XX999999999XX' does not register, please register first.";
    const lines = rowLines(['XX999999999XX', '', 'rejected', text], layout, cols, plain);
    expect(lines.length).toBeGreaterThan(1);
    const at = 13 + 2 + 15 + 2 + 9 + 2;
    expect(lines.map((l) => l.slice(at)).join(' ')).toBe(text);
    for (const l of lines.slice(1)) expect(l.slice(0, at).trim()).toBe('');
  });
});

describe('shortenStart', () => {
  it('keeps the end of a path', () => {
    expect(shortenStart('/srv/shop/exports/orders.csv', 12)).toBe('…/orders.csv');
    expect(shortenStart('orders.csv', 14)).toBe('orders.csv');
    expect(shortenStart('abc', 0)).toBe('');
  });
});

describe('rooms and the text at hand', () => {
  it('a column taken in before a room is granted is never narrowed for a later optional column', () => {
    const cols = [
      header('NUMBER', { room: 22, roomRank: 6 }),
      header('CARRIER', { rank: 5, shrink: 10, fair: 12 }),
      header('STATUS', { room: 18, roomRank: 5 }),
      header('TRACKING'),
      header('TAG', { rank: 10, shrink: 10 }),
    ];
    const row = ['LX123456785BR', '2151 Correios Brazil', 'InfoReceived', 'Tracking', 'order-1'];
    // 13 + 20 + 12 + 8 and the gaps: 59. The status's room (6), then the number's (9): 74; the tag would need the
    // carrier cut to its fair width, so it stays out.
    expect(tableLayout(cols, [row], 80)).toEqual({ shown: [0, 1, 2, 3], widths: [22, 20, 18, 8] });
    // Where the columns do not fit as they are, the carrier is cut as before, and no room is kept.
    expect(tableLayout(cols, [row], 58).widths).toEqual([13, 19, 12, 8]);
  });
});
