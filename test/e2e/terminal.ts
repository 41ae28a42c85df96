// bin/trk.js in a pseudo-terminal, through util-linux `script`: stdin, stdout and stderr are a terminal, as for a
// person typing. Keys are sent once the screen shows what they answer.

import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './helpers.js';

const BIN = path.join(ROOT, 'bin', 'trk.js');

/** Whether `script` can run a command in a pseudo-terminal here. */
export const HAS_SCRIPT = spawnSync('script', ['-qec', 'true', '/dev/null'], { stdio: 'ignore' }).status === 0;

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
  return text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/\u001b[()][0-9A-Za-z]/g, '').replace(/\r/g, '');
}

export function inTerminal(
  args: readonly string[],
  opts: { env: NodeJS.ProcessEnv; steps?: readonly Step[]; columns?: number; timeoutMs?: number },
): Promise<TerminalResult> {
  const command = `stty cols ${opts.columns ?? 100} rows 40; exec ${quote(process.execPath)} ${quote(BIN)} ${args.map(quote).join(' ')}`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qefc', command, '/dev/null'], { env: opts.env, cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
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
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`timed out in the terminal; waiting for ${steps[0]?.waitFor ?? 'the end'}; screen:\n${plain(raw)}`));
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
