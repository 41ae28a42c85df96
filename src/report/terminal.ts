// A report as people look at it in a terminal: a title, the table of groups with their total, a bar per group
// for its transit days (to the median, then on to p90), a weekly volume sparkline per group, and the stuck parcels
// and parcels in trouble listed. Everything fits the terminal's width (60 columns and up; tables drop their least
// useful columns first); colour only where the IO has it, and the bars read without it.

import type { ChalkInstance } from 'chalk';
import type { IO } from '../io/io.js';
import { printTable, type Column } from '../output/render.js';
import { statusLine } from '../output/status-words.js';
import { shorten } from '../output/table.js';
import { textWidth, wrapText } from '../output/width.js';
import { fmt, plural } from '../core/text.js';
import { groupLabel, tableColumns } from './columns.js';
import type { GroupFigures } from './figures.js';
import type { ListedParcel, Report } from './report.js';
import { parcelReference } from '@trk/service/record-fields.js';

/** Groups that get a bar and a sparkline (the largest): more would not be read. */
const DRAWN_GROUPS = 12;
const SPARKS = '▁▂▃▄▅▆▇█';

const BY_WORDS = {
  carrier: 'carrier',
  lane: 'lane',
  'carrier,lane': 'carrier and lane',
  week: 'week of registration',
  month: 'month of registration',
};

/** The report's first lines: how many parcels, how grouped, and which they are. */
export function titleLines(r: Report): string[] {
  const covers = r.since === null ? 'every parcel in the mirror' : `registered since ${r.since.slice(0, 10)}`;
  return [`${plural(r.total.group.registered, 'parcel')} by ${BY_WORDS[r.by]}`, covers];
}

/** A sparkline of `values` (the highest is a full block; nothing at all is the lowest). */
export function sparkline(values: readonly number[]): string {
  const max = Math.max(0, ...values);
  return values
    .map((v) =>
      max === 0 ? SPARKS[0] : SPARKS[Math.min(SPARKS.length - 1, Math.round((v / max) * (SPARKS.length - 1)))],
    )
    .join('');
}

/** A bar of `width` cells: full blocks to `p50`, light shade on to `p90`, on a scale of 0 to `max`. */
export function transitBar(p50: number, p90: number, max: number, width: number): { median: string; rest: string } {
  const cells = (d: number) => (max <= 0 ? 0 : Math.round((d / max) * width));
  const median = Math.max(p50 > 0 ? 1 : 0, cells(p50));
  const rest = Math.max(0, cells(p90) - median);
  return { median: '█'.repeat(median), rest: '░'.repeat(rest) };
}

const days = (d: number) => (Number.isInteger(d) ? String(d) : d.toFixed(1));

/** A heading wrapped between words to the terminal's width, in bold. */
function heading(text: string, width: number, c: ChalkInstance): string[] {
  return wrapText(text, width).map((line) => c.bold(line));
}

/** The groups drawn, and a note when some are left out. */
function drawn(r: Report): { groups: GroupFigures[]; note: string } {
  const groups = r.groups.slice(0, DRAWN_GROUPS);
  return {
    groups,
    note: r.groups.length > groups.length ? ` (the ${groups.length} largest of ${fmt(r.groups.length)} groups)` : '',
  };
}

function labelWidth(groups: readonly GroupFigures[], width: number): number {
  return Math.min(
    Math.max(3, ...groups.map((g) => textWidth(groupLabel(g.group)))),
    Math.max(8, Math.floor(width / 4)),
  );
}

const label = (g: GroupFigures, w: number) => {
  const text = shorten(groupLabel(g.group), w);
  return `${text}${' '.repeat(Math.max(0, w - textWidth(text)))}`;
};

/** Transit days of delivered parcels: one bar per group with its p50 and p90. */
export function transitSection(r: Report, width: number, c: ChalkInstance): string[] {
  const { groups: all, note } = drawn(r);
  const groups = all.filter((g) => g.group.transit_days.n > 0);
  if (groups.length === 0) return [];
  const lw = labelWidth(groups, width);
  const values = groups.map((g) => `${days(g.group.transit_days.p50!)} / ${days(g.group.transit_days.p90!)} d`);
  const vw = Math.max(...values.map((v) => v.length));
  const barWidth = Math.max(5, width - lw - vw - 4);
  const max = Math.max(...groups.map((g) => g.group.transit_days.p90!));
  const lines = groups.map((g, i) => {
    const bar = transitBar(g.group.transit_days.p50!, g.group.transit_days.p90!, max, barWidth);
    const shown = bar.median.length + bar.rest.length;
    return (
      `${label(g, lw)}  ${c.cyan(bar.median)}${c.dim(bar.rest)}${' '.repeat(barWidth - shown)}  ` +
      `${values[i]!.padStart(vw)}`
    );
  });
  return [...heading(`Transit days of delivered parcels: median █, p90 ░${note}`, width, c), ...lines];
}

/** Registered a week: a sparkline per group (and for all), as many of the latest weeks as fit. */
export function volumeSection(r: Report, width: number, c: ChalkInstance): string[] {
  if (r.weeks.length === 0) return [];
  const timeGroups = r.by === 'week' || r.by === 'month';
  const { groups, note } = timeGroups ? { groups: [], note: '' } : drawn(r);
  const rows = [...groups, r.total];
  const lw = labelWidth(rows, width);
  const counts = rows.map((g) => fmt(g.group.registered));
  const cw = Math.max(...counts.map((t) => t.length));
  const weeks = r.weeks.slice(-Math.max(4, width - lw - cw - 4));
  const span = `${weeks[0]} to ${weeks[weeks.length - 1]}, ${plural(weeks.length, 'week')}`;
  const lines = rows.map(
    (g, i) =>
      `${label(g, lw)}  ${c.cyan(sparkline(weeks.map((w) => g.weekly.get(w) ?? 0)))}  ${counts[i]!.padStart(cw)}`,
  );
  return [...heading(`Registered a week, ${span}${note}`, width, c), ...lines];
}

/** The columns of listed parcels; `stuck` lists days without news, the others their status. */
function parcelColumns(names: (code: number) => string | undefined, stuck: boolean): Column<ListedParcel>[] {
  return [
    { key: 'number', header: 'NUMBER', value: (p) => p.number },
    { key: 'carrier', header: 'CARRIER', value: (p) => names(p.carrier) ?? String(p.carrier), shrink: 8, wide: 2 },
    { key: 'lane', header: 'LANE', value: (p) => `${p.origin ?? '?'}→${p.destination ?? '?'}`, wide: 4 },
    stuck
      ? {
          key: 'days',
          header: 'NO NEWS',
          value: (p) => (p.days_without_news === null ? '' : `${p.days_without_news} d`),
        }
      : {
          key: 'status',
          header: 'STATUS',
          value: (p) => statusLine(p.package_status, p.sub_status),
          shrink: 9,
          wide: 1,
        },
    { key: 'latest', header: 'LATEST EVENT', value: (p) => p.latest_event ?? '', shrink: 12, wide: 3 },
    { key: 'order', header: 'ORDER', value: (p) => parcelReference(p), shrink: 6, wide: 5 },
  ];
}

function listHeading(what: string, count: number, shown: number, width: number, c: ChalkInstance): string[] {
  const more = shown < count ? ` (the first ${shown}; --all for every one)` : '';
  return heading(`${what}: ${fmt(count)}${more}`, width, c);
}

/** A table, then the columns it left out to fit the width, named (a line of its own, wrapped). */
async function tableOf<T>(io: IO, rows: readonly T[], columns: readonly Column<T>[], width: number): Promise<void> {
  const left = await printTable(io, rows, columns);
  if (left.length === 0) return;
  const note = `Left out to fit ${width} columns: ${left.join(', ')} (a wider terminal, --csv or --json shows them)`;
  io.out(
    `${wrapText(note, width)
      .map((l) => io.color.dim(l))
      .join('\n')}\n`,
  );
}

export interface TerminalOptions {
  /** Carrier code → name (the carrier list). */
  carrierName: (code: number) => string | undefined;
}

/** Prints the whole report for people on `io` (its width and colour). */
export async function printTerminalReport(io: IO, r: Report, opts: TerminalOptions): Promise<void> {
  const width = Math.max(40, io.columns);
  const c = io.color;
  const out = (lines: readonly string[]) => lines.length > 0 && io.out(`${lines.join('\n')}\n\n`);
  const [title, covers] = titleLines(r);
  out([...heading(title!, width, c), ...wrapText(covers!, width).map((l) => c.dim(l))]);
  if (r.total.group.registered === 0) {
    io.out(`${wrapText('No parcel matches: widen --since, or drop --carrier, --from or --to.', width).join('\n')}\n`);
    return;
  }
  await tableOf(io, [...r.groups, ...(r.groups.length > 1 ? [r.total] : [])], tableColumns(r.by), width);
  io.out('\n');
  out(transitSection(r, width, c));
  out(volumeSection(r, width, c));
  const stuck = `Stuck, no news for ${plural(r.stuck_days, 'day')} or more`;
  out(listHeading(stuck, r.total.group.stuck, r.stuck.length, width, c));
  if (r.stuck.length > 0) {
    await tableOf(io, r.stuck, parcelColumns(opts.carrierName, true), width);
    io.out('\n');
  }
  const trouble = r.total.group.exceptions + r.total.group.delivery_failures;
  out(listHeading('Exceptions and failed deliveries', trouble, r.trouble.length, width, c));
  if (r.trouble.length > 0) await tableOf(io, r.trouble, parcelColumns(opts.carrierName, false), width);
}
