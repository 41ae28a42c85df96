// What the two halves of an item run share: ItemRun (src/items/run.ts) checks the input, finds where it stands
// against the runs before it (src/items/run-memory.ts) and makes the plan; RunSender (src/items/send.ts) sends it
// and says how it went. Both read the same settings, input and records, show progress the same way, and may look
// up which numbers of what is left are registered already (a dry run to say so, a short quota before it refuses).

import type { ApiClient } from '../api/client.js';
import type { ApiVersion } from '@trk/service/vocabulary.js';
import { commandName } from '@trk/service/operations/index.js';
import { LIMITS } from '@trk/service/vocabulary.js';
import type { QuotaRecord } from '@trk/service/types.js';
import type { Settings } from '../config/settings.js';
import type { Context } from '../context/context.js';
import { InterruptedError, stopExitCode, TrkError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';
import { fmt, plural } from '../core/text.js';
import type { Chunk } from './chunker.js';
import type { ItemOperation } from './fields.js';
import { sumOver } from './plan.js';
import type { Progress } from './progress.js';
import type { InputRow } from './read.js';
import type { RunMemory } from './run-memory.js';
import type { ItemFlags, ItemRunOptions } from './run-options.js';
import { chunkSize, inputChunks, type ScanOptions, type ScanResult } from './scan.js';
import type { ItemSource } from './source.js';
import { alreadyPaid, serviceLookup } from './registered.js';
import { say } from './notices.js';

/** Progress of a run that shows none. */
const NO_PROGRESS: Progress = { inPlace: false, phase() {}, update() {}, waiting() {}, stop() {} };

/** What a run knows, handed from one half to the other. */
export interface RunFields {
  ctx: Context;
  opts: ItemRunOptions;
  op: ItemOperation;
  flags: ItemFlags;
  settings: Settings;
  version: ApiVersion;
  /** The state folder. */
  state: string;
  source: ItemSource;
  /** When the run started, on the real clock. */
  started: number;
  scanOpts: ScanOptions;
  renderer: typeof import('./progress.js') | undefined;
  quota: Promise<Partial<QuotaRecord>> | undefined;
  memory: RunMemory | undefined;
}

export abstract class RunBase {
  protected readonly ctx: Context;
  protected readonly opts: ItemRunOptions;
  protected readonly op: ItemOperation;
  protected readonly flags: ItemFlags;
  protected readonly settings: Settings;
  protected readonly version: ApiVersion;
  protected readonly state: string;
  protected readonly source: ItemSource;
  protected readonly started: number;
  protected scanOpts: ScanOptions;
  protected renderer: RunFields['renderer'];
  protected quota: RunFields['quota'];
  protected memory: RunFields['memory'];

  protected constructor(f: RunFields) {
    this.ctx = f.ctx;
    this.opts = f.opts;
    this.op = f.op;
    this.flags = f.flags;
    this.settings = f.settings;
    this.version = f.version;
    this.state = f.state;
    this.source = f.source;
    this.started = f.started;
    this.scanOpts = f.scanOpts;
    this.renderer = f.renderer;
    this.quota = f.quota;
    this.memory = f.memory;
  }

  /** What this half knows, for the other. */
  protected fields(): RunFields {
    const { ctx, opts, op, flags, settings, version, state, source, started, scanOpts, renderer, quota, memory } = this;
    return { ctx, opts, op, flags, settings, version, state, source, started, scanOpts, renderer, quota, memory };
  }

  protected progressFor(label: string): Progress {
    const mode = this.opts.progress ?? this.renderer?.progressMode(this.ctx.io, this.ctx.global.quiet) ?? 'none';
    const ceiling = chunkSize(this.op, this.version) * LIMITS.requestsPerSecond;
    return this.renderer?.createProgress(this.ctx.io, { mode, label, ceilingPerSecond: ceiling }) ?? NO_PROGRESS;
  }

  /** The input read again, chunk by chunk as checked (arguments cannot change). */
  protected reread(scan: ScanResult, onInvalid?: (row: InputRow, message: string) => void): AsyncGenerator<Chunk> {
    return inputChunks(this.source, this.scanOpts, onInvalid, scan);
  }

  /** The input read again without the chunks done already. */
  protected async *chunksLeft(scan: ScanResult, done: ReadonlySet<number>): AsyncGenerator<Chunk> {
    for await (const chunk of this.reread(scan)) if (!done.has(chunk.index)) yield chunk;
  }

  /** The rows of what is left that are registered already; undefined (after a warning) if that cannot be told. */
  protected async alreadyPaid(
    scan: ScanResult,
    done: ReadonlySet<number>,
    client: ApiClient,
  ): Promise<{ items: number; units: number } | undefined> {
    const left = scan.items - sumOver(scan.chunkItems, done);
    const progress = this.progressFor(commandName(this.op));
    progress.phase(`looking up which of ${plural(left, 'number')} are registered already`);
    try {
      const chunks = this.chunksLeft(scan, done);
      const paid = await alreadyPaid(this.op, chunks, serviceLookup(client, this.version, this.ctx.signal), (looked) =>
        progress.phase(`looking up which numbers are registered already: ${fmt(looked)} of ${fmt(left)}`),
      );
      return { items: paid.items, units: paid.units };
    } catch (err) {
      if (err instanceof TrkError && err.exitCode === EXIT.usage) throw err;
      if (this.ctx.signal.aborted) {
        throw new InterruptedError('interrupted before sending; nothing was sent', stopExitCode(this.ctx.signal));
      }
      say(
        this.ctx,
        `could not look up which numbers are registered already (${(err as Error).message}): ` +
          'sending; the service refuses what the quota does not cover',
      );
      return undefined;
    } finally {
      progress.stop();
    }
  }
}

export function countRows(map: ReadonlyMap<string, readonly unknown[]>): number {
  let n = 0;
  for (const rows of map.values()) n += rows.length;
  return n;
}
