// CONTRACT STUB — implemented by the output work.

import type { ChalkInstance } from 'chalk';
import type { IO } from '../io.js';
import type { ItemResults } from '../api/types.js';
import type { OutputFormat } from './format.js';

export type Cell = string | number | boolean | null | undefined;

export interface Column<T> {
  /** Stable machine name: the CSV header and the key in tab-separated output order. */
  key: string;
  /** Header shown in tables. */
  header: string;
  value(row: T): Cell;
  /** Colour for tables on a terminal (text is already sanitised). */
  style?(text: string, row: T, c: ChalkInstance): string;
}

/**
 * How rows are shown. `undefined` format = automatic: a coloured table with header on a terminal, tab-separated
 * rows without header or colour when stdout is piped.
 */
export interface RowWriter<T> {
  /** Add rows; `raw` are the service's items for the same rows (what --json/--ndjson print). */
  write(rows: readonly T[], raw?: readonly unknown[]): void;
  /** Finish (tables are printed here; JSON arrays are closed). */
  end(): Promise<void>;
}

export function createRowWriter<T>(
  _io: IO,
  _columns: readonly Column<T>[],
  _format: OutputFormat | undefined,
): RowWriter<T> {
  throw new Error('not implemented');
}

/** Rows in one go. */
export async function printRows<T>(
  io: IO,
  rows: readonly T[],
  columns: readonly Column<T>[],
  format: OutputFormat | undefined,
  raw?: readonly unknown[],
): Promise<void> {
  const w = createRowWriter(io, columns, format);
  w.write(rows, raw);
  await w.end();
}

/**
 * Results of an item command (merged over chunks). json: `{"accepted":[...],"rejected":[...]}` with the
 * service's items; ndjson: one line per item with `"result":"accepted"|"rejected"`; csv/table/tsv: one row per
 * item with a result column, rejected rows carrying error code and message.
 */
export async function printItemResults<A>(
  _io: IO,
  _results: ItemResults<A>,
  _columns: readonly Column<A>[],
  _format: OutputFormat | undefined,
): Promise<void> {
  throw new Error('not implemented');
}

/** One object as field/value pairs (quota): json prints the object as the service sent it. */
export async function printObject<T extends object>(
  _io: IO,
  _obj: T,
  _fields: readonly Column<T>[],
  _format: OutputFormat | undefined,
): Promise<void> {
  throw new Error('not implemented');
}
