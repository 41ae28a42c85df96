import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { laysOutText } from '../../src/cli.js';
import { cut } from '../../src/items/progress.js';
import { shorten, shortenStart } from '../../src/output/table.js';
import measureWidth from 'string-width';
import {
  drawnCharacters,
  loadTextWidths,
  NARROW_RANGES,
  textWidth,
  WIDE_RANGES,
  wrapNotice,
  wrapText,
} from '../../src/output/width.js';
import { createTestIO } from '../test-io.js';

const FAMILY = '👨‍👩‍👧‍👦';
const RAINBOW_FLAG = '🏳️‍🌈';
const CODER = '👩🏽‍💻';

describe('text widths, as a terminal draws them', () => {
  beforeAll(loadTextWidths);

  it('printable ASCII is as wide as it is long', () => {
    expect(textWidth('')).toBe(0);
    expect(textWidth('RR123456789CN  in transit')).toBe(25);
  });

  it('East Asian wide and fullwidth characters take two cells, halfwidth forms one', () => {
    expect(textWidth('漢字')).toBe(4);
    expect(textWidth('已到达处理中心，正在分拣')).toBe(24);
    expect(textWidth('한국어')).toBe(6);
    expect(textWidth('ＡＢＣ')).toBe(6);
    expect(textWidth('ｶﾀｶﾅ')).toBe(4);
    expect(textWidth('São Paulo — 北京')).toBe(16);
  });

  it('an emoji sequence joined by ZWJ is one character of two cells', () => {
    expect(textWidth(FAMILY)).toBe(2);
    expect(textWidth(RAINBOW_FLAG)).toBe(2);
    expect(textWidth(CODER)).toBe(2);
    expect(textWidth(`a${FAMILY}b`)).toBe(4);
  });

  it('a flag, a skin tone, a keycap and an emoji asked for by VS16 take two cells', () => {
    expect(textWidth('🇩🇪')).toBe(2);
    expect(textWidth('DE 🇩🇪 → JP 🇯🇵')).toBe(13);
    expect(textWidth('👍🏽')).toBe(2);
    expect(textWidth('1️⃣')).toBe(2);
    expect(textWidth('❤️')).toBe(2);
  });

  it('combining marks take no cell, in every block of them', () => {
    expect(textWidth('e\u0301')).toBe(1);
    expect(textWidth('a\u0308\u0304')).toBe(1);
    // Combining Diacritical Marks Extended and for Symbols, Hebrew points: beyond U+0300-U+036F.
    expect(textWidth('a\u1ab0')).toBe(1);
    expect(textWidth('a\u20dd')).toBe(1);
    expect(textWidth('שָׁלוֹם')).toBe(4);
    expect(textWidth('Zürich\u0327')).toBe(6);
  });

  it('zero-width characters and terminal colours take no cell', () => {
    expect(textWidth('a\u200bb')).toBe(2);
    expect(textWidth('\u001b[31mred\u001b[39m')).toBe(3);
  });

  it('counts what it counts itself as string-width does: each character, alone and in any company', () => {
    const counted: string[] = [];
    for (const [ranges, width] of [
      [NARROW_RANGES, 1],
      [WIDE_RANGES, 2],
    ] as const) {
      for (const [first, last] of ranges) {
        for (let code = first; code <= last; code++) {
          const ch = String.fromCharCode(code);
          counted.push(ch);
          if (measureWidth(ch) !== width) expect.fail(`U+${code.toString(16)}: ${measureWidth(ch)}, not ${width}`);
        }
      }
    }
    // Texts of them in any order are as wide as string-width says: none joins the next into one character.
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let n = 0; n < 2000; n++) {
      const text = Array.from({ length: 1 + (next() % 12) }, () => counted[next() % counted.length]).join('');
      if (textWidth(text) !== measureWidth(text)) expect.fail(`${JSON.stringify(text)}: ${textWidth(text)}`);
    }
  });

  it('text is taken character by character without cutting a cluster', () => {
    const chars = [...drawnCharacters(`a${FAMILY}e\u0301🇩🇪漢`)];
    expect(chars).toEqual([
      { text: 'a', width: 1 },
      { text: FAMILY, width: 2 },
      { text: 'e\u0301', width: 1 },
      { text: '🇩🇪', width: 2 },
      { text: '漢', width: 2 },
    ]);
  });

  it('wrapping splits a long word between clusters, never inside one', () => {
    expect(wrapText(FAMILY.repeat(7), 10)).toEqual([FAMILY.repeat(5), FAMILY.repeat(2)]);
    expect(wrapText('🇩🇪'.repeat(6), 10)).toEqual(['🇩🇪'.repeat(5), '🇩🇪']);
    expect(wrapText('e\u0301'.repeat(25), 10)).toEqual([
      'e\u0301'.repeat(10),
      'e\u0301'.repeat(10),
      'e\u0301'.repeat(5),
    ]);
    expect(wrapText(`${'漢'.repeat(6)} 字`, 10)).toEqual(['漢漢漢漢漢', '漢 字']);
  });

  it('cutting to a width keeps clusters whole, at either end', () => {
    expect(shorten(`${FAMILY}${FAMILY}${FAMILY}`, 5)).toBe(`${FAMILY}${FAMILY}…`);
    expect(shortenStart(`${FAMILY}${FAMILY}${FAMILY}`, 5)).toBe(`…${FAMILY}${FAMILY}`);
    expect(shorten('Zu\u0308rich Hauptbahnhof', 7)).toBe('Zu\u0308rich…');
    expect(cut(`registering ${CODER}${CODER}${CODER}`, 16)).toBe(`registering ${CODER}…`);
  });

  it('a notice wraps by the width of its words', () => {
    const line = `rejects written to ${'漢'.repeat(10)} and ${RAINBOW_FLAG} more`;
    const lines = wrapNotice(line, 30);
    expect(lines).toEqual(['rejects written to', `  ${'漢'.repeat(10)} and ${RAINBOW_FLAG}`, '  more']);
    for (const l of lines) expect(textWidth(l)).toBeLessThanOrEqual(30);
  });

  it('a notice never breaks a word: one too long for a line (a path) gets a line of its own, from column 0', () => {
    const file = '/home/shop/.local/state/trk/rejects/2026-11-26T02-00-04-register.csv';
    expect(wrapNotice(`  46 rows written to ${file} (open it to fix them)`, 40)).toEqual([
      '  46 rows written to',
      file,
      '    (open it to fix them)',
    ]);
    // Too long for a continuation line, though not for the first column.
    const word = 'x'.repeat(29);
    expect(wrapNotice(`a ${word} b`, 30)).toEqual(['a', word, '  b']);
  });

  it('a notice of several lines wraps each alone', () => {
    expect(wrapNotice('first line that is long\nsecond', 12)).toEqual(['first line', '  that is', '  long', 'second']);
  });
});

describe('string-width is loaded only for text laid out for people', () => {
  it('is wanted for tables (asked for, or automatic on a terminal) and a terminal on stderr', () => {
    const piped = createTestIO();
    const terminal = createTestIO({ tty: true });
    expect(laysOutText(piped, 'table')).toBe(true);
    expect(laysOutText(piped, 'wide')).toBe(true);
    expect(laysOutText(terminal, undefined)).toBe(true);
    expect(laysOutText({ ...piped, stderrIsTTY: true }, 'json')).toBe(true);
    for (const format of ['json', 'ndjson', 'csv', 'ids', 'text', undefined] as const)
      expect(laysOutText(piped, format), String(format)).toBe(false);
  });

  it('a command laying out a table loads it first; one printing JSON does not', async () => {
    const env = {
      TRK_RES_URL: 'http://127.0.0.1:9',
      TRK_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), 'trk-width-')),
      TRK_STATE_DIR: mkdtempSync(path.join(tmpdir(), 'trk-width-st-')),
    };
    const fresh = async () => {
      vi.resetModules();
      const [{ runCli }, width] = await Promise.all([import('../../src/cli.js'), import('../../src/output/width.js')]);
      return { runCli, textWidth: width.textWidth };
    };
    // "été" with its accents as combining marks: three cells, five code points.
    const tag = 'e\u0301te\u0301';
    const register = ['--sandbox', 'register', 'SB123456789CN', '--carrier', '3011', '--tag', tag, '--json'];
    const json = await fresh();
    expect(await json.runCli(register, { io: createTestIO(), env })).toBe(0);
    // Without it, a code point is a cell.
    expect(json.textWidth(FAMILY)).toBe(7);

    const table = await fresh();
    const io = createTestIO();
    expect(await table.runCli(['--sandbox', 'list', '-o', 'table', '--columns', 'tag,number'], { io, env })).toBe(0);
    expect(table.textWidth(FAMILY)).toBe(2);
    // The tag takes three cells, and the next column starts after them.
    const [header, row] = io.stdoutText().split('\n');
    expect(header).toBe('TAG  NUMBER');
    expect(row).toBe(`${tag}  SB123456789CN`);
  });
});
