// trk info --offline, and trk find: tracking details from the mirror (`trk sync`) instead of the service. The
// same input (arguments, a file, stdin), filters and output as the online info (`--json`: `{accepted, rejected}`),
// no request, the mirror's age on stderr. What is not a tracking number (an order number, an e-mail, a tag) is
// looked up in the mirror: that is how a shop finds a customer's parcel. Chosen at the command's boundary
// (info.ts), so the online info keeps no trace of it.

import { LIMITS, numberPattern, type ApiVersion } from '@trk/service/vocabulary.js';
import type { ItemResults, RejectedItem } from '@trk/service/types.js';
import type { Context } from '../../context/context.js';
import { TrkError, UsageError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import { formatCodeMessage } from '@trk/service/codes.js';
import { mirrorAgeLine } from '../../mirror/age.js';
import { openMirrorToRead } from '../../mirror/open.js';
import type { RecordKey, Store } from '../../store/types.js';
import { detailsWriter, type DetailsPrintOptions } from '../common/details.js';
import { recordFields } from '@trk/service/records.js';
import { REFERENCE_FIELDS, type ReferenceValues } from '@trk/service/record-fields.js';
import { matching, type InfoOptions } from './info-online.js';
import { runInfo } from './info-online.js';

export interface OfflineInfoOptions extends InfoOptions {
  db?: string | undefined;
}

/** What the mirror says of one number it cannot show: not there, or there without details yet. */
function rejected(number: string, carrier: number | undefined, code: number, message: string): RejectedItem {
  return { number, ...(carrier === undefined ? {} : { carrier }), error: { code, message } };
}

/** Parcels find shows at most: more are said to be there. */
export const FIND_LIMIT = 100;

/** That no parcel matched, saying what find matches (the rule is store/find-sql.ts's). */
function noneHolds(text: string): string {
  return (
    `no parcel in the mirror has "${text}" in its tracking number, order number, e-mail or tag ` +
    '(any part; letters A to Z in any case)'
  );
}

/**
 * Records whose order number, e-mail or tag is `text` (any case); else the first FIND_LIMIT that hold it in any part
 * of their number, tag, order number or e-mail, and whether more do.
 */
export async function findInMirror(store: Store, text: string): Promise<{ keys: RecordKey[]; more: boolean }> {
  const keys = new Map<string, RecordKey>();
  const collect = async (query: Parameters<Store['records']>[0]) => {
    for await (const batch of store.records(query)) {
      for (const r of batch) {
        const item = JSON.parse(r.raw) as { number?: unknown; carrier?: unknown; w1?: unknown };
        const key = { number: String(item.number), carrier: Number(item.carrier ?? item.w1 ?? 0) };
        keys.set(`${key.number}\u0000${key.carrier}`, key);
      }
    }
  };
  const exact = text.trim();
  await collect({ order: exact });
  await collect({ email: exact });
  if (!exact.includes('*')) await collect({ tags: [exact] });
  if (keys.size > 0) return { keys: [...keys.values()], more: false };
  const held = await store.find(exact, FIND_LIMIT + 1);
  return { keys: held.slice(0, FIND_LIMIT), more: held.length > FIND_LIMIT };
}

class MirrorReader {
  readonly results: ItemResults<unknown> = { accepted: [], rejected: [] };
  version: ApiVersion | undefined;

  constructor(private readonly store: Store) {}

  /** The details of a number (each of its carriers, or `carrier`), or why there are none. */
  async number(number: string, carrier: number | undefined): Promise<void> {
    const { details, withoutDetails } = await this.store.details([number], carrier);
    for (const d of details) {
      this.version ??= d.api_version as ApiVersion;
      this.results.accepted.push(JSON.parse(d.raw));
    }
    for (const k of withoutDetails) {
      this.results.rejected.push(
        rejected(k.number, k.carrier, -18019909, 'no tracking details in the mirror yet: run "trk sync"'),
      );
    }
    if (details.length === 0 && withoutDetails.length === 0) {
      this.results.rejected.push(rejected(number, carrier, -18019902, formatCodeMessage(-18019902, number)));
    }
  }

  /** Something that is not a tracking number: the parcels it names in the mirror. */
  async term(text: string, carrier: number | undefined): Promise<void> {
    const { keys: found } = await findInMirror(this.store, text);
    const keys = found.filter((k) => carrier === undefined || k.carrier === carrier);
    if (keys.length === 0) this.results.rejected.push(rejected(text, carrier, -18019902, noneHolds(text)));
    for (const k of keys) await this.number(k.number, k.carrier);
  }

  take(): ItemResults<unknown> {
    const out = { accepted: this.results.accepted.splice(0), rejected: this.results.rejected.splice(0) };
    return out;
  }
}

function checkOptions(opts: OfflineInfoOptions): void {
  if (opts.watch)
    throw new UsageError('--watch asks the service again and again, not the mirror', 'drop --offline, or --watch');
  if (opts.dryRun || opts.rejects !== undefined || opts.skipInvalid || opts.restart || opts.again) {
    throw new UsageError(
      '--offline sends nothing: --dry-run, --rejects, --skip-invalid, --restart and --again do not apply',
      'drop them',
    );
  }
}

export async function runOfflineInfo(opts: OfflineInfoOptions, ctx: Context): Promise<number> {
  checkOptions(opts);
  const store = await openMirrorToRead(ctx, { db: opts.db });
  try {
    const { inputNumbers } = await import('../../items/command.js');
    return await printFromMirror(ctx, store, inputNumbers(ctx, { numbers: opts.numbers, file: opts.file }), opts);
  } finally {
    await store.close();
  }
}

/**
 * `trk info TEXT` where no argument is a tracking number: looked up in the mirror when there is one; else the
 * online info, which says what is wrong with the arguments.
 */
export async function runLookupInfo(opts: OfflineInfoOptions, ctx: Context): Promise<number> {
  const { mirrorLocation, mirrorMayExist } = await import('../../mirror/open.js');
  const location = await mirrorLocation(ctx, { db: opts.db });
  if (!mirrorMayExist(location)) return runInfo(opts, ctx);
  return runOfflineInfo(opts, ctx);
}

/** The details of each input row from the mirror, written as they are read; the exit code of an info run. */
async function printFromMirror(
  ctx: Context,
  store: Store,
  rows: AsyncIterable<{ number: string; carrier: string | number | undefined }>,
  opts: OfflineInfoOptions,
  mirror?: DetailsPrintOptions['mirror'],
): Promise<number> {
  const { apiVersion } = await ctx.settings();
  const reader = new MirrorReader(store);
  const pattern = numberPattern(apiVersion);
  let found = 0;
  let missing = 0;
  let writer: Awaited<ReturnType<typeof detailsWriter>> | undefined;
  const flush = async () => {
    const batch = reader.take();
    found += batch.accepted.length;
    missing += batch.rejected.length;
    const version = reader.version ?? apiVersion;
    writer ??= matching(ctx, await detailsWriter(ctx, version, { pages: opts.pages, mirror }), version, opts);
    writer.write(batch);
  };
  let pending = 0;
  for await (const row of rows) {
    const carrier =
      row.carrier !== undefined && /^\d+$/.test(String(row.carrier)) ? Number(row.carrier) : opts.fields?.carrier;
    if (pattern.test(row.number)) await reader.number(row.number, carrier);
    else await reader.term(row.number, carrier);
    // Written a few hundred at a time: an input of any length takes flat memory.
    if (++pending >= LIMITS.itemsPerRequest * 10) {
      await flush();
      pending = 0;
    }
  }
  await flush();
  await writer!.end();
  ctx.info(await mirrorAgeLine(store, ctx.now()));
  if (found === 0 && missing > 0) return EXIT.failure;
  return missing > 0 ? EXIT.partial : EXIT.ok;
}

const keyOf = (number: string, carrier: number | null) => `${number.toUpperCase()}\u0000${carrier ?? 0}`;

/** The customer references of the records of `keys` (find's, at most FIND_LIMIT), by number and carrier. */
async function referencesOf(store: Store, keys: readonly RecordKey[], version: ApiVersion) {
  const references = new Map<string, ReferenceValues>();
  const wanted = new Set(keys.map((k) => keyOf(k.number, k.carrier)));
  // One number is matched by any part of it: only the records of the keys are kept.
  for await (const batch of store.records({ numbers: [...new Set(keys.map((k) => k.number))] })) {
    for (const r of batch) {
      const item = JSON.parse(r.raw) as { number?: unknown; carrier?: unknown; w1?: unknown };
      const key = keyOf(String(item.number), Number(item.carrier ?? item.w1 ?? 0));
      if (!wanted.has(key)) continue;
      const fields = recordFields(item, (r.api_version as ApiVersion) ?? version);
      references.set(key, Object.fromEntries(REFERENCE_FIELDS.map((f) => [f, fields[f]])) as ReferenceValues);
    }
  }
  return references;
}

/** trk find TEXT: a customer's parcel by any part of its order number, e-mail, tag or number, as its tracking page. */
export async function runFind(opts: { text: string; db?: string | undefined }, ctx: Context): Promise<number> {
  const text = opts.text.trim();
  if (text === '')
    throw new UsageError('nothing to find', 'give an order number, an e-mail, a tag or a tracking number');
  const store = await openMirrorToRead(ctx, { db: opts.db });
  try {
    const { keys, more } = await findInMirror(store, text);
    if (keys.length === 0) {
      throw new TrkError(noneHolds(text), {
        exitCode: EXIT.failure,
        hint: `run "trk sync" if it is new (${await mirrorAgeLine(store, ctx.now())})`,
      });
    }
    if (more) {
      ctx.info(`more than ${FIND_LIMIT} parcels have "${text}": the first ${FIND_LIMIT} shown; give more of it`);
    }
    const rows = (async function* () {
      yield* keys;
    })();
    const references = await referencesOf(store, keys, (await ctx.settings()).apiVersion);
    const mirror = { references: (number: string, carrier: number | null) => references.get(keyOf(number, carrier)) };
    return await printFromMirror(ctx, store, rows, { numbers: [], pages: true, db: opts.db }, mirror);
  } finally {
    await store.close();
  }
}
