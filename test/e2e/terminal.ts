// The built CLI in a pseudo-terminal, as a person runs it: util-linux `script` gives the command a terminal of a
// chosen size (stdout and stderr both on it, as on a screen). What the terminal showed comes back with the line
// ends of a terminal (\r\n) made plain. A fake pager (a shell script) keeps what it was given in a file.

import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { ROOT } from './helpers.js';

const BIN = path.join(ROOT, 'bin', 'trk.js');

/** Whether util-linux `script` is there to make a terminal. */
export function hasScript(): boolean {
  return spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export interface TerminalResult {
  code: number | null;
  /** What the terminal showed, escape sequences removed, lines ending in \n. */
  screen: string;
  /** As the terminal got it (escape sequences kept). */
  raw: string;
}

export function trkInTerminal(
  args: readonly string[],
  opts: { env: NodeJS.ProcessEnv; columns: number; rows?: number; timeoutMs?: number },
): Promise<TerminalResult> {
  const command = `stty cols ${opts.columns} rows ${opts.rows ?? 40}; exec ${quote(process.execPath)} ${quote(BIN)} ${args.map(quote).join(' ')}`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
      env: { ...opts.env, TERM: 'xterm-256color' },
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let raw = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (raw += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (raw += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, raw, screen: screenText(raw) });
    });
  });
}

/** Terminal output as text: each line as it was last drawn (`\r` and "erase line" redraws applied). */
export function screenText(raw: string): string {
  return raw
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => {
      const redrawn = line.split(/\r|\x1b\[2K/);
      return stripVTControlCharacters(redrawn[redrawn.length - 1] ?? '');
    })
    .join('\n');
}

/** A pager that keeps its input in a file (or the first `lines` lines, then quits, as a reader pressing q). */
export function fakePager(opts: { lines?: number } = {}): { command: string; file: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'trk-pager-'));
  const file = path.join(dir, 'paged.txt');
  const script = path.join(dir, 'pager.sh');
  const keep = opts.lines === undefined ? 'cat' : `head -n ${opts.lines}`;
  writeFileSync(script, `#!/bin/sh\n${keep} > ${quote(file)}\n`);
  chmodSync(script, 0o755);
  return { command: script, file };
}
