// The forward queue on disk: each notification not yet taken by the app is kept as a saved pair (saved.ts), in a
// folder of the listener's own, so that `trk webhook replay` reads it as it reads a --save folder. Its bounds are
// counted here: a notification that would pass them is not kept (the caller says so).

import { mkdtemp, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { removeSaved, saveNotification } from '../saved.js';
import { fileStamp } from './lines.js';
import { clock } from '../../core/clock.js';
import { ownFolder, type Warn } from '../../core/private-files.js';

export interface SpoolEntry {
  /** The body file; the headers file is beside it. */
  file: string;
  bytes: number;
}

export interface SpoolLimits {
  maxCount: number;
  maxBytes: number;
}

export class Spool {
  private folder: Promise<string> | undefined;
  private made: string | undefined;
  private count = 0;
  private bytes = 0;

  constructor(
    private readonly root: string,
    readonly limits: SpoolLimits,
    /** Says when the queue's folder, found open to others, was made private. */
    private readonly warn: Warn,
  ) {}

  /** The folder, once the first notification made it. */
  get dir(): string | undefined {
    return this.made;
  }

  /** Notifications kept now. */
  get size(): number {
    return this.count;
  }

  /** Keeps a notification under `name`; 'full' when that would pass a bound. Throws when the disk refuses. */
  async put(name: string, body: Buffer, head: string): Promise<SpoolEntry | 'full'> {
    const bytes = body.length + Buffer.byteLength(head);
    if (this.count + 1 > this.limits.maxCount || this.bytes + bytes > this.limits.maxBytes) return 'full';
    // Counted before the disk is written, so that notifications arriving together keep to the bounds too.
    this.count += 1;
    this.bytes += bytes;
    try {
      return { file: await saveNotification(await this.ensureFolder(), name, body, head), bytes };
    } catch (e) {
      this.forget(bytes);
      throw e;
    }
  }

  /** The app has it (or it is gone already): no longer kept. */
  async remove(entry: SpoolEntry): Promise<void> {
    await removeSaved(entry.file);
    this.forget(entry.bytes);
  }

  /** At the stop: the folder goes if nothing is left in it. */
  async close(): Promise<void> {
    if (this.made === undefined || this.count > 0) return;
    await rmdir(this.made).catch(() => {});
  }

  private forget(bytes: number): void {
    this.count -= 1;
    this.bytes -= bytes;
  }

  private ensureFolder(): Promise<string> {
    this.folder ??= (async () => {
      // trk's own folder (the state folder's webhook-queue, or one in the system's temporary folder): 0700, and
      // each run's folder in it too (mkdtemp), the files 0600 (saved.ts).
      ownFolder(this.root, 'forward queue folder', this.warn);
      this.made = await mkdtemp(join(this.root, `${fileStamp(clock().now())}-`));
      return this.made;
    })();
    return this.folder;
  }
}
