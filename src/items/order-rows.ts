// Shop exports write an order as one row per line item, and fill the order's own columns (e-mail, tags, notes, the
// shipping address) on its first row only; orders not shipped yet have no tracking number at all. Here rows of one
// parcel share what the first of them gave, and rows with no number are passed over and counted, by order where the
// export names its orders.

import { plural } from '../core/text.js';
import type { InputLayout, InputRow } from './read.js';

/** The order a row belongs to, as its export names it; empty where the export names no order. */
function orderOf(row: InputRow, layout: InputLayout): string {
  return layout.orderColumn === undefined ? '' : (row.cells[layout.orderColumn] ?? '');
}

/**
 * The cells of a row with its blanks filled from the row before it, where both are rows of one parcel: the same
 * order (where a column names it) and the same number as written. Only neighbours are compared, as exports write an
 * order's rows together, so memory stays flat.
 */
export class SharedOrderCells {
  #previous: { order: string; number: string; cells: readonly string[] } | undefined;
  readonly #numberAt: number;

  constructor(private readonly layout: InputLayout) {
    this.#numberAt = layout.columns.indexOf('number');
  }

  cellsOf(row: InputRow): readonly string[] {
    if (!this.layout.hasHeader || this.#numberAt < 0) return row.cells;
    const order = orderOf(row, this.layout);
    const number = row.cells[this.#numberAt] ?? '';
    const before = this.#previous;
    const sameParcel = before !== undefined && number !== '' && before.number === number && before.order === order;
    const cells = sameParcel ? row.cells.map((cell, i) => (cell === '' ? (before.cells[i] ?? '') : cell)) : row.cells;
    this.#previous = { order, number, cells };
    return cells;
  }
}

/** Bound on the orders remembered to count them: past it, further rows count as orders of their own. */
const ORDERS_REMEMBERED = 1_000_000;

/** Rows passed over for want of a tracking number, counted by order where the export names orders. */
export class RowsWithoutNumber {
  rows = 0;
  readonly #orders = new Set<string>();
  #unnamed = 0;

  constructor(private readonly layout: InputLayout) {}

  add(row: InputRow): void {
    this.rows += 1;
    const order = orderOf(row, this.layout);
    if (order === '' || this.#orders.size >= ORDERS_REMEMBERED) this.#unnamed += 1;
    else this.#orders.add(order);
  }

  /** `12 orders without a tracking number passed over`, or rows where the export names no order. */
  note(): string | undefined {
    if (this.rows === 0) return undefined;
    const orders = this.#orders.size;
    const parts = [
      orders > 0 ? plural(orders, 'order') : '',
      this.#unnamed > 0 ? plural(this.#unnamed, 'row') : '',
    ].filter((p) => p !== '');
    return `${parts.join(' and ')} without a tracking number passed over`;
  }
}
