// Layout of long fields: a record whose tag, remark and last event are N KB long, as `trk list -o wide` and
// `trk list` (80 columns) lay it out, and a parcel whose event description, location and sub-status text are N KB
// long, as the tracking page of `trk info` shows it. Each is rendered in this process (dist/, no network) with
// fields of 32 KB and of 256 KB, in three kinds of text: words, one long word, and text full of the control
// characters that open terminal sequences (each of which the sanitiser must not scan to the end again).
//
//   npm run build && node bench/long-fields.mjs
//
// Target (issue 19): linear time, so the 256 KB layout takes about 8 times the 32 KB one (the yardstick, measured
// in the same run). A ratio above 16 is reported as a failure (exit 1); quadratic layout shows 40-64.

import { createCapturedIO } from '../dist/io/captured-io.js';
import { recordColumns } from '../dist/output/columns.js';
import { toDetailsView, toRecordView } from '@trk/service/records.js';
import { createRowWriter } from '../dist/output/render.js';
import { renderTrackingPage } from '../dist/output/tracking-page.js';
import { NO_COLOR } from '../dist/io/io.js';
import { loadTextWidths } from '../dist/output/width.js';

// As a command laying out text for people has it (src/cli.ts).
await loadTextWidths();

const SMALL = 32 * 1024;
const LARGE = 256 * 1024;
const MAX_RATIO = 16;

const TEXTS = {
  words: (n) => 'lorem ipsum dolor sit amet '.repeat(Math.ceil(n / 27)).slice(0, n),
  'one long word': (n) => 'x'.repeat(n),
  'control characters': (n) => '\u009dab\u0090cd\u001b]ef'.repeat(Math.ceil(n / 10)).slice(0, n),
};

function record(text) {
  return {
    number: 'RR123456789CN',
    carrier: 3011,
    package_status: 'InTransit',
    tracking_status: 'Tracking',
    register_time: '2026-06-24T18:02:11Z',
    track_time: '2026-06-30T18:01:12Z',
    tag: text,
    remark: text,
    latest_event_time: '2026-06-30T14:23:00-03:00',
    latest_event_info: text,
  };
}

function details(text) {
  const event = {
    time_iso: '2026-06-30T14:23:00-03:00',
    time_utc: '2026-06-30T17:23:00Z',
    description: text,
    location: text,
    stage: 'Departure',
    sub_status: 'InTransit_Departure',
  };
  return {
    number: 'RR123456789CN',
    carrier: 3011,
    tag: text,
    track_info: {
      latest_status: { status: 'InTransit', sub_status: 'InTransit_Departure', sub_status_descr: text },
      latest_event: event,
      tracking: { providers: [{ provider: { key: 3011, name: 'China Post' }, events: [event] }] },
    },
  };
}

const RENDERERS = {
  'list -o wide': (text) => table(text, 'wide'),
  'list (80 columns)': (text) => table(text, 'table'),
  'tracking page': (text) =>
    renderTrackingPage(toDetailsView(details(text), 'v2'), NO_COLOR, {
      now: Date.parse('2026-07-01T00:00:00Z'),
      width: 80,
    }).length,
};

function table(text, format) {
  const io = { ...createCapturedIO({ columns: 80 }), stdoutIsTTY: true, stderrIsTTY: true, stdoutTarget: 'terminal' };
  const writer = createRowWriter(io, recordColumns(), {
    format,
    times: { zone: 'UTC', now: Date.parse('2026-07-01T00:00:00Z') },
  });
  writer.write([toRecordView(record(text), 'v2')]);
  return io.stdoutText().length;
}

/**
 * The least CPU time of a few runs, in ms (the first ones warm the code up), each after a full garbage collection.
 * CPU time rather than wall time: other processes on the machine then count for less.
 */
function time(render, text) {
  render(text);
  render(text);
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 7; i++) {
    globalThis.gc?.();
    const started = process.cpuUsage();
    render(text);
    const used = process.cpuUsage(started);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

if (!globalThis.gc) {
  // Collections in the middle of a run would weigh on the large fields more than on the small ones.
  const { spawnSync } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  const run = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url)], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}

const rows = [];
for (const [what, render] of Object.entries(RENDERERS)) {
  for (const [kind, make] of Object.entries(TEXTS)) {
    const small = time(render, make(SMALL));
    const large = time(render, make(LARGE));
    const row = {
      layout: what,
      text: kind,
      ms32KB: Number(small.toFixed(1)),
      ms256KB: Number(large.toFixed(1)),
      ratio: Number((large / small).toFixed(1)),
    };
    console.log(JSON.stringify(row));
    rows.push(row);
  }
}
const slow = rows.filter((r) => r.ratio > MAX_RATIO);
if (slow.length > 0) {
  console.error(`not linear (ratio above ${MAX_RATIO}): ${slow.map((r) => `${r.layout}, ${r.text}`).join('; ')}`);
  process.exitCode = 1;
}
