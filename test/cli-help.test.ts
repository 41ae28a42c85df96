// The help of every command, as snapshots: a change to the interface (a flag renamed, a choice added) shows up in
// review as a snapshot diff.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli.js';
import { buildProgram } from '../src/commands/shared/program.js';
import { createTestIO } from '../src/io.js';

function commandPaths(cmd: Command, prefix: string[] = []): string[][] {
  return cmd.commands.flatMap((sub) => {
    const path = [...prefix, sub.name()];
    return [path, ...commandPaths(sub, path)];
  });
}

const paths = commandPaths(buildProgram(async () => {}, '0.0.0'));

async function help(path: string[]): Promise<string> {
  const io = createTestIO({ columns: 100 });
  const code = await runCli([...path, '--help'], { io, env: {} });
  expect(code).toBe(0);
  expect(io.stderrText()).toBe('');
  return io.stdoutText();
}

describe('--help', () => {
  it('trk', async () => {
    expect(await help([])).toMatchSnapshot();
  });

  it.each(paths.map((p) => [p.join(' '), p] as const))('trk %s', async (_name, path) => {
    expect(await help(path)).toMatchSnapshot();
  });

  it('covers every command', () => {
    expect(paths.map((p) => p.join(' '))).toEqual(
      expect.arrayContaining(['register', 'stop', 'retrack', 'delete', 'push', 'list', 'info', 'quota', 'realtime', 'change-carrier', 'update', 'api', 'auth login', 'auth status', 'auth logout', 'config get', 'config set', 'config list', 'sandbox start', 'sandbox reset', 'help']),
    );
  });
});
