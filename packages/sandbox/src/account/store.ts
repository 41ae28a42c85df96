// The account's records: a Map keyed by `number|carrier` (the record's identity) and an index by number,
// since most operations address a number and let the carrier be optional.

import type { RecordState } from './types.js';

export function recordKey(number: string, carrier: number): string {
  return `${number}|${carrier}`;
}

export class RecordStore {
  readonly #byKey = new Map<string, RecordState>();
  readonly #byNumber = new Map<string, RecordState[]>();

  get size(): number {
    return this.#byKey.size;
  }

  get(number: string, carrier: number): RecordState | undefined {
    return this.#byKey.get(recordKey(number, carrier));
  }

  getByKey(key: string): RecordState | undefined {
    return this.#byKey.get(key);
  }

  /** Every record of a number, in registration order (empty when none). */
  forNumber(number: string): readonly RecordState[] {
    return this.#byNumber.get(number) ?? [];
  }

  values(): IterableIterator<RecordState> {
    return this.#byKey.values();
  }

  add(rec: RecordState): void {
    this.#byKey.set(recordKey(rec.number, rec.carrier), rec);
    const list = this.#byNumber.get(rec.number);
    if (list) list.push(rec);
    else this.#byNumber.set(rec.number, [rec]);
  }

  delete(rec: RecordState): void {
    const key = recordKey(rec.number, rec.carrier);
    if (this.#byKey.get(key) !== rec) return;
    this.#byKey.delete(key);
    const list = this.#byNumber.get(rec.number);
    if (!list) return;
    const rest = list.filter((r) => r !== rec);
    if (rest.length > 0) this.#byNumber.set(rec.number, rest);
    else this.#byNumber.delete(rec.number);
  }

  /** Move a record to another carrier (carrier change); its place in the number index is kept. */
  rekey(rec: RecordState, carrier: number): void {
    this.#byKey.delete(recordKey(rec.number, rec.carrier));
    rec.carrier = carrier;
    this.#byKey.set(recordKey(rec.number, rec.carrier), rec);
  }

  clear(): void {
    this.#byKey.clear();
    this.#byNumber.clear();
  }
}
