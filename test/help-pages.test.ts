// Help pages printed from the file the build writes (src/help-pages.ts) must be what commander prints.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli.js';
import { createTestIO } from './test-io.js';
import { HELP_WIDTH, helpPageKey, helpWidth, storedHelpPage as stored } from '../src/help-pages.js';
import { commandPaths, helpCommandLines, printedHelp } from '../src/build/write-help-pages.js';
import { assertBuilt, baseEnv, ROOT, trkProcess } from './e2e/helpers.js';

describe('help pages', () => {
  it('the built file holds the page of every command, each as trk lays it out now', async () => {
    assertBuilt();
    const pages = JSON.parse(readFileSync(path.join(ROOT, 'lib', 'help-pages.json'), 'utf8')) as Record<string, string>;
    const lines = await helpCommandLines();
    // Every command, and `trk help` for each (not a stale build: `npm run build` writes the file).
    expect(lines.length).toBeGreaterThan((await commandPaths()).length);
    for (const argv of lines) {
      const live = await printedHelp(argv);
      expect(live, argv.join(' ')).toMatch(
        argv[0] === 'help' && argv.length === 2 && /^(options|exit-codes)$/.test(argv[1]!) ? /\S/ : /Usage: trk/,
      );
      expect(pages[helpPageKey(argv)], argv.join(' ')).toBe(live);
    }
  });

  it('a page from the file is what the command prints laid out live', async () => {
    const env = baseEnv();
    for (const args of [['--help'], ['auth', 'login', '--help'], ['help', 'list']]) {
      // The built CLI's entry (bin/trk.js) prints a page from the file: a process of its own, its output a pipe.
      const stored = await trkProcess(args, { env });
      // A global flag makes the command line one the file does not hold: commander lays the page out, as wide as
      // for a pipe (trk in this process takes the captured output's columns as a terminal's).
      const io = createTestIO({ columns: HELP_WIDTH });
      expect(await runCli(['--no-color', ...args], { io, env })).toBe(0);
      expect(stored.code).toBe(0);
      expect(stored.stdout).toBe(io.stdoutText());
      expect(stored.stderr).toBe('');
    }
  });

  it('is used only for a command line it holds, and a wide enough terminal or none', () => {
    assertBuilt();
    const file = pathToFileURL(path.join(ROOT, 'lib', 'help-pages.json'));
    const noTerminal = { isTTY: false };
    const storedHelpPage = (
      argv: string[],
      stdout: { isTTY?: boolean; columns?: number },
      stderr: { isTTY?: boolean; columns?: number } = noTerminal,
    ) => stored(argv, stdout, stderr, readFileSync, file);
    expect(storedHelpPage(['list', '--help'], { isTTY: false })).toMatch(/^Usage: trk list/);
    expect(storedHelpPage(['list', '-h'], { isTTY: true, columns: 200 })).toMatch(/^Usage: trk list/);
    expect(storedHelpPage(['list', '--help'], { isTTY: true, columns: HELP_WIDTH - 1 })).toBeUndefined();
    // `trk list --help | less` on a narrow terminal: laid out for that terminal, which stderr still is.
    expect(storedHelpPage(['list', '--help'], { isTTY: false }, { isTTY: true, columns: 60 })).toBeUndefined();
    expect(storedHelpPage(['list', '--help'], { isTTY: false }, { isTTY: true, columns: 160 })).toMatch(
      /^Usage: trk list/,
    );
    expect(storedHelpPage(['--json', 'list', '--help'], { isTTY: false })).toBeUndefined();
    expect(storedHelpPage(['list', '--help', 'extra'], { isTTY: false })).toBeUndefined();
    expect(storedHelpPage(['list'], { isTTY: false })).toBeUndefined();
  });

  it("help is laid out for the terminal (stderr's when stdout is redirected), at most 100 columns", () => {
    expect(helpWidth({ isTTY: true, columns: 60 }, { isTTY: true, columns: 60 })).toBe(60);
    expect(helpWidth({ isTTY: false }, { isTTY: true, columns: 72 })).toBe(72);
    expect(helpWidth({ isTTY: true, columns: 240 }, { isTTY: false })).toBe(HELP_WIDTH);
    expect(helpWidth({ isTTY: false }, { isTTY: false })).toBe(HELP_WIDTH);
  });

  it('help is laid out for at most 100 columns; a narrower terminal gets it narrower', async () => {
    const at = async (columns: number) => {
      const io = createTestIO({ columns });
      expect(await runCli(['register', '--help'], { io, env: {} })).toBe(0);
      return io.stdoutText();
    };
    const wide = await at(200);
    expect(wide).toBe(await at(HELP_WIDTH));
    expect(Math.max(...wide.split('\n').map((l) => l.length))).toBeLessThanOrEqual(HELP_WIDTH);
    const narrow = await at(60);
    expect(narrow).not.toBe(wide);
    // Descriptions wrap at 60; only unbreakable words (a long flag) may reach past it.
    expect(narrow.split('\n').filter((l) => l.length > 60 && / {2}\S.* \S/.test(l.slice(60)))).toEqual([]);
  });
});
