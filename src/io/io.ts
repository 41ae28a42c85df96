// The streams a command talks to, and what is known about them: which are terminals, whether colour is on,
// whether prompting is allowed. Data goes to stdout, everything else to stderr. Commands never touch
// process.stdout/stderr/stdin directly; tests pass a captured IO instead.

import type { Readable } from 'node:stream';
import type { ChalkInstance } from 'chalk';
import { nodeFs, nodeTty } from '../core/node.js';

export interface IO {
  readonly stdin: Readable;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdinIsTTY: boolean;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  /**
   * Where stdout goes: a terminal, a file, a device (/dev/null), or a pipe or socket, whose reader trk cannot see
   * take what it wrote (`trk changes --cursor` moves only past what it knows was taken).
   */
  readonly stdoutTarget: OutputTarget;
  /** Terminal width of stdout (80 when unknown). */
  readonly columns: number;
  /** Terminal width of stderr, where status lines and the progress line go (80 when unknown). */
  readonly stderrColumns: number;
  /** Colours for stdout and stderr, each off unless its stream is a terminal (or FORCE_COLOR). */
  readonly color: ChalkInstance;
  readonly colorErr: ChalkInstance;
  /** `--raw-csv`: CSV cells as received, without the quote before formula-like cells (src/output/csv-cell.ts). */
  readonly rawCsv?: boolean;
  /** Prompts only when a person is there to answer: stdin and stdout both terminals. */
  canPrompt(): boolean;
  /** Write data to stdout as is. */
  out(text: string): void;
  /** Write one status line to stderr (newline added). */
  err(line: string): void;
}

export type OutputTarget = 'terminal' | 'file' | 'device' | 'pipe';

/** Where file descriptor `fd` leads, asked of the descriptor itself. */
export function outputTarget(fd: number): OutputTarget {
  try {
    const stat = nodeFs().fstatSync(fd);
    if (stat.isFile()) return 'file';
    if (stat.isCharacterDevice()) return nodeTty().isatty(fd) ? 'terminal' : 'device';
  } catch {
    // A closed descriptor: nothing can be known to reach anyone.
  }
  return 'pipe';
}

export interface ColorOptions {
  /** `--no-color` */
  noColor?: boolean;
  env?: NodeJS.ProcessEnv;
}

export interface ProcessIOOptions extends ColorOptions {
  /** `--raw-csv` */
  rawCsv?: boolean;
}

/** Colour level for a stream: FORCE_COLOR wins, then --no-color / NO_COLOR, then whether it is a TTY. */
export function colorLevel(isTTY: boolean, opts: ColorOptions = {}): 0 | 1 | 2 | 3 {
  const env = opts.env ?? {};
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') {
    if (force === '0' || force === 'false') return 0;
    const n = Number(force);
    return n >= 1 && n <= 3 ? (n as 1 | 2 | 3) : 1;
  }
  if (opts.noColor || (env.NO_COLOR !== undefined && env.NO_COLOR !== '')) return 0;
  if (!isTTY || env.TERM === 'dumb') return 0;
  return env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit' ? 3 : 2;
}

/**
 * chalk at level 0, without loading chalk (some 10 ms at start-up): every style, however chained, returns its
 * text as is. What output piped, redirected or with --json gets.
 */
export const NO_COLOR: ChalkInstance = (() => {
  // Styles taking a colour first (`c.hex('#f00')('text')`) return the builder; `visible` shows nothing without colour.
  const MODELS = new Set(['rgb', 'hex', 'ansi256', 'bgRgb', 'bgHex', 'bgAnsi256']);
  const plain: ChalkInstance = new Proxy((() => {}) as unknown as ChalkInstance, {
    apply: (_target, _this, args: unknown[]) => args.join(' '),
    get: (_target, prop) => {
      // Not a promise (`await` looks for `then`), and no well-known symbols.
      if (prop === 'then' || typeof prop === 'symbol') return undefined;
      if (prop === 'level') return 0;
      if (prop === 'visible') return () => '';
      if (typeof prop === 'string' && MODELS.has(prop)) return () => plain;
      return plain;
    },
  });
  return plain;
})();

/** A chalk instance for a colour level; chalk itself is loaded only for a level above 0 (a terminal). */
export async function chalkFor(level: 0 | 1 | 2 | 3): Promise<ChalkInstance> {
  if (level === 0) return NO_COLOR;
  const { Chalk } = await import('chalk');
  return new Chalk({ level });
}

export async function createProcessIO(opts: ProcessIOOptions = {}): Promise<IO> {
  const env = opts.env ?? process.env;
  const stdoutIsTTY = process.stdout.isTTY === true;
  const stderrIsTTY = process.stderr.isTTY === true;
  // Asked of the descriptor: process.stdin is made on first use, and making it for a file or /dev/null (cron)
  // loads Node's file streams, which only commands that read stdin need.
  const stdinIsTTY = nodeTty().isatty(0);
  const [color, colorErr] = await Promise.all([
    chalkFor(colorLevel(stdoutIsTTY, { ...opts, env })),
    chalkFor(colorLevel(stderrIsTTY, { ...opts, env })),
  ]);
  return {
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    stdinIsTTY,
    stdoutIsTTY,
    stderrIsTTY,
    stdoutTarget: outputTarget(1),
    columns: process.stdout.columns || 80,
    stderrColumns: process.stderr.columns || process.stdout.columns || 80,
    color,
    colorErr,
    ...(opts.rawCsv ? { rawCsv: true } : {}),
    canPrompt: () => stdinIsTTY && stdoutIsTTY,
    out: (text) => void process.stdout.write(text),
    err: (line) => void process.stderr.write(`${line}\n`),
  };
}
