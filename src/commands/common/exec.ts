// Commands a user hands trk to run (`trk changes --exec CMD`): run by the shell, as cron and `xargs` users expect,
// with what trk writes for them on their stdin and their output passed on as trk's own.

import { spawn } from 'node:child_process';
import type { Context } from '../../context/context.js';
import { NO_COLOR, type IO } from '../../io/io.js';

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * Runs `command` with `sh -c`, its stdin written by `write` (given an IO whose stdout is that stdin: not a terminal,
 * no colour), its stdout and stderr passed on to trk's. Resolves with how it ended; a command that stops reading
 * early (`head -1`) ends the writing without an error, its exit status says whether it succeeded.
 */
export async function runWithInput(
  command: string,
  ctx: Pick<Context, 'io' | 'env'>,
  write: (io: IO) => Promise<void>,
): Promise<ExitStatus> {
  const child = spawn(command, { shell: true, stdio: ['pipe', 'pipe', 'pipe'], env: ctx.env });
  child.stdout.on('data', (chunk: Buffer) => ctx.io.out(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => ctx.io.stderr.write(chunk));
  const ended = new Promise<ExitStatus>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  // A reader that left early: what it did not read is its concern, told by its exit status.
  child.stdin.on('error', () => {});
  const stdin = child.stdin;
  const io: IO = {
    ...ctx.io,
    stdout: stdin,
    stdoutIsTTY: false,
    stdoutTarget: 'pipe',
    color: NO_COLOR,
    out: (text) => void stdin.write(text),
  };
  try {
    await write(io);
  } finally {
    stdin.end();
  }
  return ended;
}
