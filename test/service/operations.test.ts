// Every operation of the service's vocabulary has its module (@trk/service/operations/), and every module has all
// its pieces: paths, a body builder, the shape of its answer, and the emulator's handler at the same paths; item
// operations also their fields in every version, the body of a chunk of rows, the command and its summary word.

import { describe, expect, expectTypeOf, it } from 'vitest';
import { EMULATED_OPERATIONS } from '@trk/sandbox/ops/table.js';
import {
  ANSWER_SHAPES,
  ITEM_OPERATIONS,
  OPERATION_TABLE,
  OPERATIONS,
  type NumberCarrierOperation,
} from '@trk/service/operations/index.js';
import { API_VERSIONS } from '@trk/service/vocabulary.js';

type Table = Readonly<Record<string, Record<string, unknown> | undefined>>;

/** What each operation lacks, as `name: piece` lines. */
function missingPieces(
  table: Table,
  shapes: Table | Record<string, unknown>,
  emulated: Table,
  items: readonly string[],
): string[] {
  const missing: string[] = [];
  for (const op of OPERATIONS) {
    const module = table[op];
    if (module === undefined) {
      missing.push(`${op}: module`);
      continue;
    }
    if (typeof module.body !== 'function') missing.push(`${op}: body`);
    if (typeof module.answer !== 'function' || typeof (shapes as Record<string, unknown>)[op] !== 'function')
      missing.push(`${op}: answer shape`);
    if (typeof emulated[op]?.handle !== 'function') missing.push(`${op}: emulator handler`);
    if (JSON.stringify(emulated[op]?.paths) !== JSON.stringify(module.paths))
      missing.push(`${op}: the emulator's paths`);
    if (!items.includes(op)) continue;
    if (typeof module.itemBody !== 'function') missing.push(`${op}: body of a chunk of rows`);
    const fields = module.fields as Record<string, unknown> | undefined;
    for (const v of API_VERSIONS) if (!Array.isArray(fields?.[v])) missing.push(`${op}: fields of ${v}`);
    if (typeof module.command !== 'string' || typeof module.done !== 'string')
      missing.push(`${op}: command and summary word`);
  }
  return missing;
}

const TABLE = OPERATION_TABLE as unknown as Table;
const EMULATED = EMULATED_OPERATIONS as unknown as Table;

describe('the operation modules', () => {
  it('every operation has a module with a body, an answer shape and an emulator handler', () => {
    expect(missingPieces(TABLE, ANSWER_SHAPES, EMULATED, ITEM_OPERATIONS)).toEqual([]);
    expect(Object.keys(OPERATION_TABLE).sort()).toEqual([...OPERATIONS].sort());
  });

  it('the item operations are those with fields, each named by its command', () => {
    expect([...ITEM_OPERATIONS].sort()).toEqual([
      'changecarrier',
      'changeinfo',
      'deletetrack',
      'gettrackinfo',
      'gettracklist',
      'push',
      'register',
      'retrack',
      'stoptrack',
    ]);
  });

  it('would catch an operation lacking a piece (the check itself works)', () => {
    const { body: _body, ...noBody } = TABLE.push as Record<string, unknown>;
    const { changeinfo: _shape, ...noShape } = ANSWER_SHAPES;
    const { retrack: _handler, ...noHandler } = EMULATED;
    const { itemBody: _itemBody, ...noItemBody } = TABLE.stoptrack as Record<string, unknown>;
    expect(
      missingPieces({ ...TABLE, push: noBody, stoptrack: noItemBody }, noShape, noHandler, ITEM_OPERATIONS),
    ).toEqual([
      'changeinfo: answer shape',
      'push: body',
      'retrack: emulator handler',
      "retrack: the emulator's paths",
      'stoptrack: body of a chunk of rows',
    ]);
  });
});

describe('the unions derived from the modules', () => {
  it('NumberCarrierOperation: the item operations whose body is made of numbers and carriers alone', () => {
    expectTypeOf<NumberCarrierOperation>().toEqualTypeOf<
      'stoptrack' | 'retrack' | 'deletetrack' | 'gettrackinfo' | 'push'
    >();
    expect(OPERATIONS).toEqual(Object.keys(OPERATION_TABLE));
  });
});
