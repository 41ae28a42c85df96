// Reads JSON text without re-serialising it. The v1 webhook signature covers the text of `data` exactly as the
// service wrote it (field order, number formatting, escapes), which a JSON.parse/JSON.stringify round trip
// does not promise to keep (1.0 becomes 1, "\/" becomes "/", integer-like keys move to the front).

const WS = new Set([' ', '\t', '\n', '\r']);

/** Index just past the JSON string that starts at `i` (a `"`), or -1 when it never ends. */
function skipString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const ch = text[j];
    if (ch === '\\') j++;
    else if (ch === '"') return j + 1;
  }
  return -1;
}

function skipWs(text: string, i: number): number {
  while (i < text.length && WS.has(text[i]!)) i++;
  return i;
}

/** Index just past the JSON value that starts at `i`, or -1 when the text is malformed there. */
function skipValue(text: string, i: number): number {
  const first = text[i];
  if (first === undefined) return -1;
  if (first === '"') return skipString(text, i);
  if (first === '{' || first === '[') {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const ch = text[j];
      if (ch === '"') {
        j = skipString(text, j);
        if (j < 0) return -1;
        j--; // the loop's j++ lands just past the string
      } else if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return -1;
  }
  // number, true, false, null: runs until a delimiter
  let j = i;
  while (j < text.length && !WS.has(text[j]!) && text[j] !== ',' && text[j] !== '}' && text[j] !== ']') j++;
  return j > i ? j : -1;
}

/**
 * The raw text of a top-level member of a JSON object (`rawMember('{"a": [1, 2]}', 'a')` → `[1, 2]`), or
 * undefined when the text is not an object or lacks the member. With duplicate names the last one wins, as in
 * JSON.parse.
 */
export function rawMember(text: string, name: string): string | undefined {
  let i = skipWs(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  if (text[i] !== '{') return undefined;
  i = skipWs(text, i + 1);
  let found: string | undefined;
  if (text[i] === '}') return undefined;
  for (;;) {
    if (text[i] !== '"') return undefined;
    const keyEnd = skipString(text, i);
    if (keyEnd < 0) return undefined;
    let key: unknown;
    try {
      key = JSON.parse(text.slice(i, keyEnd));
    } catch {
      return undefined;
    }
    i = skipWs(text, keyEnd);
    if (text[i] !== ':') return undefined;
    i = skipWs(text, i + 1);
    const valueEnd = skipValue(text, i);
    if (valueEnd < 0) return undefined;
    if (key === name) found = text.slice(i, valueEnd);
    i = skipWs(text, valueEnd);
    if (text[i] === ',') {
      i = skipWs(text, i + 1);
      continue;
    }
    return text[i] === '}' ? found : undefined;
  }
}

/** JSON text with the whitespace between tokens removed; strings and numbers are kept byte for byte. */
export function compactJson(text: string): string {
  let out = '';
  let runStart = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      const end = skipString(text, i);
      if (end < 0) break;
      i = end - 1;
    } else if (WS.has(ch)) {
      out += text.slice(runStart, i);
      runStart = i + 1;
    }
  }
  return out + text.slice(runStart);
}

/** A body parsed as JSON, or undefined when it is not JSON. */
export function parseJsonBody(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
