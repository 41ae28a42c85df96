// The rows of a run, as its checking pass read them, kept beside its journal (`<key>.rows`): which chunk each
// row went into, its line, its number and carrier, and the digest of its request. A run's file can be rewritten
// before the run is finished (a shop's export, every night, in place); the journal then still says which chunks
// were done, and this says what was in them. A later run of the file reads both to tell what the interrupted run
// had confirmed (not sent again) and what it never sent that the new file no longer holds (named, not lost).
// Written once, when the run's journal is made; removed with it.

import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Chunk } from './chunker.js';
import { rowDigest } from './digest.js';
import { nodeFs } from '../core/node.js';
import { PRIVATE_FILE_MODE } from '../core/private-files.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { createReadStream, createWriteStream, renameSync, rmSync } = nodeFs();

export interface LoggedRow {
  chunk: number;
  line: number;
  number: string;
  carrier?: number;
  digest: bigint;
}

/** The rows log of the journal `journalFile`. */
export function rowsLogFile(journalFile: string): string {
  return path.join(path.dirname(journalFile), `${path.basename(journalFile, '.jsonl')}.rows`);
}

/** Write the rows of `chunks` (the input read once more, checked chunk by chunk) to `file`, whole or not at all. */
export async function writeRowsLog(file: string, chunks: AsyncIterable<Chunk>): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  const out = createWriteStream(tmp, { mode: PRIVATE_FILE_MODE });
  const done = new Promise<void>((resolve, reject) => {
    out.once('finish', resolve);
    out.once('error', reject);
  });
  try {
    for await (const chunk of chunks) {
      let text = '';
      for (const row of chunk.rows) {
        const carrier = row.item.carrier === undefined ? '' : String(row.item.carrier);
        text += `${chunk.index}\t${row.line}\t${row.item.number}\t${carrier}\t${rowDigest(row.item).toString(16)}\n`;
      }
      if (!out.write(text)) await new Promise<void>((r) => out.once('drain', () => r()));
    }
    out.end();
    await done;
    renameSync(tmp, file);
  } catch (err) {
    out.destroy();
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** The rows of a log, in order; a line that cannot be read (a torn last line) ends it. */
export async function* readRowsLog(file: string): AsyncGenerator<LoggedRow> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      const [chunk, at, number, carrier, digest] = line.split('\t');
      if (!chunk || !at || !number || digest === undefined || !/^[0-9a-f]{1,16}$/.test(digest)) return;
      const row: LoggedRow = { chunk: Number(chunk), line: Number(at), number, digest: BigInt(`0x${digest}`) };
      if (carrier) row.carrier = Number(carrier);
      yield row;
    }
  } finally {
    lines.close();
  }
}
