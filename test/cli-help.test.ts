// The help of every command, as snapshots: a change to the interface (a flag renamed, a choice added) shows up in
// review as a snapshot diff.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli.js';
import { commandPaths } from '../src/build/write-help-pages.js';
import { createTestIO } from './test-io.js';

// Every command below trk, hidden ones included (trk itself has a test of its own).
const paths = (await commandPaths({ hidden: true })).filter((p) => p.length > 0);

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
      expect.arrayContaining([
        'register',
        'stop',
        'retrack',
        'delete',
        'push',
        'list',
        'info',
        'quota',
        'realtime',
        'change-carrier',
        'update',
        'api',
        'auth login',
        'auth switch',
        'auth list',
        'auth status',
        'auth logout',
        'config get',
        'config set',
        'config unset',
        'config list',
        'sandbox start',
        'sandbox reset',
        'help',
      ]),
    );
  });
});

describe('examples', () => {
  it.each(paths.filter((p) => p[0] !== '__complete').map((p) => [p.join(' '), p] as const))(
    'trk %s --help shows examples',
    async (_name, path) => {
      const text = await help(path);
      const examples = text.slice(text.indexOf('\nExamples:\n'));
      expect(text).toContain('\nExamples:\n');
      // Each example is a trk command line (a shell loop or a pipe may start it).
      expect(
        examples
          .split('\n')
          .slice(2)
          .filter((l) => l.startsWith('  ')).length,
      ).toBeGreaterThan(0);
    },
  );

  it('trk --help opens with getting started', async () => {
    expect(await help([])).toMatch(/^Getting started:\n/);
  });

  it('sandbox start: the lines after the start hand its settings to trk (sourced and exported)', async () => {
    const text = await help(['sandbox', 'start']);
    const examples = text.slice(text.indexOf('Examples:') + 'Examples:\n'.length);
    const example = examples
      .slice(0, examples.indexOf('\n\n'))
      .split('\n')
      .map((l) => l.trim());
    expect(example[0]).toMatch(/^trk sandbox start .*> sandbox\.env &$/);
    // The rest, with trk replaced by a process that shows what a child of the shell sees.
    const rest = example
      .slice(1)
      .join('\n')
      .replace(/sleep \d+;?/g, '')
      .replace(/trk register \S+/, `node -e "process.stdout.write(process.env.TRK_BASE_URL ?? 'unset')"`);
    const dir = mkdtempSync(path.join(tmpdir(), 'trk-example-'));
    try {
      // What trk sandbox start prints on stdout.
      writeFileSync(path.join(dir, 'sandbox.env'), 'TRK_BASE_URL=http://127.0.0.1:4010\nTRK_API_KEY=sandbox-key\n');
      const seen = execFileSync('sh', ['-c', rest], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '' },
        encoding: 'utf8',
      });
      expect(seen).toBe('http://127.0.0.1:4010');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
