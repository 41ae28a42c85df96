import { describe, expect, it } from 'vitest';
import { shorten, tableLayout, withoutTrailingSpaces, type LayoutColumn } from '../../src/output/table.js';

const header = (h: string, extra: Partial<LayoutColumn> = {}): LayoutColumn => ({ header: h, ...extra });
const names = (cols: readonly LayoutColumn[], shown: readonly number[]) => shown.map((i) => cols[i]!.header);

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
