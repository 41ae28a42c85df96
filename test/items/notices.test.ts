// A run's summary and notes on a 60-column terminal: wrapped between words, never wider than the terminal, the
// words and their order kept; piped, one line per message as scripts grep them.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestIO } from '../test-io.js';
import { noticeLines } from '../../src/items/notices.js';
import { sentBeforeText } from '../../src/items/plan.js';
import { setAsideLine, summaryLines, type RunSummary } from '../../src/items/results.js';
import { loadTextWidths, textWidth, wrapNotice } from '../../src/output/width.js';
import { numberList, runEngine, sandboxPerTest, tempDir, testContext, writeInput } from './helpers.js';

const REJECTS = '/home/shop/.local/state/trk/rejects/2026-11-26T02-00-04-register-shipments.csv';

const summary: RunSummary = {
  operation: 'register',
  total: 2100,
  settled: 2100,
  fromJournal: 0,
  accepted: 2054,
  verified: 12,
  already: 0,
  rejected: 46,
  rejectedByCode: [{ code: -18019903, message: 'carrier cannot be detected', count: 46 }],
  invalid: 0,
  notFound: 0,
  unsettled: 0,
  leftBehind: 0,
  tagApplied: 0,
  written: 46,
  elapsedMs: 18_000,
  perSecond: 116.7,
};

/** What a run says at the end of a run with repeats, "Other" carriers and rejections, as one list. */
const messages = [
  ...summaryLines(summary, REJECTS),
  '50 repeated rows sent once',
  '100 rows named no carrier ("Other", "N/A", empty): sent without one, for the service to detect',
  `/srv/shop/exports/shipments.csv: ${sentBeforeText({ rows: 2100, when: '2026-11-25T02:00:04Z' }, 100)}`,
  setAsideLine(summary, REJECTS)!,
];

/** A line of more than one word: only a single word longer than the terminal (a path) may be wider. */
const manyWords = (line: string) => /\S\s+\S/.test(line);

const words = (lines: readonly string[]) => lines.join(' ').split(/\s+/).filter(Boolean).join(' ');

// Widths as a terminal draws them, as for a command laying out text for people (src/cli.ts loads them).
beforeAll(loadTextWidths);

describe('a run’s messages on a terminal of 60 columns', () => {
  const tty = createTestIO({ tty: true, columns: 60 });

  it('are wrapped between words, no line wider than the terminal, every word kept in order', () => {
    for (const message of messages) {
      const lines = noticeLines(tty, message);
      for (const line of lines.filter(manyWords))
        expect(textWidth(line), `${JSON.stringify(line)} of ${message}`).toBeLessThanOrEqual(60);
      expect(words(lines)).toBe(words([message]));
    }
  });

  it('continue two columns further in than the message starts, so that a wrapped line reads as one', () => {
    expect(noticeLines(tty, messages.find((m) => m.includes('named no carrier'))!)).toEqual([
      '100 rows named no carrier ("Other", "N/A", empty): sent',
      '  without one, for the service to detect',
    ]);
    // A path longer than the line stays whole, on a line of its own from the first column: copied in one piece.
    expect(noticeLines(tty, `  46 rows written to ${REJECTS}`)).toEqual(['  46 rows written to', REJECTS]);
    expect(
      noticeLines(tty, '  registered         2,054  (12 confirmed by looking them up after a lost answer)'),
    ).toEqual(['  registered         2,054  (12 confirmed by looking them up', '    after a lost answer)']);
  });

  it('keep the columns of a line that fits as they are', () => {
    expect(noticeLines(tty, '  rejected           46')).toEqual(['  rejected           46']);
    expect(wrapNotice('register: 2,100 numbers in 18s (117/s)', 60)).toEqual([
      'register: 2,100 numbers in 18s (117/s)',
    ]);
  });
});

describe('a run’s messages piped or in a log', () => {
  it('stay one line each, whatever the width, as scripts and cron mail grep them', () => {
    const piped = createTestIO({ tty: false, columns: 60 });
    for (const message of messages) expect(noticeLines(piped, message)).toEqual([message]);
  });
});

describe('a run of a file on a terminal of 60 columns', () => {
  const sandbox = sandboxPerTest();

  it('says what it did in lines no wider than the terminal; a later run of the grown file too', async () => {
    const e = await sandbox();
    const dir = tempDir('trk-notices-padding-the-path-of-the-state-folder-');
    const list = numberList(90);
    const rows = (n: number) => [
      'number,carrier',
      ...list.slice(0, n - 10).map((x) => `${x},3011`),
      ...list.slice(0, 5).map((x) => `${x},3011`),
      ...list.slice(n - 10, n).map((x) => `${x},Other`),
      'AB,3011',
    ];
    const file = writeInput(dir, 'shipments-of-the-shop-exported-every-night.csv', `${rows(80).join('\n')}\n`);
    const says = async () => {
      const io = createTestIO({ tty: true, columns: 60 });
      const ctx = testContext({
        stateDir: path.join(dir, 'state'),
        io,
        settings: { baseUrl: e.sandbox.url, apiKey: e.sandbox.key },
      });
      const report = await runEngine(ctx, { operation: 'register', file, skipInvalid: true, client: e.client });
      expect(report.exitCode).toBe(3);
      return io.stderrText().trimEnd().split('\n');
    };
    const first = await says();
    expect(words(first)).toMatch(/5 repeated rows sent once/);
    expect(words(first)).toMatch(/10 rows named no carrier \("Other"\): sent without one/);
    expect(words(first)).toMatch(/1 row written to \/tmp\//);
    writeInput(dir, 'shipments-of-the-shop-exported-every-night.csv', `${rows(90).join('\n')}\n`);
    const second = await says();
    // The 10 rows of "Other" now name their carrier: other requests, sent again. The 5 repeats were the first
    // run's to speak of.
    expect(words(second)).toMatch(/: 75 rows already sent by the run of \d{4}-\d\d-\d\d; 20 new/);
    expect(words(second)).not.toMatch(/repeated row/);
    for (const line of [...first, ...second].filter(manyWords)) expect(textWidth(line), line).toBeLessThanOrEqual(60);
  });
});
