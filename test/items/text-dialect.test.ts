// How an input's text is written (read-text.ts) and written again alike (write-text.ts): the dialect read from its
// first bytes, and text encoded back into the bytes it was read from.

import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { detectEncoding, textDialect, utf8Lines } from '../../src/items/read-text.js';
import { encodeText, encodingStream } from '../../src/items/write-text.js';

const dialectOf = (bytes: Buffer) => textDialect(bytes, detectEncoding(bytes), ';');

/** Bytes as the reader decodes them, as text. */
async function read(bytes: Buffer): Promise<string> {
  const lines = utf8Lines(Readable.from([bytes]), detectEncoding(bytes), (line) => `line ${line}`);
  const out: Buffer[] = [];
  for await (const chunk of lines) out.push(chunk as Buffer);
  return Buffer.concat(out).toString('utf8');
}

async function written(text: string[], encoding: Parameters<typeof encodingStream>[0], bom: boolean): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const chunk of Readable.from(text, { objectMode: false }).pipe(encodingStream(encoding, bom))) {
    out.push(chunk as Buffer);
  }
  return Buffer.concat(out);
}

describe('textDialect', () => {
  it('names the byte-order mark of each encoding that has one, and no other', () => {
    expect(dialectOf(Buffer.from('\uFEFFa;b\r\n', 'utf8'))).toMatchObject({ encoding: 'utf-8', bom: true });
    expect(dialectOf(Buffer.from('a;b\r\n', 'utf8'))).toMatchObject({ encoding: 'utf-8', bom: false });
    expect(dialectOf(Buffer.from('\uFEFFa;b\r\n', 'utf16le'))).toMatchObject({ encoding: 'utf-16le', bom: true });
    expect(dialectOf(Buffer.from('\uFEFFa;b\r\n', 'utf16le').swap16())).toMatchObject({
      encoding: 'utf-16be',
      bom: true,
    });
    expect(dialectOf(Buffer.from('number;carrier\r\n', 'utf16le'))).toMatchObject({
      encoding: 'utf-16le',
      bom: false,
    });
    expect(dialectOf(Buffer.from([0x6e, 0xb0, 0x3b, 0x80, 0x0d, 0x0a]))).toMatchObject({
      encoding: 'windows-1252',
      bom: false,
    });
  });

  it('takes the line ending most lines end with: the rows, under a header written otherwise', () => {
    const ending = (text: string) => dialectOf(Buffer.from(text)).lineEnding;
    expect(ending('a;b\r\n1;2\r\n')).toBe('\r\n');
    expect(ending('a;b\r\n1;2\n3;4\n')).toBe('\n');
    expect(ending('a;b\r1;2\r')).toBe('\r');
    // A tie goes to CRLF, and a single line without an ending to LF, as trk writes its own files.
    expect(ending('a;b\r\n1;2\n')).toBe('\r\n');
    expect(ending('number')).toBe('\n');
  });
});

describe('encodeText', () => {
  it('gives Windows-1252 text back the very bytes it was read from, all 256 of them', async () => {
    const bytes = Buffer.from(Uint8Array.from({ length: 256 }, (_, byte) => byte)).subarray(1);
    // A first line of letters, for the reader to take the bytes for Windows-1252 rather than UTF-16.
    const input = Buffer.concat([Buffer.from('number;\xe9\n', 'latin1'), bytes]);
    const text = await read(input);
    expect(text).toContain('€');
    expect(encodeText(text, 'windows-1252').equals(input)).toBe(true);
  });

  it('writes a character Windows-1252 cannot hold as "?", one for each character', () => {
    expect(encodeText('Yılmaz → 😀 €', 'windows-1252')).toEqual(Buffer.from('Y?lmaz ? ? \x80', 'latin1'));
  });

  it('writes UTF-16 in either byte order, after its byte-order mark when the input had one', async () => {
    expect(await written(['a;', '€\r\n'], 'utf-16be', true)).toEqual(
      Buffer.from([0xfe, 0xff, 0, 0x61, 0, 0x3b, 0x20, 0xac, 0, 13, 0, 10]),
    );
    expect(await written(['a'], 'utf-16le', false)).toEqual(Buffer.from([0x61, 0]));
    expect(await written(['ä'], 'utf-8', true)).toEqual(Buffer.from([0xef, 0xbb, 0xbf, 0xc3, 0xa4]));
    // An empty file keeps its mark.
    expect(await written([], 'utf-16le', true)).toEqual(Buffer.from([0xff, 0xfe]));
  });
});
