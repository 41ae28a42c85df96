// trk changes: the status changes the mirror learnt (from syncs and from the webhook), in the order it learnt them
// (the order cursors count in; a change learnt later may have been detected earlier), in every output format. With
// --cursor NAME, only those that cursor has not seen, and the cursor moves past them only once trk knows they were
// taken, so that a night whose consumer failed gets them again the next night:
//   - written to a file, a terminal or a device, flushed (a file to its disk) without an error;
//   - handed to `--exec CMD` on its stdin, and CMD exited 0 (its failure is trk's exit status);
//   - acknowledged: into a pipe trk cannot see its reader take them, so the cursor stays, the position read is
//     kept as pending, and `trk changes --cursor NAME --ack` moves the cursor there once the reader succeeded.

import type { Context } from '../../context/context.js';
import { runWithInput } from '../common/exec.js';
import { TrkError, UsageError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import { carrierText, columnsByName, referenceColumns, type ColumnOptions } from '../../output/columns.js';
import type { Column } from '../../output/render.js';
import { CHANGE_COLUMN_NAMES } from './change-columns.js';
import { createRowWriter } from '../../output/render.js';
import { mirrorAgeLine } from '../../mirror/age.js';
import { openMirrorToRead } from '../../mirror/open.js';
import { canonicalTime } from '../../store/rows.js';
import type { ListedChange, Store } from '../../store/types.js';
import { plural } from '../../core/text.js';
import { parseTimeArg } from '../list/time.js';
import { outputOf } from '../common/output.js';
import { tableNames } from '../common/names.js';
import { PACKAGE_STATUSES } from '@trk/service/vocabulary.js';
import { choiceList, examples, joined, notes, relativeOption, running, withColumns, type Declare } from '../define.js';
import { dbOption } from './args.js';
import type { Listing } from '../listing.js';

export interface ChangesOptions {
  since?: string | undefined;
  status?: readonly string[] | undefined;
  cursor?: string | undefined;
  /** `--exec CMD`: the changes on CMD's stdin; the cursor moves when CMD exits 0. */
  exec?: string | undefined;
  /** `--ack`: move the cursor to where its last read into a pipe reached. */
  ack?: boolean | undefined;
  db?: string | undefined;
}

const time = (header: string, get: (c: ListedChange) => string | null): Omit<Column<ListedChange>, 'key'> => ({
  header,
  value: (c) => get(c)?.replace(/\.000Z$/, 'Z') ?? null,
  time: true,
});

/** The columns of a change (carrier names beside codes in tables, when given); JSON prints them by these keys. */
export function changeColumns(names: ColumnOptions = {}): Column<ListedChange>[] {
  return columnsByName<ListedChange, (typeof CHANGE_COLUMN_NAMES)[number]>(CHANGE_COLUMN_NAMES, {
    id: { header: 'ID', value: (c) => c.id, wide: 9 },
    // What a narrow terminal keeps: the number, its carrier and the status it went to; then when, and whose.
    detected_at: { ...time('DETECTED', (c) => c.detected_at || null), wide: 2 },
    number: { header: 'NUMBER', value: (c) => c.number, id: true },
    carrier: {
      header: 'CARRIER',
      value: (c) => c.carrier,
      display: (c) => carrierText(c.carrier, names.carrierName),
      shrink: 10,
      // A carrier's name is cut only when no ranked column is left to leave out.
      fair: 20,
    },
    from: { header: 'FROM', value: (c) => c.from_status, wide: 4 },
    to: { header: 'TO', value: (c) => c.to_status },
    from_sub_status: { header: 'FROM SUB-STATUS', value: (c) => c.from_sub_status, wide: 8 },
    to_sub_status: { header: 'SUB-STATUS', value: (c) => c.to_sub_status, wide: 5 },
    event_time: { ...time('EVENT AT', (c) => c.event_time), wide: 6 },
    source: { header: 'SOURCE', value: (c) => c.source, wide: 7 },
    ...referenceColumns<ListedChange>((c) => c),
  });
}

const CURSOR_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Resolves once what was written to stdout has reached the operating system; rejects when it could not. */
function flushed(stdout: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve, reject) => stdout.write('', (err) => (err ? reject(err) : resolve())));
}

/** The mirror's state entry that keeps where a cursor's last unacknowledged read reached. */
const pendingKey = (cursor: string) => `cursor_pending.${cursor}`;

export async function runChanges(opts: ChangesOptions, ctx: Context): Promise<number> {
  checkFlags(opts);
  const sinceIso = opts.since === undefined ? undefined : parseTimeArg(opts.since, ctx.now());
  if (opts.since !== undefined && sinceIso === undefined) {
    throw new UsageError(
      `--since "${opts.since}" is not a time`,
      'give an age such as 24h or 7d, or an ISO time (2026-06-01, 2026-06-01T12:00Z)',
    );
  }
  const store = await openMirrorToRead(ctx, { db: opts.db });
  try {
    // Refused before anything is printed: changes printed with a cursor that cannot move would come again.
    if (opts.cursor !== undefined && !(await store.writable())) {
      throw new UsageError(
        `the mirror ${store.location} cannot be written here: the cursor "${opts.cursor}" cannot move`,
        'read the changes with --since instead, or where the mirror can be written',
      );
    }
    if (opts.ack && opts.cursor !== undefined) return await acknowledge(store, opts.cursor, ctx);
    const after = opts.cursor === undefined ? 0 : await store.cursor(opts.cursor);
    const since = canonicalTime(sinceIso) ?? undefined;
    // A cursor looks at every change after it, in one read, and passes them all (those the filters leave out
    // too: a filtered cursor subscribes to those changes), so that none written meanwhile is passed unseen.
    const looked = await store.changes(opts.cursor === undefined ? { since, status: opts.status } : { afterId: after });
    const changes = looked.filter(
      (c) =>
        (since === undefined || c.detected_at >= since) &&
        (!opts.status?.length || opts.status.includes(c.to_status ?? '')),
    );
    const failed = opts.exec !== undefined ? await handToCommand(opts.exec, changes, ctx) : undefined;
    if (failed !== undefined) {
      const stays = opts.cursor === undefined ? '' : `; the cursor "${opts.cursor}" stays where it was`;
      ctx.io.err(`trk: --exec ${opts.exec} ${failed.how}${stays}`);
      return failed.code;
    }
    const taken = opts.exec !== undefined || (await writeOut(changes, opts, ctx));
    const to = looked.at(-1)?.id;
    if (opts.cursor !== undefined && to !== undefined) await settleCursor(store, opts.cursor, to, taken, ctx);
    ctx.info(`${plural(changes.length, 'change')} · ${await mirrorAgeLine(store, ctx.now())}`);
    return 0;
  } finally {
    await store.close();
  }
}

function checkFlags(opts: ChangesOptions): void {
  if (opts.cursor !== undefined && !CURSOR_NAME.test(opts.cursor)) {
    throw new UsageError(
      `cursor name "${opts.cursor}" is not a name`,
      'use letters, digits, dots, hyphens and underscores, e.g. nightly',
    );
  }
  if (opts.ack && opts.cursor === undefined)
    throw new UsageError('--ack acknowledges a cursor', 'give it: trk changes --cursor NAME --ack');
  if (opts.ack && (opts.exec !== undefined || opts.since !== undefined || opts.status?.length))
    throw new UsageError('--ack prints no change', 'give --ack with --cursor NAME alone');
  if (opts.exec !== undefined && opts.exec.trim() === '')
    throw new UsageError('--exec needs a command', "give one, e.g. --exec 'mail -s changes ops@example.com'");
}

/** The changes on stdout; whether trk knows they were taken (a pipe's reader it cannot see). */
async function writeOut(changes: readonly ListedChange[], opts: ChangesOptions, ctx: Context): Promise<boolean> {
  const writer = createRowWriter(ctx.io, changeColumns(await tableNames(ctx, { shipped: true })), outputOf(ctx));
  writer.write(changes);
  await writer.end();
  if (opts.cursor === undefined) return true;
  try {
    await flushed(ctx.io.stdout);
  } catch (err) {
    throw new TrkError(
      `the output could not be written (${(err as Error).message}); the cursor "${opts.cursor}" stays where it was`,
      { exitCode: EXIT.failure },
    );
  }
  return ctx.io.stdoutTarget !== 'pipe';
}

/**
 * The changes on `command`'s stdin, in the output format asked for: undefined once it exited 0, else how it failed
 * and the exit status trk ends with (the command's own). Its output is trk's. No change runs no command: a night
 * with nothing to say mails nothing.
 */
async function handToCommand(
  command: string,
  changes: readonly ListedChange[],
  ctx: Context,
): Promise<{ how: string; code: number } | undefined> {
  if (changes.length === 0) {
    ctx.debug(`no change: --exec ${command} not run`);
    return undefined;
  }
  const columns = changeColumns(await tableNames(ctx, { shipped: true }));
  const status = await runWithInput(command, ctx, (io) => {
    const writer = createRowWriter(io, columns, outputOf(ctx));
    writer.write(changes);
    return writer.end();
  });
  if (status.code === 0) return undefined;
  return status.code === null
    ? { how: `was ended by ${status.signal}`, code: EXIT.failure }
    : { how: `exited with ${status.code}`, code: status.code };
}

/** Moves the cursor past what was taken, or keeps the position read as pending, saying which on stderr. */
async function settleCursor(store: Store, cursor: string, to: number, taken: boolean, ctx: Context): Promise<void> {
  if (taken) {
    await moveCursor(store, cursor, to);
    ctx.debug(`cursor "${cursor}" moved to change ${to}`);
    return;
  }
  await store.setState({ [pendingKey(cursor)]: String(to) });
  ctx.io.err(
    `warning: cursor "${cursor}" not moved: the changes went into a pipe, and trk cannot see its reader take them; ` +
      `once it did: trk changes --cursor ${cursor} --ack (or let trk run it: --exec 'CMD')`,
  );
}

/** The cursor past change `to`, with nothing left pending for `--ack`. */
async function moveCursor(store: Store, cursor: string, to: number): Promise<void> {
  await store.advanceCursor(cursor, to);
  await store.setState({ [pendingKey(cursor)]: '0' });
}

/** `--ack`: the cursor moved to where its last read into a pipe reached. */
async function acknowledge(store: Store, cursor: string, ctx: Context): Promise<number> {
  const pending = Number((await store.state(pendingKey(cursor))) ?? 0);
  const at = await store.cursor(cursor);
  if (!(pending > at)) {
    ctx.info(`cursor "${cursor}": nothing to acknowledge (it is at change ${at})`);
    return 0;
  }
  await moveCursor(store, cursor, pending);
  ctx.info(`cursor "${cursor}" moved to change ${pending}`);
  return 0;
}

export const listing = {
  name: 'changes',
  summary: 'status changes the mirror learnt, from syncs and the webhook',
  section: 'mirror',
} satisfies Listing;

export const declaration: Declare = (cmd, invoke) =>
  withColumns(cmd, CHANGE_COLUMN_NAMES)
    .addOption(relativeOption())
    .option('--since <time>', 'changes detected since then: an age (24h, 7d) or an ISO time (2026-06-01)')
    .addOption(
      choiceList(
        '--status <status>',
        'changes to this main status (comma separated for any of several; any case)',
        PACKAGE_STATUSES,
      ),
    )
    .option(
      '--cursor <name>',
      'only the changes this named cursor has not seen; it moves past them once they are taken (see below)',
    )
    .option('--exec <command>', 'hand the changes to COMMAND on its stdin (run by sh); the cursor moves if it exits 0')
    .option('--ack', 'move --cursor NAME past the changes its last read wrote into a pipe, once they were taken')
    .addOption(dbOption())
    .addHelpText(
      'after',
      joined(
        notes(
          'Every status change the mirror learnt, from "trk sync" and from the webhook\'s notifications, in the ' +
            'order it learnt them, which cursors follow: a change learnt later may have been detected earlier ' +
            "(DETECTED is the service's time). A record's first sync is no change.",
          'A cursor moves only when trk knows the changes were taken: written to a file or a terminal, or handed to ' +
            "--exec COMMAND that exited 0 (its exit status is trk's otherwise). Into a pipe it stays, and --ack " +
            'moves it once the reader succeeded.',
        ),
        examples(
          'trk changes --since 24h',
          'trk changes --status Exception,DeliveryFailure --json',
          'trk changes --cursor nightly --status Exception,DeliveryFailure -o table --exec \'mail -s "parcels in ' +
            'trouble" ops@example.com\'',
          'trk changes --cursor feed -o ndjson | gzip >> feed.ndjson.gz && trk changes --cursor feed --ack',
        ),
      ),
    )
    .action((o) =>
      running(
        invoke,
        (ctx) =>
          runChanges({ since: o.since, status: o.status, cursor: o.cursor, exec: o.exec, ack: o.ack, db: o.db }, ctx),
        o,
      ),
    );
