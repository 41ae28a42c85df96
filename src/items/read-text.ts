// An input's bytes as text, before any format is read: which encoding it is in (UTF-8, UTF-16 as Excel's
// "Unicode text" writes it, or Windows-1252 as older Excel writes CSV), which delimiter its header line uses,
// and a bound on the length of a line, so that one endless line cannot take the memory of the process.

import { Transform, type Readable } from 'node:stream';
import { UsageError } from '../core/errors.js';

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** A line longer than this is not a row of a shop export (a CSV row is further bounded by read.ts). */
export const MAX_LINE_BYTES = 1024 * 1024;

/** The byte-order mark of each encoding that has one. */
const BOMS: Readonly<Partial<Record<TextEncoding, readonly number[]>>> = {
  'utf-16le': [0xff, 0xfe],
  'utf-16be': [0xfe, 0xff],
  'utf-8': [0xef, 0xbb, 0xbf],
};

/** Whether `head` starts with the byte-order mark of `encoding`. */
function hasBom(head: Uint8Array, encoding: TextEncoding): boolean {
  return BOMS[encoding]?.every((byte, i) => head[i] === byte) ?? false;
}

/** The encoding of an input, from its first bytes (a byte-order mark, else the shape of its bytes). */
export function detectEncoding(head: Uint8Array): TextEncoding {
  for (const encoding of ['utf-16le', 'utf-16be', 'utf-8'] as const) if (hasBom(head, encoding)) return encoding;
  // UTF-16 without a mark: ASCII text has a zero in every other byte.
  let evenZeros = 0;
  let oddZeros = 0;
  const n = Math.min(head.length, 512) & ~1;
  for (let i = 0; i < n; i += 2) {
    if (head[i] === 0) evenZeros += 1;
    if (head[i + 1] === 0) oddZeros += 1;
  }
  if (n >= 8 && oddZeros > n / 4 && evenZeros === 0) return 'utf-16le';
  if (n >= 8 && evenZeros > n / 4 && oddZeros === 0) return 'utf-16be';
  return isUtf8(head) ? 'utf-8' : 'windows-1252';
}

/** Valid UTF-8, allowing a character cut at the end of the sample. */
function isUtf8(head: Uint8Array): boolean {
  for (let cut = 0; cut < 4 && cut <= head.length; cut++) {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, head.length - cut));
      return true;
    } catch {
      // try again without the last bytes, which may be half a character
    }
  }
  return false;
}

/** The first bytes as text, without a byte-order mark. */
export function decodeHead(head: Uint8Array, encoding: TextEncoding): string {
  return new TextDecoder(encoding).decode(head).replace(/^\uFEFF/, '');
}

/** A NUL byte in text that is not UTF-16 means the input is not text at all (an image, a spreadsheet file). */
export function hasNul(head: Uint8Array, encoding: TextEncoding): boolean {
  return encoding !== 'utf-16le' && encoding !== 'utf-16be' && head.includes(0);
}

/**
 * Counts line lengths over a stream of bytes and throws a UsageError at the first line longer than `max`
 * (naming its line number). Shared by the reading of files and the spooling of stdin.
 */
export class LineGuard {
  #line = 1;
  #length = 0;

  constructor(
    private readonly where: (line: number) => string,
    private readonly max = MAX_LINE_BYTES,
  ) {}

  feed(bytes: Uint8Array): void {
    let from = 0;
    for (let nl = bytes.indexOf(10, from); nl !== -1; nl = bytes.indexOf(10, from)) {
      this.#check(nl - from);
      this.#line += 1;
      this.#length = 0;
      from = nl + 1;
    }
    this.#check(bytes.length - from);
  }

  #check(more: number): void {
    this.#length += more;
    if (this.#length > this.max) {
      throw new UsageError(
        `${this.where(this.#line)} is longer than ${Math.round(this.max / 1024)} KiB: this is not a file of ` +
          `tracking numbers`,
        'check that the right file was given; nothing was sent',
      );
    }
  }
}

/**
 * The stream as UTF-8 without a byte-order mark, each line bounded by a LineGuard. UTF-8 passes through as
 * it is; other encodings are decoded.
 */
export function utf8Lines(stream: Readable, encoding: TextEncoding, where: (line: number) => string): Readable {
  const decoder = encoding === 'utf-8' ? undefined : new TextDecoder(encoding);
  const guard = new LineGuard(where);
  let first = true;
  const out = new Transform({
    transform(chunk: Buffer, _enc, done) {
      try {
        let bytes: Buffer = decoder ? Buffer.from(decoder.decode(chunk, { stream: true })) : chunk;
        if (first && bytes.length > 0) {
          first = false;
          if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
        }
        guard.feed(bytes);
        done(null, bytes);
      } catch (err) {
        done(err as Error);
      }
    },
    flush(done) {
      const rest = decoder?.decode();
      done(null, rest ? Buffer.from(rest) : undefined);
    },
  });
  stream.on('error', (err) => out.destroy(err));
  out.on('close', () => stream.destroy());
  // The bytes flow in as soon as they are piped, maybe before a reader listens: the error stays on the stream
  // (`errored`), where the reader's iteration finds it, rather than being thrown at nobody.
  out.on('error', () => {});
  return stream.pipe(out);
}

export type Delimiter = ',' | ';' | '\t' | '|';

export const DELIMITER_NAMES: Readonly<Record<Delimiter, string>> = {
  ',': 'commas',
  ';': 'semicolons',
  '\t': 'tabs',
  '|': 'bars',
};

/** `--delimiter` values: the character itself, or its name. */
export function parseDelimiter(value: string): Delimiter {
  const words: Record<string, Delimiter> = {
    ',': ',',
    comma: ',',
    ';': ';',
    semicolon: ';',
    '\t': '\t',
    '\\t': '\t',
    tab: '\t',
    '|': '|',
    pipe: '|',
    bar: '|',
  };
  const d = words[value.trim() === '' ? value : value.trim().toLowerCase()];
  if (d === undefined) throw new Error(`--delimiter ${JSON.stringify(value)}: give one of , ; tab |`);
  return d;
}

/**
 * The delimiter of a header line: the one of `,` `;` tab `|` that occurs most often outside quotes (ties go
 * to the one listed first: tab, semicolon, comma, bar). A line with none is one column: comma.
 */
export function detectDelimiter(line: string): Delimiter {
  const counts: Record<Delimiter, number> = { '\t': 0, ';': 0, ',': 0, '|': 0 };
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch in counts) counts[ch as Delimiter] += 1;
  }
  let best: Delimiter = ',';
  let most = 0;
  for (const d of ['\t', ';', ',', '|'] as const) {
    if (counts[d] > most) {
      best = d;
      most = counts[d];
    }
  }
  return best;
}

export type LineEnding = '\r\n' | '\n' | '\r';

/**
 * How a delimited input is written: its encoding, whether it starts with a byte-order mark, its delimiter and
 * line endings. The files trk writes from it (its rejects file) are written the same way, so that they open
 * as it did: a German Excel's `;` file in Excel's columns, its "€" whole.
 */
export interface TextDialect {
  encoding: TextEncoding;
  bom: boolean;
  delimiter: Delimiter;
  lineEnding: LineEnding;
}

export function textDialect(head: Uint8Array, encoding: TextEncoding, delimiter: Delimiter): TextDialect {
  return { encoding, bom: hasBom(head, encoding), delimiter, lineEnding: lineEndingOf(decodeHead(head, encoding)) };
}

/**
 * The line ending most lines of the text end with (a header written with CRLF above rows with LF takes the rows'
 * LF); CRLF before LF before CR on a tie, and LF for text of one line, as trk writes its own files.
 */
function lineEndingOf(text: string): LineEnding {
  const counts: Record<LineEnding, number> = { '\r\n': 0, '\n': 0, '\r': 0 };
  for (const [ending] of text.matchAll(/\r\n|\n|\r/g)) counts[ending as LineEnding] += 1;
  let most: LineEnding | undefined;
  for (const ending of ['\r\n', '\n', '\r'] as const) {
    if (counts[ending] > (most === undefined ? 0 : counts[most])) most = ending;
  }
  return most ?? '\n';
}
