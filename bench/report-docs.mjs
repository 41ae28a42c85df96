// The README's pictures of `trk report`, made from the sandbox's shop (bench/report-shop.mjs): the report as a
// terminal of 80 columns shows it (docs/report-terminal.txt), and the page as headless Chromium shows it
// (docs/report.png, through test/browser/chromium.mjs).
//
//   npm run build && node bench/report-shop.mjs --docs

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { fileURLToPath } from 'node:url';
import { withPage } from '../test/browser/chromium.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const trkBin = path.join(root, 'bin', 'trk.js');
const quote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;

/** `trk ARGS` in a pseudo-terminal of `columns` (util-linux script), as the screen shows it. */
function inTerminal(env, args, columns) {
  const command =
    `stty cols ${columns} rows 200; exec ${quote(process.execPath)} ${quote(trkBin)} ` + `${args.map(quote).join(' ')}`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { ...env, NO_COLOR: '1', TERM: 'xterm-256color' },
    });
    let raw = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (raw += d));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(stripVTControlCharacters(raw).replace(/\r/g, ''))
        : reject(new Error(`trk exited ${code}: ${raw}`)),
    );
  });
}

export async function writeDocs(env) {
  const docs = path.join(root, 'docs');
  mkdirSync(docs, { recursive: true });
  const screen = await inTerminal(env, ['report', '--no-pager'], 80);
  writeFileSync(path.join(docs, 'report-terminal.txt'), `$ trk report\n${screen}`);
  const page = path.join(mkdtempSync(path.join(tmpdir(), 'trk-report-docs-')), 'report.html');
  await inTerminal(env, ['report', '--html', page, '-q'], 80);
  await withPage(page, (p) => p.screenshot({ path: path.join(docs, 'report.png'), fullPage: false }), {
    width: 1000,
    height: 2000,
  });
  console.log(`wrote docs/report-terminal.txt and docs/report.png`);
}
