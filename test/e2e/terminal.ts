// bin/trk.js in a pseudo-terminal, through util-linux `script`: stdin, stdout and stderr are a terminal of a
// chosen size, as for a person typing. `inTerminal` sends keys once the screen shows what they answer;
// `trkInTerminal` gives back each line as it was last drawn; `fakePager` keeps what a pager was given.

import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { beforeProcess, ROOT } from './helpers.js';

const BIN = path.join(ROOT, 'bin', 'trk.js');

/** Whether `script` can run a command in a pseudo-terminal here. */
export const HAS_SCRIPT = spawnSync('script', ['-qec', 'true', '/dev/null'], { stdio: 'ignore' }).status === 0;

export function hasScript(): boolean {
  return HAS_SCRIPT;
}

export interface Step {
  /** Wait until the screen (since the previous step) shows this... */
  waitFor: RegExp;
  /** ...then type this. */
  send: string;
}

export interface TerminalResult {
  code: number | null;
  /** What the terminal showed, escape sequences and carriage returns removed. */
  screen: string;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Escape sequences (colours, cursor moves, screen clears) and carriage returns out of the way. */
export function plain(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text
    .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '')
    .replace(/\u001b[()][0-9A-Za-z]/g, '')
    .replace(/\r/g, '');
}

export async function inTerminal(
  args: readonly string[],
  opts: { env: NodeJS.ProcessEnv; steps?: readonly Step[]; columns?: number; timeoutMs?: number },
): Promise<TerminalResult> {
  await beforeProcess();
  const command =
    `stty cols ${opts.columns ?? 100} rows 40; exec ${quote(process.execPath)} ${quote(BIN)} ` +
    `${args.map(quote).join(' ')}`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qefc', command, '/dev/null'], {
      env: opts.env,
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let raw = '';
    const steps = [...(opts.steps ?? [])];
    let from = 0;
    const advance = () => {
      const step = steps[0];
      if (!step) return;
      const seen = plain(raw.slice(from));
      if (!step.waitFor.test(seen)) return;
      steps.shift();
      from = raw.length;
      child.stdin.write(step.send);
      advance();
    };
    // Real time: a bound on a process of its own that stopped answering, so that a hang fails instead of waiting.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`timed out in the terminal; waiting for ${steps[0]?.waitFor ?? 'the end'}; screen:\n${plain(raw)}`),
      );
    }, opts.timeoutMs ?? 20_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      raw += d;
      advance();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (steps.length > 0) reject(new Error(`the command ended before ${steps[0]!.waitFor}; screen:\n${plain(raw)}`));
      else resolve({ code, screen: plain(raw) });
    });
  });
}

export interface DrawnResult {
  code: number | null;
  /** What the terminal showed, escape sequences removed, lines ending in \n. */
  screen: string;
  /** As the terminal got it (escape sequences kept). */
  raw: string;
}

export async function trkInTerminal(
  args: readonly string[],
  opts: {
    env: NodeJS.ProcessEnv;
    columns: number;
    rows?: number;
    timeoutMs?: number;
    /** stdout into this file, stderr alone on the terminal (as `trk ... > out.json` at a prompt). */
    stdoutFile?: string;
  },
): Promise<DrawnResult> {
  await beforeProcess();
  const redirect = opts.stdoutFile === undefined ? '' : ` > ${quote(opts.stdoutFile)}`;
  const command =
    `stty cols ${opts.columns} rows ${opts.rows ?? 40}; exec ${quote(process.execPath)} ` +
    `${quote(BIN)} ${args.map(quote).join(' ')}${redirect}`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
      env: { ...opts.env, TERM: 'xterm-256color' },
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let raw = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (raw += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (raw += d));
    // Real time: a bound on a process of its own, so that a hang fails instead of waiting.
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
