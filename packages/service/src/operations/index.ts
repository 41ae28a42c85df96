// The service's operations, gathered from their modules (one a file in this folder, listed by the build in
// modules.ts): the table every reader uses (the client, the retry policy, the item engine, `trk api`, help and
// completions), the unions of their names and the shapes of their answers are derived here, never written again. A
// new operation is a module here, its command, and the emulator's handler; test/service/operations.test.ts fails
// when one lacks a piece.

import { fieldSpec, ITEM_FIELDS, type ItemField } from '../fields.js';
import { API_VERSIONS, LIMITS, type ApiVersion } from '../vocabulary.js';
import type { NumberCarrierItem } from '../types.js';
import { OPERATION_MODULES } from './modules.js';
import type { Item, ItemOperationSpec, ListPart, OperationClass, OperationSpec } from './operation.js';
import { describe, isObject, type AnswerCheck } from './shapes.js';

export { RequestRefused, type Item, type ListPart, type OperationClass } from './operation.js';
export type { AnswerCheck } from './shapes.js';
export { unknownRegisterFields } from './register.js';

/** Every operation's module (modules.ts, written by the build from this folder): their names are the operations. */
const LIST = OPERATION_MODULES;
/** An operation's name as trk knows it (v2 spelling). */
export type Operation = (typeof LIST)[number]['name'];
/** Every operation's name, as its module gives it. */
export const OPERATIONS: readonly Operation[] = LIST.map((m) => m.name);
type Modules = { readonly [M in (typeof LIST)[number] as M['name']]: M };
/** Every module, by the name its operation has. */
const MODULES: Modules & { readonly [O in Operation]: OperationSpec<O, never> } = Object.fromEntries(
  LIST.map((m) => [m.name, m]),
) as unknown as Modules;
/** Operations the item engine runs: those whose module says which fields they read. */
export type ItemOperation = {
  [O in Operation]: Modules[O] extends { readonly fields: unknown } ? O : never;
}[Operation];
/** Whether two types are the same (not merely assignable to each other). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Operations that take a number and its carrier and nothing else: those whose body is made of such items. */
export type NumberCarrierOperation = {
  [O in ItemOperation]: Same<BodyInput<O>, readonly NumberCarrierItem[]> extends true ? O : never;
}[ItemOperation];
/** What the body builder of `O` is given. */
export type BodyInput<O extends Operation> = Parameters<Modules[O]['body']>[1];
/** What the body builder of `O` makes. */
export type BodyOf<O extends Operation> = ReturnType<Modules[O]['body']>;

export const OPERATION_TABLE: Readonly<Record<Operation, OperationSpec<Operation, never>>> = MODULES;
const ITEM_TABLE = MODULES as Readonly<Record<ItemOperation, ItemOperationSpec<ItemOperation, never>>>;

export const ITEM_OPERATIONS = (Object.keys(MODULES) as Operation[]).filter(
  (op): op is ItemOperation => 'fields' in MODULES[op],
);

export const ANSWER_SHAPES: Readonly<Record<Operation, AnswerCheck>> = Object.fromEntries(
  Object.entries(MODULES).map(([name, module]) => [name, module.answer]),
) as Record<Operation, AnswerCheck>;

export function operationSpec(op: Operation): OperationSpec<Operation, never> {
  return OPERATION_TABLE[op];
}

export function itemOperationSpec(op: ItemOperation): ItemOperationSpec<ItemOperation, never> {
  return ITEM_TABLE[op];
}

/** Path segment of an operation in a version, or undefined when the version lacks it. */
export function operationPath(version: ApiVersion, op: Operation): string | undefined {
  return OPERATION_TABLE[op].paths[version];
}

export function operationClass(op: Operation): OperationClass {
  return OPERATION_TABLE[op].class;
}

/** How many items one request of `op` may carry. */
export function itemsPerRequest(version: ApiVersion, op: Operation): number {
  return OPERATION_TABLE[op].perRequest?.[version] ?? LIMITS.itemsPerRequest;
}

/** Item fields `op` takes in `version`. */
export function operationFields(op: ItemOperation, version: ApiVersion): readonly ItemField[] {
  return ITEM_TABLE[op].fields[version];
}

/** The trk command of an item operation: what status lines call it, since that is what the user typed. */
export function commandName(op: ItemOperation): string {
  return ITEM_TABLE[op].command;
}

/** The fields whose flags the command of `op` declares, in the help's order. */
export function flagFields(op: ItemOperation): readonly ItemField[] {
  const spec = ITEM_TABLE[op];
  if (spec.flags !== undefined) return spec.flags;
  const taken = new Set(API_VERSIONS.flatMap((v) => spec.fields[v]));
  return ITEM_FIELDS.filter((f) => f !== 'number' && taken.has(f));
}

/** The help of a field's flag in the command of `op`. */
export function flagHelp(op: ItemOperation, field: ItemField): string {
  return ITEM_TABLE[op].flagHelp?.[field] ?? fieldSpec(field).help ?? field;
}

/** The item operation a trk command sends (`update` → its module's operation), as the modules say. */
export function operationOfCommand(command: string): ItemOperation {
  const op = ITEM_OPERATIONS.find((o) => ITEM_TABLE[o].command === command);
  if (op === undefined) throw new Error(`trk ${command} sends no item operation`);
  return op;
}

/** What a row lacks for `op` in `version` (something its cells or the flags must give), or undefined. */
export function rowLacks(op: ItemOperation, values: Readonly<Partial<Record<ItemField, string>>>, version: ApiVersion) {
  return ITEM_TABLE[op].rowLacks?.(values, version);
}

/** Summary word for an accepted item: `registered`, `stopped`. */
export function doneWord(op: ItemOperation): string {
  return ITEM_TABLE[op].done;
}

/** Quota units one item costs (0 for operations that cost none). */
export function unitCost(op: ItemOperation, item: { lang?: string | undefined }): number {
  return ITEM_TABLE[op].unitCost?.(item) ?? 0;
}

/** The body of `op` in `version` for what the caller has; throws RequestRefused for what the version cannot say. */
export function operationBody<O extends Operation>(op: O, version: ApiVersion, input: BodyInput<O>): BodyOf<O> {
  return (MODULES[op].body as (version: ApiVersion, input: BodyInput<O>) => BodyOf<O>)(version, input);
}

/** The body of an item operation for a chunk of checked rows (and, for a list, its filter and page). */
export function itemsBody(op: ItemOperation, version: ApiVersion, items: readonly Item[], list?: ListPart): unknown {
  return ITEM_TABLE[op].itemBody(version, items, list);
}

/**
 * What is wrong with the envelope of a successful answer to `op`, or undefined when it has the shape trk reads.
 * The caller has checked already that `code` is a number and that it is 0 without data.errors.
 */
export function answerProblem(op: Operation, envelope: Record<string, unknown>): string | undefined {
  const data = envelope.data;
  if (!isObject(data)) return `data is ${describe(data)}, not an object`;
  return ANSWER_SHAPES[op](data, envelope);
}
