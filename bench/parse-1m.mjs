// The validation pass over a large input: a CSV of N rows (default 1,000,000) with a header, a carrier, a tag
// and an e-mail per row is generated in a temporary folder, then read, parsed and checked as `trk register -f`
// does before sending anything (formats, lengths, duplicates, request and quota counts).
// Reports the time of the pass and the peak RSS of the process that ran it (a process of its own).
//
//   npm run build && node bench/parse-1m.mjs [rows=1000000]     (5000000, or 5e6, for five million)
//
// Targets: a 1,000,000-row file peaks under 150 MB of RSS, and memory stays flat in the row count: 5,000,000 rows
// peak close to 1,000,000 (repeats are found in partitions on disk, src/items/repeats.ts, and each line's request
// hash goes to disk past the first 256 Ki lines, src/items/digest.ts).

import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openSource } from '../dist/items/source.js';
import { createCapturedIO } from '../dist/io/captured-io.js';
import { scanInput } from '../dist/items/scan.js';

const rows = Number(process.argv[2] === '--pass' ? 0 : (process.argv[2] ?? 1_000_000));
if (process.argv[2] !== '--pass' && !(Number.isInteger(rows) && rows > 0))
  throw new Error(`give a row count, not ${process.argv[2]}`);

if (process.argv[2] === '--pass') {
  // The measured part, in a process of its own so that generating the file does not count.
  const file = process.argv[3];
  const started = performance.now();
  const source = await openSource({ numbers: [], file }, createCapturedIO(), path.dirname(file));
  const scan = await scanInput(source, { operation: 'register', version: 'v2' });
  const seconds = (performance.now() - started) / 1000;
  if (scan.problems.count !== 0) throw new Error(`unexpected problems: ${scan.problems.lines().join('; ')}`);
  process.stdout.write(
    JSON.stringify({
      items: scan.items,
      requests: scan.chunkItems.length,
      quotaUnits: scan.units,
      seconds: Number(seconds.toFixed(2)),
      peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    }),
  );
} else {
  const dir = mkdtempSync(path.join(tmpdir(), 'trk-parse-'));
  const file = path.join(dir, 'numbers.csv');
  const out = createWriteStream(file);
  out.write('number,carrier,tag,email\r\n');
  for (let i = 1; i <= rows; i++) {
    const line = `RR${String(i).padStart(9, '0')}CN,3011,"order ${i}, batch ${i % 97}",buyer${i}@example.com\r\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  const size = statSync(file).size;
  const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--pass', file], { encoding: 'utf8' });
  rmSync(dir, { recursive: true, force: true });
  if (run.status !== 0) throw new Error(run.stderr);
  const pass = JSON.parse(run.stdout);
  console.log(
    JSON.stringify(
      {
        rows,
        fileMB: Number((size / 1024 / 1024).toFixed(1)),
        ...pass,
        rowsPerSecond: Math.round(rows / pass.seconds),
      },
      null,
      2,
    ),
  );
}
