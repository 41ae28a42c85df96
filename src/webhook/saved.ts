// Notifications kept by `trk webhook listen --save DIR`, and read back by `trk webhook verify`: each is two files
// side by side, `<name>.json` with the body exactly as received and `<name>.headers` with the request line and
// its headers as received (curl -D style), where the `sign` header of v2 and v2.1 is. Pure apart from reading and
// writing those files.

import { readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from '../core/private-files.js';

export const BODY_SUFFIX = '.json';
export const HEADERS_SUFFIX = '.headers';

/** `POST /hook HTTP/1.1` and one `Name: value` line per header, in the order and spelling received. */
export function headersText(method: string, url: string, httpVersion: string, rawHeaders: readonly string[]): string {
  const lines = [`${method} ${url} HTTP/${httpVersion}`];
  // Line breaks cannot be in a header value as received; removed anyway so that one header stays one line.
  for (let i = 0; i + 1 < rawHeaders.length; i += 2)
    lines.push(`${rawHeaders[i]}: ${rawHeaders[i + 1]!.replace(/[\r\n]+/g, ' ')}`);
  return `${lines.join('\n')}\n`;
}

/** The headers of a saved headers file as a flat [name, value, ...] list, as received (no request line). */
export function rawHeadersFrom(text: string): string[] {
  const raw: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0 || /\s/.test(line.slice(0, colon))) continue; // the request line, blank lines
    raw.push(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return raw;
}

/** The value of header `name` (any letter case) in a saved headers file; several are joined with ", " as HTTP does. */
export function headerFrom(text: string, name: string): string | undefined {
  const wanted = name.toLowerCase();
  const raw = rawHeadersFrom(text);
  const values: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]!.toLowerCase() === wanted) values.push(raw[i + 1]!);
  return values.length === 0 ? undefined : values.join(', ');
}

/** The other file of a saved pair: `x.json` ↔ `x.headers`; undefined for a name that is neither. */
export function pairedFile(file: string): string | undefined {
  if (file.endsWith(BODY_SUFFIX)) return `${file.slice(0, -BODY_SUFFIX.length)}${HEADERS_SUFFIX}`;
  if (file.endsWith(HEADERS_SUFFIX)) return `${file.slice(0, -HEADERS_SUFFIX.length)}${BODY_SUFFIX}`;
  return undefined;
}

/** A file's text, or undefined when there is no such file. */
export async function readIfThere(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Saves a notification as `<base>.json` and `<base>.headers` in `dir`, never over a file that is there: the first
 * free `<base>`, `<base>-2`, ... Both 0600: they hold customers' data. Returns the body file's path.
 */
export async function saveNotification(dir: string, base: string, body: Buffer, headers: string): Promise<string> {
  for (let n = 1; ; n++) {
    const stem = join(dir, n === 1 ? base : `${base}-${n}`);
    try {
      await writeFile(`${stem}${BODY_SUFFIX}`, body, { flag: 'wx', mode: PRIVATE_FILE_MODE });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST' && n <= 1000) continue;
      throw e;
    }
    try {
      await writeFile(`${stem}${HEADERS_SUFFIX}`, headers, { flag: 'wx', mode: PRIVATE_FILE_MODE });
      return `${stem}${BODY_SUFFIX}`;
    } catch (e) {
      // A headers file without its body (left by hand): neither is overwritten; the pair goes to the next name.
      await unlink(`${stem}${BODY_SUFFIX}`).catch(() => {});
      if ((e as NodeJS.ErrnoException).code === 'EEXIST' && n <= 1000) continue;
      throw e;
    }
  }
}

export interface SavedNotification {
  body: Buffer;
  /** The headers as received; undefined when no headers file is beside the body. */
  rawHeaders: string[] | undefined;
}

/** A saved notification read back: the body file, and the headers file beside it if there is one. */
export async function readSaved(bodyFile: string): Promise<SavedNotification> {
  const body = await readFile(bodyFile);
  const headersFile = pairedFile(bodyFile);
  const text = headersFile === undefined ? undefined : await readIfThere(headersFile);
  return { body, rawHeaders: text === undefined ? undefined : rawHeadersFrom(text) };
}

/** Removes a saved pair (the body file and the headers file beside it); what is already gone is no error. */
export async function removeSaved(bodyFile: string): Promise<void> {
  const gone = (e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  };
  await unlink(bodyFile).catch(gone);
  const headersFile = pairedFile(bodyFile);
  if (headersFile !== undefined) await unlink(headersFile).catch(gone);
}
