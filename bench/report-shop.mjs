// A shop's month on the emulator, mirrored: parcels registered every day for five weeks across carriers of every
// kind (express, national posts, cross-border mail), the emulator's clock moving them along, then `trk sync`. What
// the README shows is made from it: `trk report` in a terminal (docs/report-terminal.txt) and the page's
// screenshot in headless Chromium (docs/report.png, via test/browser/page.ts).
//
//   npm run build && node bench/report-shop.mjs [folder]        # leaves the mirror and a trk environment there
//   node bench/report-shop.mjs --docs                           # also writes docs/report-terminal.txt, docs/report.png

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '@trk/sandbox/http/server.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const trkBin = path.join(root, 'bin', 'trk.js');
const DAY = 86_400_000;
const DAYS = 35;
// The month ends today, so that the parcels' ages are counted as they would be for a real account.
const START = Math.floor(Date.now() / DAY) * DAY - DAYS * DAY;
// Carrier codes and parcels a day: a shop ships most with a few carriers, some with others.
const CARRIERS = [
  [3011, 9],
  [100003, 7],
  [21051, 6],
  [190012, 5],
  [100001, 4],
  [2151, 3],
  [7041, 3],
  [190008, 2],
];
/** Fewer parcels at weekends, more as the shop grows, and no two days alike. */
function parcelsOn(day, perDay) {
  const weekday = new Date(START + day * DAY).getUTCDay();
  const weekend = weekday === 0 ? 0.3 : weekday === 6 ? 0.6 : 1;
  const growth = 0.7 + (0.6 * day) / DAYS;
  const noise = 0.75 + ((0.5 * (((Math.sin(day * 12.9898 + perDay * 78.233) * 43758.5453) % 1) + 1)) % 1);
  return Math.round(perDay * weekend * growth * noise);
}

/** Runs trk (asynchronously: the emulator answers from this process). */
function run(env, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [trkBin, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`trk ${args.join(' ')} exited ${code}: ${stderr}`)),
    );
  });
}

/** Registers the month, syncs, and returns the environment of a trk that reads the mirror. */
export async function shopMirror(folder = mkdtempSync(path.join(tmpdir(), 'trk-shop-'))) {
  const sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    rateLimit: 0,
    speed: 0,
    start: START,
    quotaTotal: 100_000,
  });
  const env = {
    PATH: process.env.PATH,
    HOME: folder,
    TRK_CONFIG_DIR: path.join(folder, 'config'),
    TRK_STATE_DIR: path.join(folder, 'state'),
    TRK_CACHE_DIR: path.join(folder, 'cache'),
    TRK_DATA_DIR: path.join(folder, 'data'),
    TRK_BASE_URL: sandbox.url,
    TRK_API_KEY: sandbox.key,
    TRK_RES_URL: sandbox.url,
    TRK_API_VERSION: 'v2.1',
  };
  try {
    let n = 0;
    for (let day = 0; day < DAYS; day++) {
      const rows = [];
      for (const [carrier, perDay] of CARRIERS) {
        for (let i = 0; i < parcelsOn(day, perDay); i++, n++)
          rows.push(`RS${String(100000000 + n)}XX,${carrier},order-${n},#${20000 + n}`);
      }
      const file = path.join(folder, 'register.csv');
      writeFileSync(file, `number,carrier,tag,order_no\n${rows.join('\n')}\n`);
      await run(env, ['register', '-f', file, '-q']);
      await sandbox.advance(DAY);
    }
    await run(env, ['carriers', '-q', '--json']);
    await run(env, ['sync', '-q']);
  } finally {
    await sandbox.close();
  }
  return { folder, env };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const docs = process.argv.includes('--docs');
  const folder = process.argv.slice(2).find((a) => !a.startsWith('--'));
  if (folder) mkdirSync(folder, { recursive: true });
  const { env } = await shopMirror(folder);
  console.log(
    `the mirror: ${env.TRK_DATA_DIR}; read it with: env HOME=${env.HOME} TRK_DATA_DIR=${env.TRK_DATA_DIR} ` +
      `TRK_CACHE_DIR=${env.TRK_CACHE_DIR} TRK_RES_URL=${env.TRK_RES_URL} trk report`,
  );
  if (docs) {
    const { writeDocs } = await import('./report-docs.mjs');
    await writeDocs(env);
  }
}
