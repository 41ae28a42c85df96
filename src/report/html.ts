// `trk report --html FILE`: the report as one page that needs nothing else: no script, style, font or image is
// fetched from anywhere, so it opens offline and as a mail attachment. The charts are SVG drawn while the page is
// written (charts.ts); the tables sort when a heading is clicked (the one script, inline, a few lines); every text
// that comes from the service or the shop is escaped.

import { groupLabel, GROUP_FIELDS, percent } from './columns.js';
import type { GroupFigures } from './figures.js';
import { svgChart, transitOption, troubleOption, volumeOption } from './charts.js';
import type { ListedParcel, Report } from './report.js';
import { fmt } from '../core/text.js';
import { statusLine } from '../output/status-words.js';
import { parcelReference } from '@trk/service/record-fields.js';

export interface PageOptions {
  carrierName: (code: number) => string | undefined;
  now: number;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** A cell: its text, and for numbers the value the table sorts by. */
interface Cell {
  text: string;
  sort?: number | undefined;
}

const num = (n: number | null, text = n === null ? '' : fmt(n)): Cell => ({ text, sort: n ?? undefined });
const days = (d: number | null): Cell => num(d, d === null ? '' : String(d));
const rate = (part: number, whole: number): Cell => ({
  text: percent(part, whole),
  sort: whole === 0 ? undefined : part / whole,
});

/**
 * A table whose headings sort it; numeric columns sort by value (`data-sort`). Each cell carries its heading
 * (`data-label`), which a narrow screen shows beside it when the rows are stacked.
 */
function table(id: string, headings: readonly string[], rows: readonly (readonly Cell[])[], caption?: string): string {
  const head = headings.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('');
  const cell = (c: Cell, i: number) => {
    const label = ` data-label="${escapeHtml(headings[i] ?? '')}"`;
    return c.sort === undefined
      ? `<td${label}>${escapeHtml(c.text)}</td>`
      : `<td class="n"${label} data-sort="${c.sort}">${escapeHtml(c.text)}</td>`;
  };
  const body = rows.map((cells) => `<tr>${cells.map(cell).join('')}</tr>`).join('\n');
  const captionHtml = caption ? `<caption>${escapeHtml(caption)}</caption>` : '';
  return (
    `<table class="sortable" id="${id}">${captionHtml}<thead><tr>${head}</tr></thead>` +
    `<tbody>\n${body}\n</tbody></table>`
  );
}

function groupRow(g: GroupFigures): Cell[] {
  const x = g.group;
  return [
    { text: groupLabel(x) },
    num(x.registered),
    num(x.delivered),
    num(x.in_transit),
    rate(x.exceptions, x.registered),
    rate(x.delivery_failures, x.registered),
    num(x.stuck),
    days(x.transit_days.p50),
    days(x.transit_days.p90),
    days(x.transit_days.mean),
    x.on_time_rate === null ? { text: '' } : { text: `${Math.round(x.on_time_rate * 100)}%`, sort: x.on_time_rate },
  ];
}

const GROUP_HEADINGS = [
  'parcels',
  'delivered',
  'on the way',
  'exceptions',
  'failed',
  'stuck',
  'p50 days',
  'p90 days',
  'mean days',
  'on time',
];

function groupTable(id: string, first: string, groups: readonly GroupFigures[]): string {
  return table(id, [first, ...GROUP_HEADINGS], groups.map(groupRow));
}

function parcelTable(
  id: string,
  parcels: readonly ListedParcel[],
  names: (code: number) => string | undefined,
): string {
  const rows = parcels.map((p) => [
    { text: p.number },
    { text: names(p.carrier) ?? String(p.carrier) },
    { text: `${p.origin ?? '?'} → ${p.destination ?? '?'}` },
    { text: statusLine(p.package_status, p.sub_status) },
    num(p.days_without_news),
    { text: p.latest_event_time?.slice(0, 10) ?? '' },
    { text: p.latest_event ?? '' },
    { text: parcelReference(p) },
  ]);
  return table(
    id,
    ['number', 'carrier', 'lane', 'status', 'days without news', 'latest event on', 'latest event', 'order'],
    rows,
  );
}

/** The page's title, after what its groups are. */
const TITLES = {
  carrier: 'Carrier report',
  lane: 'Lane report',
  'carrier,lane': 'Carrier and lane report',
  week: 'Report by week of registration',
  month: 'Report by month of registration',
} as const;

/** Charts are drawn twice: for a wide screen, and for a phone (text at its size there, not shrunk with the chart). */
const WIDE = 860;
const NARROW = 360;

async function bothWidths(option: Parameters<typeof svgChart>[0], height: (width: number) => number) {
  const [wide, narrow] = await Promise.all([
    svgChart(option, WIDE, height(WIDE)),
    svgChart(option, NARROW, height(NARROW)),
  ]);
  return `<div class="wide">${wide}</div><div class="narrow">${narrow}</div>`;
}

const BY_HEADING = {
  carrier: 'carrier',
  lane: 'lane',
  'carrier,lane': 'carrier and lane',
  week: 'week of',
  month: 'month',
} as const;

function tiles(r: Report): string {
  const t = r.total.group;
  const tile = (value: string, what: string) =>
    `<div class="tile"><b>${escapeHtml(value)}</b><span>${escapeHtml(what)}</span></div>`;
  return `<div class="tiles">${[
    tile(fmt(t.registered), 'parcels'),
    tile(percent(t.delivered, t.registered) || '0%', 'delivered'),
    tile(t.transit_days.p50 === null ? '–' : `${t.transit_days.p50} d`, 'median transit'),
    tile(t.on_time_rate === null ? '–' : `${Math.round(t.on_time_rate * 100)}%`, 'on time'),
    tile(percent(t.exceptions + t.delivery_failures, t.registered) || '0%', 'exceptions and failures'),
    tile(fmt(t.stuck), `stuck (${r.stuck_days}+ days)`),
  ].join('')}</div>`;
}

function listSection(title: string, total: number, parcels: readonly ListedParcel[], table: string): string {
  const shown =
    parcels.length < total
      ? ` <small>the first ${fmt(parcels.length)}; <code>trk report --all --html FILE</code> lists every one</small>`
      : '';
  const content = total === 0 ? '<p>None.</p>' : table;
  return `<section><h2>${escapeHtml(title)}: ${fmt(total)}${shown}</h2>${content}</section>`;
}

/** The whole page. */
export async function reportPage(r: Report, opts: PageOptions): Promise<string> {
  const page = r.page!;
  // A page by lane draws its lanes; every other page its carriers.
  const byLane = r.by === 'lane';
  const drawn = byLane ? page.lanes : page.carriers;
  const transit = transitOption(drawn);
  const trouble = troubleOption(drawn);
  const rowsHeight = (rows: number) => (width: number) => 70 + (width < WIDE ? 40 : 34) * rows;
  const charts = await Promise.all([
    transit.rows === 0 ? '' : bothWidths(transit.option, rowsHeight(transit.rows)),
    r.weeks.length === 0 ? '' : bothWidths(volumeOption(page.carriers, r.weeks), (w) => (w < WIDE ? 300 : 320)),
    trouble.rows === 0 ? '' : bothWidths(trouble.option, rowsHeight(trouble.rows)),
  ]);
  const what = byLane ? 'lane' : 'carrier';
  const chart = (title: string, svg: string, note: string) =>
    svg === '' ? '' : `<section><h2>${title}</h2><p class="note">${note}</p><div class="chart">${svg}</div></section>`;
  const covers = r.since === null ? 'every parcel in the mirror' : `parcels registered since ${r.since.slice(0, 10)}`;
  const synced =
    r.synced_at === null
      ? 'never synced completely'
      : `mirror synced ${r.synced_at.slice(0, 16).replace('T', ' ')} UTC`;
  const by = GROUP_FIELDS[r.by].length > 0 ? BY_HEADING[r.by] : '';
  const written = new Date(opts.now).toISOString().slice(0, 16).replace('T', ' ');
  const subtitle = `${fmt(r.total.group.registered)} parcels: ${covers} · ${synced} · written ${written} UTC`;
  const stuckTable = parcelTable('stuck', r.stuck, opts.carrierName);
  const troubleCount = r.total.group.exceptions + r.total.group.delivery_failures;
  const troubleTable = parcelTable('trouble', r.trouble, opts.carrierName);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="trk report">
<title>${TITLES[r.by]}: ${escapeHtml(covers)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>${TITLES[r.by]}</h1><p>${escapeHtml(subtitle)}</p></header>
${tiles(r)}
<section><h2>By ${escapeHtml(by)}</h2>${groupTable('groups', by, r.groups)}</section>
${chart(`Transit time by ${what}`, charts[0]!, TRANSIT_NOTE)}
${chart('Parcels registered a week', charts[1]!, 'By the Monday of the week of registration (UTC).')}
${chart(`Exceptions by ${what}`, charts[2]!, `Share of each ${what}’s parcels now an exception or a failed delivery.`)}
${
  byLane
    ? `<section><h2>Carriers</h2>${groupTable('carriers', 'carrier', page.carriers)}</section>`
    : `<section><h2>Lanes</h2>${groupTable('lanes', 'lane', page.lanes)}</section>`
}
${listSection(`Stuck: no news for ${r.stuck_days} days or more`, r.total.group.stuck, r.stuck, stuckTable)}
${listSection('Exceptions and failed deliveries', troubleCount, r.trouble, troubleTable)}
<footer>Click a column’s heading to sort by it. Written by trk from its mirror of the account;
nothing on this page is loaded from elsewhere.</footer>
<script>${SORT_SCRIPT}</script>
</body>
</html>
`;
}

const TRANSIT_NOTE =
  'Days in transit of delivered parcels: the box holds the middle half, the line is the median, ' +
  'the whiskers reach p10 and p90; (n) parcels.';

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#222;margin:0 auto;max-width:980px;
padding:16px 24px}
h1{font-size:22px;margin:8px 0 2px}h2{font-size:17px;margin:28px 0 8px}header p,.note,footer{color:#666}
small{font-weight:normal;color:#666}
.tiles{display:flex;flex-wrap:wrap;gap:10px;margin:14px 0}
.tile{flex:1 1 120px;border:1px solid #e3e3e3;border-radius:6px;padding:8px 12px}
.tile b{display:block;font-size:20px}.tile span{color:#666;font-size:12px}
.chart svg{width:100%;height:auto;display:block}.chart .narrow{display:none}
table{border-collapse:collapse;width:100%;font-size:13px}
th,td{padding:4px 8px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
th{cursor:pointer;white-space:nowrap;background:#f6f6f6;user-select:none}
th[aria-sort=ascending]::after{content:" ▲"}th[aria-sort=descending]::after{content:" ▼"}
td.n{text-align:right;font-variant-numeric:tabular-nums}tbody tr:hover{background:#fafafa}
footer{margin:32px 0 8px;font-size:12px}code{font-size:12px}
@media print{th{cursor:auto}}
@media (max-width:600px){body{padding:8px 12px}.chart .wide{display:none}.chart .narrow{display:block}
table,tbody,tr,td{display:block;width:auto}thead{position:absolute;left:-9999px}
tr{border-bottom:1px solid #ddd;padding:6px 0}td{border:0;padding:2px 0;text-align:left;overflow-wrap:anywhere}
td.n{text-align:left}td::before{content:attr(data-label) ": ";color:#666}}`;

// Sorting: numbers by data-sort (empty cells last), text by the language's order; a second click reverses.
const SORT_SCRIPT = `
document.querySelectorAll('table.sortable').forEach(function (table) {
  table.querySelectorAll('th').forEach(function (th, col) {
    th.addEventListener('click', function () {
      var desc = th.getAttribute('aria-sort') === 'ascending';
      table.querySelectorAll('th').forEach(function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', desc ? 'descending' : 'ascending');
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      var key = function (row) {
        var cell = row.cells[col];
        if (!cell) return null;
        var n = cell.getAttribute('data-sort');
        return n === null ? (cell.classList.contains('n') ? null : cell.textContent) : Number(n);
      };
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
        var c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
        return desc ? -c : c;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});`;
