// `trk webhook replay`: notifications kept by `webhook listen` (its --save folder, or the forward queue's folder
// of forwards that failed) sent to the app again, as the listener forwards them: the body byte for byte and the
// headers as received (the `sign` header among them), in the order they came. From the forward queue, what the
// app takes is removed; a --save folder is the user's record and is never changed.

import { readdir, rmdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { UsageError } from '../core/errors.js';
import type { IO } from '../io/io.js';
import { forwarded, Forwarder, type ForwardResult } from './forward.js';
import { eventLabel, forwardLine } from './listener/lines.js';
import { parseJsonBody } from './raw-json.js';
import { BODY_SUFFIX, HEADERS_SUFFIX, pairedFile, readSaved, removeSaved, type SavedNotification } from './saved.js';
import { summarizeEvent } from './summary.js';

export interface Replayed {
  file: string;
  event: string | null;
  number: string | null;
  /** The app's answer; undefined when it gave none. */
  status: number | undefined;
  error: string | undefined;
  forwarded: boolean;
}

export interface ReplayOptions {
  io: IO;
  target: string;
  timeoutMs: number;
  /** The forward queue's folder: what the app takes is removed from it. */
  fromQueue: (file: string) => boolean;
  signal: AbortSignal;
  now: () => number;
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file or folder' : (e as Error).message;
    throw new UsageError(
      `cannot read ${path}: ${why}`,
      'give a folder written by "trk webhook listen" (--save, or the forward queue)',
    );
  }
}

/** The body files of the notifications named: each folder's pairs in the order of their names (their times). */
export async function savedBodies(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const p of paths) {
    if (await isFolder(p)) {
      const names = (await readdir(p)).filter((n) => n.endsWith(BODY_SUFFIX)).sort();
      files.push(...names.map((n) => join(p, n)));
    } else if (p.endsWith(BODY_SUFFIX) || p.endsWith(HEADERS_SUFFIX)) {
      files.push(p.endsWith(BODY_SUFFIX) ? p : pairedFile(p)!);
    } else {
      throw new UsageError(
        `${p} is not a saved notification`,
        `give its ${BODY_SUFFIX} or ${HEADERS_SUFFIX} file, or the folder`,
      );
    }
  }
  // An empty folder among others (a queue's, left by a run that was killed) is no error; nothing at all is.
  if (files.length === 0) {
    throw new UsageError(
      `no saved notifications in ${paths.join(', ')}`,
      `give a folder of ${BODY_SUFFIX} and ${HEADERS_SUFFIX} pairs`,
    );
  }
  return files;
}

/** Sends each one in turn; stops early when the app cannot be reached (the rest would fail too) or on Ctrl-C. */
export async function replay(files: readonly string[], opts: ReplayOptions): Promise<Replayed[]> {
  const forwarder = new Forwarder(opts.target, opts.timeoutMs);
  const stop = () => forwarder.stop();
  opts.signal.addEventListener('abort', stop, { once: true });
  const done: Replayed[] = [];
  try {
    for (const file of files) {
      if (opts.signal.aborted) break;
      const one = await replayOne(file, forwarder, opts);
      done.push(one);
      if (one.status === undefined && one.error !== undefined) break;
    }
  } finally {
    opts.signal.removeEventListener('abort', stop);
    await forwarder.close();
  }
  await removeEmptyFolders(done, opts);
  return done;
}

async function replayOne(file: string, forwarder: Forwarder, opts: ReplayOptions): Promise<Replayed> {
  const { io } = opts;
  let saved: SavedNotification;
  try {
    saved = await readSaved(file);
  } catch (e) {
    io.err(`  → ${file} cannot be read: ${(e as Error).message}`);
    return { file, event: null, number: null, status: undefined, error: (e as Error).message, forwarded: false };
  }
  if (saved.rawHeaders === undefined)
    io.err(`  → no headers file beside ${file}: sent without its headers (a v2 app will not verify it)`);
  const summary = summarizeEvent(parseJsonBody(saved.body));
  const started = opts.now();
  const result: ForwardResult = await forwarder.send(
    saved.body,
    saved.rawHeaders ?? ['Content-Type', 'application/json'],
  );
  const ok = forwarded(result);
  io.err(
    forwardLine(io.colorErr, { label: eventLabel({ summary }), target: opts.target, result, ms: opts.now() - started }),
  );
  if (ok && opts.fromQueue(file)) await removeSaved(file);
  return {
    file,
    event: summary.event,
    number: summary.number,
    status: result.status,
    error: result.error,
    forwarded: ok,
  };
}

/** A queue's folder emptied by the replay goes, as the listener's own goes when it stops with nothing left. */
async function removeEmptyFolders(done: readonly Replayed[], opts: ReplayOptions): Promise<void> {
  const folders = new Set(done.filter((r) => r.forwarded && opts.fromQueue(r.file)).map((r) => dirname(r.file)));
  for (const folder of folders) await rmdir(folder).catch(() => {});
}

/** The folders in the forward queue's root that still hold notifications, oldest first, with how many each. */
export async function keptFolders(root: string): Promise<{ dir: string; count: number }[]> {
  const names = await readdir(root).catch(() => [] as string[]);
  const found: { dir: string; count: number }[] = [];
  for (const name of names.sort()) {
    const dir = join(root, name);
    const count = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith(BODY_SUFFIX)).length;
    if (count > 0) found.push({ dir, count });
  }
  return found;
}
