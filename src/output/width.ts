// How wide text is on a terminal, and text wrapped to a width: for tables, the tracking page, the report and the
// progress line.
//
// Text is measured as terminals draw it by string-width: grapheme clusters (an emoji sequence joined by ZWJ, a flag,
// a letter with its combining marks) are one character, East Asian widths come from Unicode's tables. Two things
// keep it off the common paths:
// - It is loaded only by commands that lay text out for people (`loadTextWidths`, called by src/cli.ts): its import
//   loads ICU's break iterator (20-30 ms of CPU more for `trk stop N -o table`), which a one-shot command with --json
//   should not pay, and its first measurement compiles an emoji regular expression (15-20 ms).
// - Characters that are a cluster by themselves in any text and whose width Unicode fixes (Latin, Greek, Cyrillic,
//   CJK ideographs, kana, Hangul syllables, fullwidth forms, the punctuation, arrows and blocks trk draws) are
//   counted here: string-width laid out 100,000 rows of Chinese 4-6 times slower than counting them (segmenting
//   each text). test/output/width.test.ts holds every one of them to string-width's width.

import type measureWidth from 'string-width';

let measure: typeof measureWidth | undefined;
let segmenter: Intl.Segmenter | undefined;

/** Loads string-width, for text beyond what is counted here; a command laying out text for people awaits it first. */
export async function loadTextWidths(): Promise<void> {
  measure ??= (await import('string-width')).default;
}

/** UTF-16 code units that are a character of one cell by themselves, whatever surrounds them: [first, last]. */
export const NARROW_RANGES: readonly (readonly [number, number])[] = [
  [0x20, 0x7e],
  // Latin-1 without the soft hyphen (drawn or not, as a terminal pleases), Latin Extended, IPA, modifier letters.
  [0xa0, 0xac],
  [0xae, 0x2ff],
  // Greek and Cyrillic, without Cyrillic's combining marks (U+0483-U+0489).
  [0x370, 0x482],
  [0x48a, 0x52f],
  // Dashes, quotes, bullets, the ellipsis; currency signs; arrows; box drawing and blocks; ○ ●; braille (spinners).
  [0x2010, 0x2027],
  [0x2030, 0x205e],
  [0x20a0, 0x20c0],
  [0x2190, 0x21ff],
  [0x2500, 0x259f],
  [0x25cb, 0x25cb],
  [0x25cf, 0x25cf],
  [0x2800, 0x28ff],
  // Halfwidth katakana, without the sound marks that join the letter before them.
  [0xff61, 0xff9d],
];

/** UTF-16 code units that are a character of two cells by themselves: CJK punctuation, kana, ideographs, Hangul. */
export const WIDE_RANGES: readonly (readonly [number, number])[] = [
  // Without the ideographic tone marks (U+302A-U+302F), which combine.
  [0x3000, 0x3029],
  [0x3030, 0x303e],
  // Without the combining sound marks (U+3099-U+309A).
  [0x3041, 0x3096],
  [0x309b, 0x30ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  // Precomposed syllables (the jamo that combine into them are left to string-width).
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xff01, 0xff60],
  [0xffe0, 0xffe6],
];

function within(ranges: readonly (readonly [number, number])[], code: number): boolean {
  for (const [first, last] of ranges) if (code >= first && code <= last) return true;
  return false;
}

/** Cells of a code unit that is a character by itself with a fixed width; 0 for any other (string-width's to say). */
function plainWidth(code: number): 0 | 1 | 2 {
  if (code >= 0x20 && code <= 0x7e) return 1;
  if (within(NARROW_RANGES, code)) return 1;
  return within(WIDE_RANGES, code) ? 2 : 0;
}

/** Whether every character of `text` is one of those counted here. */
function isPlain(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (plainWidth(text.charCodeAt(i)) === 0) return false;
  return true;
}

/** Width of text in terminal cells. */
export function textWidth(text: string): number {
  let width = 0;
  // By index, not `for...of`: no string is made per character (a field of a megabyte is measured without garbage).
  for (let i = 0; i < text.length; i++) {
    const cells = plainWidth(text.charCodeAt(i));
    if (cells === 0) return measuredWidth(text);
    width += cells;
  }
  return width;
}

/**
 * string-width's measure; a command that never loaded it (one that lays nothing out for people) gets a cell per
 * code point rather than a failure over a stray message.
 */
function measuredWidth(text: string): number {
  if (measure !== undefined) return measure(text);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.codePointAt(i)! > 0xffff) i++;
    n++;
  }
  return n;
}

/** A character as the terminal draws it (a grapheme cluster) and the cells it takes. */
export interface DrawnCharacter {
  text: string;
  width: number;
}

/** The characters of `text` in order, clusters kept whole, so that text is never cut inside one. */
export function* drawnCharacters(text: string): Generator<DrawnCharacter> {
  if (isPlain(text)) {
    for (let i = 0; i < text.length; i++) yield { text: text[i]!, width: plainWidth(text.charCodeAt(i)) };
    return;
  }
  segmenter ??= new Intl.Segmenter();
  for (const { segment } of segmenter.segment(text)) yield { text: segment, width: textWidth(segment) };
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * A word wider than `width` cut into `lines` where the next character would pass the width; what is left of it is
 * returned. Printable ASCII is sliced without a string per character (a field of a megabyte is one word).
 */
function splitWord(word: string, width: number, lines: string[]): { rest: string; restWidth: number } {
  if (PRINTABLE_ASCII.test(word)) {
    let start = 0;
    for (; word.length - start > width; start += width) lines.push(word.slice(start, start + width));
    return { rest: word.slice(start), restWidth: word.length - start };
  }
  let line = '';
  let used = 0;
  for (const ch of drawnCharacters(word)) {
    if (used + ch.width > width && line !== '') {
      lines.push(line);
      line = '';
      used = 0;
    }
    line += ch.text;
    used += ch.width;
  }
  return { rest: line, restWidth: used };
}

/**
 * Word-wrap plain text to `width` cells; words longer than a line are split. Each character is measured once, so
 * that a field of a megabyte wraps in linear time.
 */
export function wrapText(text: string, width: number): string[] {
  const w = Math.max(10, width);
  const lines: string[] = [];
  let line = '';
  let used = 0;
  const push = () => {
    if (line !== '') lines.push(line);
    line = '';
    used = 0;
  };
  for (const word of text.split(/ +/)) {
    if (word === '') continue;
    const size = textWidth(word);
    if (size > w) {
      // Split across lines of their own; what is left of it starts the next line.
      push();
      const { rest, restWidth } = splitWord(word, w, lines);
      line = rest;
      used = restWidth;
      continue;
    }
    if (line !== '' && used + 1 + size > w) push();
    line = line === '' ? word : `${line} ${word}`;
    used += (used === 0 ? 0 : 1) + size;
  }
  push();
  return lines;
}

/**
 * A status line wrapped between words at `width`, for a terminal: continuation lines two columns further in than
 * the line starts, so a wrapped message reads as one. Spaces inside a line are kept (the summary's aligned
 * counts); a word too long for a continuation line (a path) goes on a line of its own from the first column,
 * never broken: the terminal folds it if it must, it stays one line to copy (a triple click takes the path and
 * nothing else), and the words after it start a line of their own. A line that fits is returned as is; each line
 * of a message of several is wrapped alone.
 */
export function wrapNotice(line: string, width: number): string[] {
  if (line.includes('\n')) return line.split('\n').flatMap((l) => wrapNotice(l, width));
  if (textWidth(line) <= width) return [line];
  const indent = /^ */.exec(line)![0];
  const hang = `${indent}  `;
  const lines: string[] = [];
  let text = indent;
  let used = indent.length;
  const startLine = (next: string) => {
    if (text.trim() !== '') lines.push(text);
    text = next;
    used = next.length;
  };
  for (const [, gap = '', word = ''] of line.slice(indent.length).matchAll(/( *)(\S+)/g)) {
    const size = textWidth(word);
    if (hang.length + size > width) {
      // Too long for any line of the message: a line of its own, from the first column.
      startLine('');
      lines.push(word);
      startLine(hang);
      continue;
    }
    const fresh = text === indent || text === hang;
    if (!fresh && used + gap.length + size > width) startLine(hang);
    else if (!fresh) {
      text += gap;
      used += gap.length;
    }
    text += word;
    used += size;
  }
  startLine('');
  return lines;
}
