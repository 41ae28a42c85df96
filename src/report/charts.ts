// The page's charts, drawn by Apache ECharts as SVG while trk writes the page (its server-side rendering, which
// needs no DOM): the page then holds the charts themselves, not a script that would draw them, so they show in a
// mail client's preview, with scripts blocked, when printed, and they cost the page a few kilobytes each instead of
// the library's megabyte. ECharts is loaded here only, as its one-file build (one module to load, not hundreds).

import type { EChartsOption } from 'echarts';
import { groupLabel, percent } from './columns.js';
import { quantile, type GroupFigures } from './figures.js';

type ECharts = typeof import('echarts');

const PALETTE = ['#2f6fde', '#e0802b', '#3a9d5d', '#c94c4c', '#8a5cc2', '#2aa1a8', '#b8860b', '#7a7a7a'];
const TEXT = { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif', color: '#333' };
/** Carriers a chart shows at most (the largest); the tables list every one. */
export const CHART_CARRIERS = 12;

let loading: Promise<ECharts> | undefined;
const echarts = () => (loading ??= import('echarts/dist/echarts.esm.min') as Promise<ECharts>);

/** One chart as an SVG document fragment, `width` by `height` (it scales with the page: the SVG has a viewBox). */
export async function svgChart(option: EChartsOption, width: number, height: number): Promise<string> {
  const e = await echarts();
  const chart = e.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({ animation: false, color: PALETTE, textStyle: TEXT, ...option });
    return chart.renderToSVGString();
  } finally {
    // The chart keeps a timer for its animations until disposed.
    chart.dispose();
  }
}

const largest = (groups: readonly GroupFigures[]) => groups.slice(0, CHART_CARRIERS);

/** Transit days per carrier as box plots: the middle half (p25 to p75), the median, whiskers at p10 and p90. */
export function transitOption(carriers: readonly GroupFigures[]): { option: EChartsOption; rows: number } {
  const shown = largest(carriers.filter((g) => g.group.transit_days.n > 0)).reverse();
  const box = (g: GroupFigures) =>
    [0.1, 0.25, 0.5, 0.75, 0.9].map((p) => Math.round(quantile(g.transit, p)! * 10) / 10);
  return {
    rows: shown.length,
    option: {
      grid: { left: 20, right: 24, top: 16, bottom: 36, containLabel: true },
      xAxis: {
        type: 'value',
        name: 'days in transit',
        nameLocation: 'middle',
        nameGap: 26,
        splitLine: { lineStyle: { color: '#e6e6e6' } },
      },
      yAxis: { type: 'category', data: shown.map((g) => `${groupLabel(g.group)} (${g.group.transit_days.n})`) },
      series: [
        {
          type: 'boxplot',
          layout: 'horizontal',
          data: shown.map(box),
          itemStyle: { color: '#dce8fb', borderColor: PALETTE[0] },
        },
      ],
    },
  };
}

/** Parcels registered a week, stacked by carrier (the largest, then the others together). */
export function volumeOption(carriers: readonly GroupFigures[], weeks: readonly string[]): EChartsOption {
  // As many carriers as there are colours, the last colour for the rest together when more are left.
  const named = carriers.length <= PALETTE.length ? PALETTE.length : PALETTE.length - 1;
  const top = carriers.slice(0, named);
  const rest = carriers.slice(named);
  const series = top.map((g) => ({ name: groupLabel(g.group), values: weeks.map((w) => g.weekly.get(w) ?? 0) }));
  if (rest.length > 0)
    series.push({
      name: `${rest.length} others`,
      values: weeks.map((w) => rest.reduce((s, g) => s + (g.weekly.get(w) ?? 0), 0)),
    });
  return {
    legend: { top: 0, type: 'plain' },
    grid: { left: 8, right: 16, top: 36 + 22 * Math.floor(series.length / 5), bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: weeks.map((w) => w.slice(5)), axisLabel: { hideOverlap: true } },
    yAxis: { type: 'value', splitLine: { lineStyle: { color: '#e6e6e6' } } },
    series: series.map((s) => ({ type: 'bar', name: s.name, stack: 'parcels', data: s.values, barMaxWidth: 28 })),
  };
}

/** Exceptions and failed deliveries as a share of each carrier's parcels, labelled. */
export function troubleOption(carriers: readonly GroupFigures[]): { option: EChartsOption; rows: number } {
  const shown = largest(carriers).reverse();
  const share = (n: number, g: GroupFigures) =>
    g.group.registered === 0 ? 0 : Math.round((1000 * n) / g.group.registered) / 10;
  const label = (pick: (g: GroupFigures) => number) => ({
    show: true,
    position: 'right' as const,
    formatter: (p: { dataIndex: number }) =>
      percent(pick(shown[p.dataIndex]!), shown[p.dataIndex]!.group.registered) || '',
  });
  return {
    rows: shown.length,
    option: {
      legend: { top: 0 },
      grid: { left: 8, right: 48, top: 32, bottom: 28, containLabel: true },
      xAxis: { type: 'value', axisLabel: { formatter: '{value}%' }, splitLine: { lineStyle: { color: '#e6e6e6' } } },
      yAxis: { type: 'category', data: shown.map((g) => groupLabel(g.group)) },
      series: [
        {
          type: 'bar',
          name: 'exceptions',
          data: shown.map((g) => share(g.group.exceptions, g)),
          label: label((g) => g.group.exceptions),
          itemStyle: { color: '#c94c4c' },
        },
        {
          type: 'bar',
          name: 'failed deliveries',
          data: shown.map((g) => share(g.group.delivery_failures, g)),
          label: label((g) => g.group.delivery_failures),
          itemStyle: { color: '#e0a02b' },
        },
      ],
    },
  };
}
