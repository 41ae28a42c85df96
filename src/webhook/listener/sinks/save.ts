// The save sink (--save DIR): each notification as a pair of files, the body byte for byte and the request's
// line and headers as received (src/webhook/saved.ts), named by time, event and number. The forward queue keeps
// its notifications the same way.

import type { IO } from '../../../io/io.js';
import { ensureFolder } from '../../../core/private-files.js';
import { TrkError, UsageError } from '../../../core/errors.js';
import { headersText, saveNotification } from '../../saved.js';
import { clean, fileStamp } from '../lines.js';
import type { ReceivedEvent } from '../types.js';
import { settleWithin, type Sink } from './sink.js';

/** `<time>-<event>-<number>`, with only characters that are safe in file names everywhere. */
export function savedName(ev: ReceivedEvent): string {
  const event = (ev.summary.event ?? 'unknown').replace(/[^A-Za-z0-9_]/g, '') || 'unknown';
  const number = (ev.summary.number ?? 'unknown').replace(/[^A-Za-z0-9-]/g, '').slice(0, 60) || 'unknown';
  return `${fileStamp(ev.receivedAt)}-${event}-${number}`;
}

export function requestHead(ev: ReceivedEvent): string {
  const r = ev.request;
  return headersText(r.method, r.url, r.httpVersion, r.rawHeaders);
}

/**
 * The --save folder, created 0700 when missing (its missing parents too); one that is there is the user's and left
 * as it is (private-files.ts). A file in its way is refused in words rather than as EEXIST.
 */
export async function makeSaveDir(dir: string): Promise<void> {
  try {
    ensureFolder(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') {
      throw new UsageError(
        `cannot save into ${dir}: a file is in the way, and notifications are saved in a folder`,
        'give a folder (it is created when missing), or move the file',
      );
    }
    throw new TrkError(`cannot create the folder ${dir}: ${code ?? (e as Error).message}`, {
      hint: 'give a folder you can write to',
      cause: e,
    });
  }
}

/** Saved before the answer, so that a notification the service was told 200 for is on disk (unless the disk
 *  takes longer than `deadlineMs`: then the answer goes and the save goes on). */
export class SaveSink implements Sink {
  private readonly saves = new WeakMap<ReceivedEvent, Promise<void>>();

  constructor(
    private readonly io: IO,
    private readonly dir: string,
    private readonly deadlineMs: number,
  ) {}

  async write(ev: ReceivedEvent): Promise<void> {
    const save = this.save(ev);
    this.saves.set(ev, save);
    await settleWithin(save, this.deadlineMs);
  }

  /** The notification is handled once it is saved. */
  async afterAnswer(ev: ReceivedEvent): Promise<void> {
    await this.saves.get(ev);
  }

  /** Saved, or told on stderr why not: a notification that cannot be saved is still printed and forwarded. */
  private async save(ev: ReceivedEvent): Promise<void> {
    try {
      ev.savedTo = await saveNotification(this.dir, savedName(ev), ev.raw, requestHead(ev));
    } catch (e) {
      this.io.err(`could not save ${clean(ev.summary.number ?? 'the body')}: ${(e as Error).message}`);
    }
  }
}
