// What earlier runs of a file already got done, request by request: a later run of the file (tonight's export,
// grown by a hundred rows or ending in a blank line) sends only the rows whose request is not among them, and
// says so. One record per file, account and operation, under `<state dir>/sent/`: a line of JSON (when it was
// written, how many digests follow), then the sorted digests of the requests the service confirmed (accepted, or
// already in the state asked for), 8 bytes each (src/items/digest.ts). It holds the confirmed rows of the file as
// its last run read it, so it is never larger than the file's rows; it is replaced whole at the end of each run.
// A record that cannot be read is damaged: what it stood for is unknown, and the run looks it up instead
// (src/items/run.ts). Pipes bring other content every day and keep no such record.
//
// Later, the local mirror of the account may answer "already done" for rows no run of the file confirmed: the
// run asks `SentRows.has` alone, so a mirror can stand beside it without the run changing.

import path from 'node:path';
import { ownFolder, PRIVATE_FILE_MODE, type Warn } from '../core/private-files.js';
import { sortedHas } from './digest.js';
import { pruneFiles, uniqueStamp } from './leftovers.js';
import type { RunIdentity } from './journal.js';
import { nodeCrypto, nodeFs } from '../core/node.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { readFileSync, renameSync, rmSync, statSync, writeFileSync } = nodeFs();

const FORMAT = 1;
/** Kept as long as the records of finished runs (src/items/runs.ts). */
export const KEEP_SENT_MS = 180 * 24 * 3600 * 1000;

/** Requests an earlier run of the file had confirmed. */
export interface SentRows {
  /** Names this version of the record: a run resumed with another one would not chunk its file the same way. */
  readonly id: string;
  /** ISO time of the run that wrote it. */
  readonly updated: string;
  readonly count: number;
  has(digest: bigint): boolean;
}

export type SentRecord = { state: 'none' } | { state: 'sound'; rows: SentRows } | { state: 'damaged'; file: string };

/** The record of `id`'s file, account and operation in `dir` (the version does not change what was done). */
export function sentFile(dir: string, id: RunIdentity): string {
  const names = JSON.stringify([id.op, id.account.profile, id.account.baseUrl, id.input.name]);
  const key = nodeCrypto().hash('sha256', names).slice(0, 32);
  return path.join(dir, `${key}.bin`);
}

export function readSent(file: string): SentRecord {
  let bytes: Buffer;
  try {
    if (Date.now() - statSync(file).mtimeMs > KEEP_SENT_MS) {
      rmSync(file, { force: true });
      return { state: 'none' };
    }
    bytes = readFileSync(file);
  } catch {
    return { state: 'none' };
  }
  const rows = parseSent(bytes);
  return rows ? { state: 'sound', rows } : { state: 'damaged', file };
}

function parseSent(bytes: Buffer): SentRows | undefined {
  const newline = bytes.indexOf(10);
  if (newline < 0) return undefined;
  let head: { format?: unknown; count?: unknown; updated?: unknown; id?: unknown };
  try {
    head = JSON.parse(bytes.subarray(0, newline).toString('utf8')) as typeof head;
  } catch {
    return undefined;
  }
  const { format, count, updated, id } = head;
  const body = bytes.subarray(newline + 1);
  if (format !== FORMAT || typeof updated !== 'string' || typeof id !== 'string') return undefined;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || body.length !== count * 8) return undefined;
  const digests = new BigUint64Array(count);
  for (let i = 0; i < count; i++) {
    digests[i] = body.readBigUInt64BE(i * 8);
    // Sorted, each once: anything else was not written by trk.
    if (i > 0 && (digests[i] as bigint) <= (digests[i - 1] as bigint)) return undefined;
  }
  return { id, updated, count, has: (digest) => sortedHas(digests, digest) };
}

/** Replace the record with `digests` (sorted, each once); returns its id. Records of files not run for long go. */
export function writeSent(file: string, digests: BigUint64Array, updated: string, warn: Warn): string {
  ownFolder(path.dirname(file), 'sent folder', warn);
  const cutoff = Date.now() - KEEP_SENT_MS;
  pruneFiles(path.dirname(file), (name, st) => name.endsWith('.bin') && st.mtimeMs < cutoff);
  const id = uniqueStamp();
  const head = Buffer.from(`${JSON.stringify({ format: FORMAT, count: digests.length, updated, id })}\n`, 'utf8');
  const body = Buffer.alloc(digests.length * 8);
  for (let i = 0; i < digests.length; i++) body.writeBigUInt64BE(digests[i] as bigint, i * 8);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.concat([head, body]), { mode: PRIVATE_FILE_MODE });
  renameSync(tmp, file);
  return id;
}

export function forgetSent(file: string): void {
  rmSync(file, { force: true });
}
