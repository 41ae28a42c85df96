// JSON input: an array (`trk list --json`, `trk info --json`, or any array of objects or strings) read element
// by element without holding the document, or NDJSON, one value per line. The first object's keys name the
// columns, as a header row does (keys only later objects carry are not read; trk's own output gives every
// object the same keys). Values become the text a CSV cell would hold: null and nested objects are empty.

import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { UsageError } from '../core/errors.js';
import { normaliseName } from './fields.js';
import { headerLayout } from './header-layout.js';
import type { InputLayout, InputRow, OpenedInput, ReadOptions } from './read.js';
import type { ItemSource } from './source.js';

/** An element bigger than this is not a record of trk's (a details answer is a few KiB). */
const MAX_ELEMENT_CHARS = 4 * 1024 * 1024;

interface JsonValue {
  line: number;
  value: unknown;
}

export async function openJsonRows(
  stream: Readable,
  kind: 'array' | 'lines',
  source: ItemSource,
  opts: ReadOptions,
): Promise<OpenedInput> {
  const values = (kind === 'array' ? arrayElements(stream, source) : jsonLines(stream, source))[Symbol.asyncIterator]();
  const close = () => {
    stream.destroy();
    void values.return?.(undefined);
  };
  let first: IteratorResult<JsonValue>;
  let layout: InputLayout;
  let keyIndex: Map<string, number>;
  try {
    first = await values.next();
    const value = first.done ? undefined : first.value.value;
    if (value === undefined || typeof value === 'string' || typeof value === 'number') {
      layout = {
        format: 'json',
        header: ['number'],
        columns: ['number'],
        hasHeader: false,
        width: undefined,
        ignored: [],
        otherVersion: new Map(),
        laterVersion: [],
      };
    } else if (isObject(value)) {
      layout = headerLayout(Object.keys(flatten(value)), 'json', source.display, opts);
    } else {
      throw new UsageError(
        `${source.display} line ${first.done ? 1 : first.value.line}: expected an object or a number`,
        'give an array of objects with a "number" key, or of numbers',
      );
    }
    keyIndex = new Map(layout.header.map((k, i) => [normaliseName(k), i]));
  } catch (err) {
    close();
    throw err;
  }
  const toRow = ({ line, value }: JsonValue): InputRow => {
    if (!isObject(value)) return { line, cells: [text(value)] };
    const cells = layout.header.map(() => '');
    for (const [k, v] of Object.entries(flatten(value))) {
      const i = keyIndex.get(normaliseName(k));
      if (i !== undefined) cells[i] = text(v);
    }
    return { line, cells };
  };
  async function* rows(): AsyncGenerator<InputRow> {
    try {
      if (!first.done) yield toRow(first.value);
      for (let r = await values.next(); !r.done; r = await values.next()) yield toRow(r.value);
    } finally {
      close();
    }
  }
  return { layout, rows: rows(), close };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The keys of a record, with v1's details answer (`{number, track: {w1, w2, ...}}`) lifted: its carriers live
 * one level down.
 */
function flatten(obj: Record<string, unknown>): Record<string, unknown> {
  const track = obj.track;
  if (!isObject(track) || 'carrier' in obj || 'w1' in obj) return obj;
  const out: Record<string, unknown> = { ...obj };
  if (track.w1 !== undefined) out.w1 = track.w1;
  if (track.w2 !== undefined) out.w2 = track.w2;
  return out;
}

function text(v: unknown): string {
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return '';
}

function invalid(source: ItemSource, line: number, why: string): UsageError {
  return new UsageError(
    `${source.display} is not valid JSON at line ${line}: ${why}`,
    'fix the input; nothing was sent',
  );
}

async function* jsonLines(stream: Readable, source: ItemSource): AsyncGenerator<JsonValue> {
  let line = 0;
  for await (const raw of textLines(stream)) {
    line += 1;
    const t = raw.replace(/^\uFEFF/, '').trim();
    if (t === '') continue;
    try {
      yield { line, value: JSON.parse(t) };
    } catch (err) {
      throw invalid(source, line, (err as Error).message);
    }
  }
}

/** The lines of a stream (its errors thrown, which readline's iterator does not do on every Node). */
async function* textLines(stream: Readable): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of stream) {
    const lines = (rest + decoder.write(chunk as Buffer)).split(/\r?\n/);
    rest = lines.pop() ?? '';
    yield* lines;
  }
  rest += decoder.end();
  if (rest !== '') yield rest;
}

/** The elements of a top-level JSON array, one at a time, with the line each starts on. */
async function* arrayElements(stream: Readable, source: ItemSource): AsyncGenerator<JsonValue> {
  const decoder = new StringDecoder('utf8');
  let line = 1;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let ended = false;
  /** Waiting for the first character of the next element. */
  let starting = false;
  let element = '';
  let elementLine = 1;
  const take = (): JsonValue | undefined => {
    const t = element.trim();
    element = '';
    if (t === '') return undefined;
    try {
      return { line: elementLine, value: JSON.parse(t) };
    } catch (err) {
      throw invalid(source, elementLine, (err as Error).message);
    }
  };
  for await (const chunk of stream) {
    const s = decoder.write(chunk as Buffer);
    let from = 0;
    const out: JsonValue[] = [];
    for (let i = 0; i < s.length; i++) {
      const ch = s[i] as string;
      if (ch === '\n') line += 1;
      if (ended) {
        if (!/\s/.test(ch)) throw invalid(source, line, 'text after the end of the array');
        continue;
      }
      if (depth === 0) {
        if (ch === '[') {
          depth = 1;
          from = i + 1;
          starting = true;
        } else if (!/[\s\uFEFF]/.test(ch)) {
          throw invalid(source, line, 'expected an array');
        }
        continue;
      }
      if (starting && !/\s/.test(ch)) {
        starting = false;
        elementLine = line;
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (ch === '\\') escaped = true;
        else if (ch === '"') inString = false;
        continue;
      }
      if (ch === '"') inString = true;
      else if (ch === '[' || ch === '{') depth += 1;
      else if (ch === ']' || ch === '}') depth -= 1;
      if ((depth === 1 && ch === ',') || depth === 0) {
        element += s.slice(from, i);
        const v = take();
        if (v) out.push(v);
        from = i + 1;
        starting = true;
        if (depth === 0) ended = true;
      }
    }
    if (!ended) element += s.slice(from);
    if (element.length > MAX_ELEMENT_CHARS) throw invalid(source, elementLine, 'an element larger than 4 MiB');
    yield* out;
  }
  if (!ended) throw invalid(source, line, depth === 0 ? 'no array' : 'the array is never closed');
}
