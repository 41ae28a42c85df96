// Text as bytes of an input's encoding (read-text.ts reads them), for the files trk writes from an input: its
// rejects file keeps the encoding and byte-order mark of the file it came from.
//
// Decision: a character Windows-1252 cannot hold becomes `?`, as Windows itself writes it when it saves text in
// that code page. Only trk's own columns can hold one (the reason of a row, a service's message): the cells of
// the input were decoded from Windows-1252 and go back to the same bytes.

import { StringDecoder } from 'node:string_decoder';
import { Transform } from 'node:stream';
import type { TextEncoding } from './read-text.js';

/** Windows-1252 for a character it cannot hold. */
export const CP1252_REPLACEMENT = '?';

/** Each character's byte in Windows-1252: the inverse of the decoder that reads it, so that bytes go back alike. */
let cp1252Bytes: Map<string, number> | undefined;

function cp1252Table(): Map<string, number> {
  if (cp1252Bytes === undefined) {
    // Decoded as read-text.ts decodes a stream: Node 20.18.3 and 22.13 on take a whole buffer (no `stream`) for
    // Latin-1, "€" as U+0080 (nodejs/node#60888), while a stream's bytes are decoded as Windows-1252.
    const all = Uint8Array.from({ length: 256 }, (_, byte) => byte);
    const chars = [...new TextDecoder('windows-1252').decode(all, { stream: true })];
    cp1252Bytes = new Map(chars.map((ch, byte) => [ch, byte]));
  }
  return cp1252Bytes;
}

function encodeCp1252(text: string): Buffer {
  const table = cp1252Table();
  const replacement = table.get(CP1252_REPLACEMENT) as number;
  const out = Buffer.alloc(text.length);
  let length = 0;
  // By code point: a character beyond the BMP is one `?`, not two.
  for (const ch of text) out[length++] = table.get(ch) ?? replacement;
  return out.subarray(0, length);
}

/** `text` as bytes of `encoding`. */
export function encodeText(text: string, encoding: TextEncoding): Buffer {
  switch (encoding) {
    case 'utf-8':
      return Buffer.from(text, 'utf8');
    case 'utf-16le':
      return Buffer.from(text, 'utf16le');
    case 'utf-16be':
      return Buffer.from(text, 'utf16le').swap16();
    case 'windows-1252':
      return encodeCp1252(text);
  }
}

/**
 * A stream taking text (strings, or UTF-8 bytes as csv-stringify gives them) and giving its bytes in `encoding`,
 * after a byte-order mark when `bom`.
 */
export function encodingStream(encoding: TextEncoding, bom: boolean): Transform {
  // Whole characters only: a chunk of bytes may end inside one.
  const utf8 = new StringDecoder('utf8');
  const out = new Transform({
    decodeStrings: false,
    transform(chunk: string | Buffer, _enc, done) {
      done(null, encodeText(typeof chunk === 'string' ? chunk : utf8.write(chunk), encoding));
    },
    flush(done) {
      done(null, encodeText(utf8.end(), encoding));
    },
  });
  if (bom) out.push(encodeText('\uFEFF', encoding));
  return out;
}
