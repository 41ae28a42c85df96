// Help laid out for the terminal's width: every `trk help` page at 60, 80 and 120 columns as golden files
// (test/golden/help/<width>/; `npx vitest run test/help-layout.test.ts -u` rewrites them, to read in review), each
// line within the width but for a word that cannot break; a command's own options first, the global ones named in
// one line pointing to `trk help options`.
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli.js';
import { exampleLines, layoutItem, wrapWords } from '../src/commands/help-layout.js';
import { globalOptions } from '../src/commands/define.js';
import { createTestIO } from './test-io.js';
import { commandPaths } from '../src/build/write-help-pages.js';

const WIDTHS = [60, 80, 120] as const;
const paths = await commandPaths();

async function page(argv: string[], columns: number): Promise<string> {
  const io = createTestIO({ columns });
  const code = await runCli(argv, { io, env: {} });
  expect(code, argv.join(' ')).toBe(0);
  expect(io.stderrText()).toBe('');
  return io.stdoutText();
}

/** `trk help X Y` for every command, `trk --help`, and the topics. */
const PAGES: readonly (readonly [string, string[]])[] = [
  ['trk', ['--help']],
  ...paths.filter((p) => p.length > 0).map((p): [string, string[]] => [p.join('-'), ['help', ...p]]),
  ['topic-options', ['help', 'options']],
  ['topic-exit-codes', ['help', 'exit-codes']],
];

/** Lines wider than `width` that could have broken: any but one word alone (a long address or path). */
function overflowing(text: string, width: number): string[] {
  return text.split('\n').filter((l) => l.length > width && !/^\s*\S+( \\)?$/.test(l));
}

describe('golden help pages', () => {
  for (const width of WIDTHS) {
    it.each(PAGES.map(([name, argv]) => [name, argv] as const))(`at ${width} columns: %s`, async (name, argv) => {
      const text = await page(argv, width);
      await expect(text).toMatchFileSnapshot(`golden/help/${width}/${name}.txt`);
      expect(overflowing(text, Math.min(width, 100)), name).toEqual([]);
    });
  }
});

describe('laid out for the width', () => {
  it('option descriptions wrap at 60 columns (under their terms when beside them would be too narrow)', async () => {
    const text = await page(['help', 'list'], 60);
    expect(text).toContain('  --status <status>\n      main package status');
    expect(Math.max(...text.split('\n').map((l) => l.length))).toBeLessThanOrEqual(60);
  });

  it('"Getting started" of trk --help and the whole of trk list --help fit 80 columns', async () => {
    const top = await page(['--help'], 80);
    const started = top.slice(0, top.indexOf('\nUsage:'));
    expect(Math.max(...started.split('\n').map((l) => l.length))).toBeLessThanOrEqual(80);
    const list = await page(['list', '--help'], 80);
    expect(Math.max(...list.split('\n').map((l) => l.length))).toBeLessThanOrEqual(80);
  });

  it("trk help register's first screen (24 lines of 80 columns): the usage, common flags, two examples", async () => {
    const screen = (await page(['help', 'register'], 80)).split('\n').slice(0, 24).join('\n');
    expect(screen).toMatch(/^Usage: trk register/);
    expect(screen).toContain('Examples:\n  trk register RR123456789CN --carrier 3011\n  trk register -f numbers.csv');
    for (const flag of ['-f, --file <file>', '--dry-run', '--rejects <file>', '--skip-invalid']) {
      expect(screen).toContain(flag);
    }
  });

  it('a quoted program too long for a line breaks inside its quotes, where its spaces were', () => {
    const example =
      "trk webhook listen --print | jq -c '{number: .data.number, status: .data.track_info.latest_status.status}'";
    const lines = exampleLines(example, 60);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(60);
    expect(lines.at(-1)).toMatch(/'$/);
    // Pasted, the shell reads the continued lines as one command and the quotes as one word, spaces where they were.
    const pasted = lines
      .join('\n')
      .replace(/ \\\n\s+/g, ' ')
      .replace(/\n\s+/g, ' ')
      .trim();
    expect(pasted).toBe(example);
  });

  it('a description keeps its column beside the term while it has room, else goes under it', () => {
    expect(layoutItem('--tag <text>', 14, 'your own tag (at most 100 characters)', 80)).toBe(
      '  --tag <text>    your own tag (at most 100 characters)',
    );
    expect(layoutItem('--tag <text>', 30, 'your own tag (at most 100 characters)', 60)).toBe(
      '  --tag <text>\n      your own tag (at most 100 characters)',
    );
    expect(wrapWords('a bb ccc dddd', 6)).toEqual(['a bb', 'ccc', 'dddd']);
  });

  it('a long example breaks into shell continuation lines, its comment above, quoted words whole if they fit', () => {
    expect(exampleLines('trk list --status Exception --columns number,carrier,status,tag', 42)).toEqual([
      '  trk list --status Exception --columns \\',
      '      number,carrier,status,tag',
    ]);
    expect(exampleLines('trk info RR123456789CN -o text   # a summary to paste', 40)).toEqual([
      '  # a summary to paste',
      '  trk info RR123456789CN -o text',
    ]);
    // A quoted word that fits no line breaks inside its quotes, where it has spaces (see the next test).
    expect(exampleLines("jq -c '{a: .b, c: .d}' file.json", 20)).toEqual([
      '  jq -c \\',
      "      '{a: .b, c:",
      "      .d}' \\",
      '      file.json',
    ]);
    expect(exampleLines("jq -c '{a: .b}' file.json", 20)).toEqual(["  jq -c '{a: .b}' \\", '      file.json']);
  });
});

describe('global options', () => {
  it(
    "a command's page shows its own options, then one line naming the global ones and where they are " + 'explained',
    async () => {
      const text = await page(['help', 'register'], 100);
      expect(text).not.toContain('Global Options:');
      expect(text).not.toContain('--raw-csv  ');
      const line = text.slice(text.lastIndexOf('\nGlobal options: ') + 1).replace(/\n/g, ' ');
      expect(line).toMatch(/^Global options: --profile, --base-url, .* --raw-csv \(see "trk help options"\)\.\s*$/);
      // Examples under the description, then the command's own options, the global ones named last.
      expect(text.indexOf('Examples:')).toBeLessThan(text.indexOf('--dry-run'));
      expect(text.indexOf('--dry-run')).toBeLessThan(text.indexOf('Global options: '));
      // The global options are named, not explained again on every page.
      for (const option of globalOptions()) expect(text).not.toContain(option.description);
    },
  );

  it('trk help options lists every global option with what it does', async () => {
    const text = await page(['help', 'options'], 100);
    for (const option of globalOptions()) {
      expect(text).toContain(option.flags);
      expect(text.replace(/\s+/g, ' ')).toContain(option.description);
    }
  });
});
