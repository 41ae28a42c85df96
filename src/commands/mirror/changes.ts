// trk changes: the status changes the mirror learnt (from syncs and from the webhook), oldest first, in every
// output format. With --cursor NAME, only those that cursor has not seen, and the cursor moves past them only once
// they are written completely: a night whose output failed gets them again the next night.

import type { Context } from '../../context.js';
import { TrkError, UsageError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { columnsByName } from '../../output/columns.js';
import type { Column } from '../../output/render.js';
import { CHANGE_COLUMN_NAMES } from './change-columns.js';
import { createRowWriter } from '../../output/render.js';
import { mirrorAgeLine } from '../../store/age.js';
import { openMirrorToRead } from '../../store/open.js';
import { canonicalTime } from '../../store/rows.js';
import type { ChangeRow } from '../../store/types.js';
import { plural } from '../../text.js';
import { parseTimeArg } from '../list/time.js';
import { outputOf } from '../common/output.js';

export interface ChangesOptions {
  since?: string | undefined;
  status?: readonly string[] | undefined;
  cursor?: string | undefined;
  db?: string | undefined;
}

const time = (header: string, get: (c: ChangeRow) => string | null): Omit<Column<ChangeRow>, 'key'> => ({
  header,
  value: (c) => get(c)?.replace(/\.000Z$/, 'Z') ?? null,
  time: true,
});

/** The columns of a change; JSON prints them by these keys. */
export const CHANGE_COLUMNS: readonly Column<ChangeRow>[] = columnsByName<
  ChangeRow,
  (typeof CHANGE_COLUMN_NAMES)[number]
>(CHANGE_COLUMN_NAMES, {
  id: { header: 'ID', value: (c) => c.id, wide: 9 },
  detected_at: time('DETECTED', (c) => c.detected_at || null),
  number: { header: 'NUMBER', value: (c) => c.number, id: true },
  carrier: { header: 'CARRIER', value: (c) => c.carrier, id: true },
  from: { header: 'FROM', value: (c) => c.from_status },
  to: { header: 'TO', value: (c) => c.to_status },
  from_sub_status: { header: 'FROM SUB-STATUS', value: (c) => c.from_sub_status, wide: 8 },
  to_sub_status: { header: 'SUB-STATUS', value: (c) => c.to_sub_status, wide: 5 },
  event_time: { ...time('EVENT AT', (c) => c.event_time), wide: 6 },
  source: { header: 'SOURCE', value: (c) => c.source, wide: 7 },
});

const CURSOR_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Resolves once what was written to stdout has reached the operating system; rejects when it could not. */
function flushed(stdout: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve, reject) => stdout.write('', (err) => (err ? reject(err) : resolve())));
}

export async function runChanges(opts: ChangesOptions, ctx: Context): Promise<number> {
  if (opts.cursor !== undefined && !CURSOR_NAME.test(opts.cursor)) {
    throw new UsageError(
      `cursor name "${opts.cursor}" is not a name`,
      'use letters, digits, dots, hyphens and underscores, e.g. nightly',
    );
  }
  const sinceIso = opts.since === undefined ? undefined : parseTimeArg(opts.since, ctx.now());
  if (opts.since !== undefined && sinceIso === undefined) {
    throw new UsageError(
      `--since "${opts.since}" is not a time`,
      'give an age such as 24h or 7d, or an ISO time (2026-06-01, 2026-06-01T12:00Z)',
    );
  }
  const output = outputOf(ctx);
  const store = await openMirrorToRead(ctx, { db: opts.db });
  try {
    // Refused before anything is printed: changes printed with a cursor that cannot move would come again.
    if (opts.cursor !== undefined && !(await store.writable())) {
      throw new UsageError(
        `the mirror ${store.location} cannot be written here: the cursor "${opts.cursor}" cannot move`,
        'read the changes with --since instead, or where the mirror can be written',
      );
    }
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
    const writer = createRowWriter(ctx.io, CHANGE_COLUMNS, output);
    writer.write(changes);
    await writer.end();
    if (opts.cursor !== undefined) {
      // What the cursor passes must have left trk: a failed write keeps the changes for the next run.
      try {
        await flushed(ctx.io.stdout);
      } catch (err) {
        throw new TrkError(
          `the output could not be written (${(err as Error).message}); the cursor "${opts.cursor}" stays where it was`,
          {
            exitCode: EXIT.failure,
          },
        );
      }
      const to = looked.at(-1)?.id;
      if (to !== undefined) await store.advanceCursor(opts.cursor, to);
    }
    ctx.info(`${plural(changes.length, 'change')} · ${await mirrorAgeLine(store, ctx.now())}`);
    return 0;
  } finally {
    await store.close();
  }
}
