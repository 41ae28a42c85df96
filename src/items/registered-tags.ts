// register with a tag, of a number registered already (-18019901): the registration costs nothing and changes
// nothing, so the tag is applied as `trk update --tag` applies it (free: only the tag is sent) before the chunk is
// settled, and the item says so (`tag_applied`); where the service refuses it, the item is rejected with a message
// that says the tag was not applied and how to apply it. A number found registered by a lookup, under another tag,
// alike (src/items/lost-answers.ts).

import { itemsPerRequest, operationOfCommand } from '@trk/service/operations/index.js';
import { requestBody } from '../api/request-body.js';
import type { Envelope, ItemError, RejectedItem } from '@trk/service/types.js';
import type { ApiVersion } from '@trk/service/vocabulary.js';
import type { ChunkRow } from './chunker.js';
import type { ItemOperation } from './fields.js';
import { keyOf, noAnswer, recordCarrier, type Pending, type RunnerCalls, type TagWork } from './chunk-work.js';

/** The operation that applies the tag of a number registered already: trk update's. */
export const RETAG = operationOfCommand('update');

export class RegisteredTags {
  readonly #op: ItemOperation;
  readonly #version: ApiVersion;
  readonly #runner: RunnerCalls;

  constructor(op: ItemOperation, version: ApiVersion, runner: RunnerCalls) {
    this.#op = op;
    this.#version = version;
    this.#runner = runner;
  }

  /** A row registered already whose tag is to be applied; `item` is the one its outcome shows. */
  mark(p: Pending, row: ChunkRow, item: Record<string, unknown>): void {
    (p.retag ??= new Map()).set(row.key, { row, item });
  }

  /** Settle the chunk, or first apply the tags its already registered numbers were asked to carry. */
  settleOrTag(p: Pending): void {
    if (this.#op === 'register' && p.tagsLeft === undefined) {
      const rows = new Map(p.part.map((r) => [r.key, r]));
      for (const item of p.already) {
        const row = rows.get(keyOf(item.number));
        if (row?.item.tag !== undefined) this.mark(p, row, item as unknown as Record<string, unknown>);
      }
    }
    const todo = [...(p.retag?.values() ?? [])].map((r) => r.row);
    if (todo.length === 0 || p.tagsLeft !== undefined) {
      this.#runner.settle(p);
      return;
    }
    const per = itemsPerRequest(this.#version, RETAG);
    p.tagsLeft = 0;
    for (let i = 0; i < todo.length; i += per) {
      p.tagsLeft += 1;
      this.#runner.later({ kind: 'tag', p, rows: todo.slice(i, i + per) });
    }
    this.#runner.wake();
  }

  /** The request of a follow-up: the tag alone (a lang or a param sent along could cost quota or change more). */
  body(work: TagWork): unknown {
    const items = work.rows.map((row) => ({
      number: row.item.number,
      carrier: this.#carrier(work.p, row),
      tag: row.item.tag,
    }));
    return requestBody(RETAG, this.#version, items);
  }

  /** A follow-up answered (or refused as a whole, `refusal`): each item says whether its tag was applied. */
  tagged(work: TagWork, envelope: Envelope<Record<string, unknown>> | undefined, refusal?: ItemError): void {
    const p = work.p;
    const applied = new Set((envelope?.data?.accepted ?? []).map((a) => keyOf(a.number)));
    const refused = new Map((envelope?.data?.rejected ?? []).map((r) => [keyOf(r.number), r.error]));
    for (const row of work.rows) {
      const entry = p.retag?.get(row.key);
      if (!entry) continue;
      if (applied.has(row.key)) {
        entry.item.tag = row.item.tag;
        entry.item.tag_applied = true;
        continue;
      }
      const why = refusal ?? refused.get(row.key) ?? noAnswer(row.item.number).error;
      this.#notApplied(p, row, entry.item, why);
    }
    p.tagsLeft = (p.tagsLeft ?? 1) - 1;
    if (p.tagsLeft === 0) this.#runner.settle(p);
  }

  /** The carrier of a follow-up: the row's, else the one the service named for the number. */
  #carrier(p: Pending, row: ChunkRow): number | undefined {
    return row.item.carrier ?? recordCarrier(p.retag?.get(row.key)?.item ?? {});
  }

  /** The tag was refused: the item is rejected, saying so and how to apply it. */
  #notApplied(p: Pending, row: ChunkRow, item: Record<string, unknown>, why: ItemError): void {
    const already = p.already.indexOf(item as unknown as RejectedItem);
    if (already >= 0) p.already.splice(already, 1);
    else p.accepted.splice(p.accepted.indexOf(item), 1);
    const message =
      `registered already, but the tag was not applied (${why.message}): apply it with ` +
      `trk update ${row.item.number} --tag ${JSON.stringify(row.item.tag)}`;
    const code = typeof why.code === 'number' ? why.code : 0;
    p.rejected.push({ number: row.item.number, error: { code, message }, tag_applied: false } as RejectedItem);
  }
}
