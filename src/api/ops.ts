// The one table of the service's operations: for each, its path in every version, the item fields it takes in
// every version, what it costs, how many items a request carries, which rejections mean "already in the state
// asked for", and the trk command that runs it with the words its summary uses. The client, the retry policy,
// the item engine (columns, checks, chunking, summaries, exit codes), `trk api`, help and completions all read
// from here: adding an operation touches this table and one command file.

import { LIMITS, type ApiVersion, type Operation } from '../service/vocabulary.js';

/**
 * read: changes nothing, safe to repeat after any failure. write: changes state without charging, repeated
 * after an ambiguous failure (a second send meets "already in that state"). charging: consumes quota, never
 * sent blindly twice; looked up after an ambiguous failure instead.
 */
export type OperationClass = 'read' | 'write' | 'charging';

/** Request item fields trk reads from input columns and flags, named as the API's v2 request fields. */
export const ITEM_FIELDS = [
  'number',
  'carrier',
  'param',
  'tag',
  'lang',
  'email',
  'final_carrier',
  'auto_detection',
  'order_no',
  'order_time',
  'remark',
  'carrier_old',
  'carrier_new',
  'final_carrier_old',
  'final_carrier_new',
] as const;
export type ItemField = (typeof ITEM_FIELDS)[number];

export interface OperationSpec {
  readonly name: Operation;
  /** Path segment in each version; a version without the operation has none. */
  readonly paths: Readonly<Partial<Record<ApiVersion, string>>>;
  readonly class: OperationClass;
  /** What the user calls it when a version lacks it ("the v1 API has no quota operation"). */
  readonly noun?: string;
  /** Items one request carries, per version. */
  readonly perRequest?: Readonly<Record<ApiVersion, number>>;
  /** Item fields the operation takes, per version (item operations only). */
  readonly fields?: Readonly<Record<ApiVersion, readonly ItemField[]>>;
  /** Item rejections that mean the item is already in the state asked for: counted as done. */
  readonly already?: { readonly codes: readonly number[]; readonly words: string };
  /**
   * Rejections believable as "already done" only for a re-send after an answer was lost (the first send most
   * likely did it): -18019902 "not registered" after a delete, -18019905 "re-tracked once only" after a retrack.
   */
  readonly alreadyAfterResend?: readonly number[];
  /** The trk command that sends it item by item, and the summary's word for an accepted item. */
  readonly command?: string;
  readonly done?: string;
  /** Quota units an accepted item costs (charging operations). */
  readonly unitCost?: (item: { lang?: string | undefined }) => number;
}

const EVERY: Readonly<Record<ApiVersion, number>> = { v1: LIMITS.itemsPerRequest, v2: LIMITS.itemsPerRequest, 'v2.1': LIMITS.itemsPerRequest };
const SAME_PATH = (name: string) => ({ v1: name, v2: name, 'v2.1': name });
const NUMBER_CARRIER: Readonly<Record<ApiVersion, readonly ItemField[]>> = {
  v1: ['number', 'carrier'],
  v2: ['number', 'carrier'],
  'v2.1': ['number', 'carrier'],
};
const REGISTER_V1: readonly ItemField[] = ['number', 'carrier', 'param', 'tag', 'final_carrier', 'auto_detection'];
const REGISTER_V2: readonly ItemField[] = [...REGISTER_V1, 'lang', 'email'];
const CHANGE_CARRIER: readonly ItemField[] = ['number', 'carrier', 'carrier_old', 'carrier_new', 'final_carrier_old', 'final_carrier_new'];

export const OPERATION_TABLE: Readonly<Record<Operation, OperationSpec>> = {
  register: {
    name: 'register',
    paths: SAME_PATH('register'),
    class: 'charging',
    perRequest: EVERY,
    fields: { v1: REGISTER_V1, v2: REGISTER_V2, 'v2.1': [...REGISTER_V2, 'order_no', 'order_time', 'remark'] },
    already: { codes: [-18019901], words: 'already registered' },
    command: 'register',
    done: 'registered',
    // A translation language costs one more unit.
    unitCost: (item) => (item.lang ? 2 : 1),
  },
  changecarrier: {
    name: 'changecarrier',
    paths: SAME_PATH('changecarrier'),
    class: 'charging',
    perRequest: EVERY,
    // In change-carrier input `carrier` means the carrier the number has now (carrier_old).
    fields: { v1: CHANGE_CARRIER, v2: CHANGE_CARRIER, 'v2.1': CHANGE_CARRIER },
    command: 'change-carrier',
    done: 'changed',
    unitCost: () => 1,
  },
  changeinfo: {
    name: 'changeinfo',
    paths: SAME_PATH('changeinfo'),
    class: 'write',
    // v1 changeinfo takes a single object, not an array, and changes the tag only.
    perRequest: { ...EVERY, v1: 1 },
    fields: { v1: ['number', 'carrier', 'tag'], v2: ['number', 'carrier', 'tag', 'param', 'lang'], 'v2.1': ['number', 'carrier', 'tag', 'param', 'lang'] },
    command: 'update',
    done: 'updated',
  },
  stoptrack: {
    name: 'stoptrack',
    paths: SAME_PATH('stoptrack'),
    class: 'write',
    perRequest: EVERY,
    fields: NUMBER_CARRIER,
    already: { codes: [-18019906], words: 'already stopped' },
    command: 'stop',
    done: 'stopped',
  },
  retrack: {
    name: 'retrack',
    paths: { v1: 'Retrack', v2: 'retrack', 'v2.1': 'retrack' },
    class: 'write',
    perRequest: EVERY,
    fields: NUMBER_CARRIER,
    already: { codes: [-18019904], words: 'already tracking' },
    alreadyAfterResend: [-18019905],
    command: 'retrack',
    done: 'retracked',
  },
  deletetrack: {
    name: 'deletetrack',
    paths: { v1: 'deleteTrack', v2: 'deletetrack', 'v2.1': 'deletetrack' },
    class: 'write',
    perRequest: EVERY,
    fields: NUMBER_CARRIER,
    // Not registered is a rejection (a typo deletes nothing), except after a re-send or with --ignore-missing.
    already: { codes: [], words: 'already deleted' },
    alreadyAfterResend: [-18019902],
    command: 'delete',
    done: 'deleted',
  },
  push: {
    name: 'push',
    paths: SAME_PATH('push'),
    class: 'write',
    perRequest: EVERY,
    fields: NUMBER_CARRIER,
    command: 'push',
    done: 'queued for push',
  },
  gettrackinfo: {
    name: 'gettrackinfo',
    paths: SAME_PATH('gettrackinfo'),
    class: 'read',
    perRequest: EVERY,
    fields: NUMBER_CARRIER,
    command: 'info',
    done: 'found',
  },
  gettracklist: {
    name: 'gettracklist',
    paths: SAME_PATH('gettracklist'),
    class: 'read',
    // As an item operation (`trk list --number` with more numbers than one call takes): numbers go into the
    // filter, up to 200 a call.
    perRequest: { v1: LIMITS.listNumberFilterMax, v2: LIMITS.listNumberFilterMax, 'v2.1': LIMITS.listNumberFilterMax },
    fields: { v1: ['number'], v2: ['number'], 'v2.1': ['number'] },
    command: 'list',
    done: 'found',
  },
  getquota: {
    name: 'getquota',
    paths: { v2: 'getquota', 'v2.1': 'getquota' },
    class: 'read',
    noun: 'quota operation',
  },
  getRealTimeTrackInfo: {
    name: 'getRealTimeTrackInfo',
    paths: { v2: 'getRealTimeTrackInfo', 'v2.1': 'getRealTimeTrackInfo' },
    class: 'charging',
    noun: 'real-time operation',
    perRequest: { v1: LIMITS.realtimeItemsPerRequest, v2: LIMITS.realtimeItemsPerRequest, 'v2.1': LIMITS.realtimeItemsPerRequest },
  },
};

export function operationSpec(op: Operation): OperationSpec {
  return OPERATION_TABLE[op];
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

/** Operations the item engine runs: those with item fields. */
export type ItemOperation = 'register' | 'changecarrier' | 'changeinfo' | 'stoptrack' | 'retrack' | 'deletetrack' | 'push' | 'gettrackinfo' | 'gettracklist';

export const ITEM_OPERATIONS = (Object.keys(OPERATION_TABLE) as Operation[]).filter(
  (op): op is ItemOperation => OPERATION_TABLE[op].fields !== undefined,
);

/** Item fields `op` takes in `version`. */
export function operationFields(op: ItemOperation, version: ApiVersion): readonly ItemField[] {
  return OPERATION_TABLE[op].fields?.[version] ?? [];
}

/** The trk command of an item operation: what status lines call it, since that is what the user typed. */
export function commandName(op: ItemOperation): string {
  return OPERATION_TABLE[op].command ?? op;
}

/** Summary word for an accepted item: `registered`, `stopped`. */
export function doneWord(op: ItemOperation): string {
  return OPERATION_TABLE[op].done ?? 'accepted';
}

/** Quota units one item costs (0 for operations that cost none). */
export function unitCost(op: ItemOperation, item: { lang?: string | undefined }): number {
  return OPERATION_TABLE[op].unitCost?.(item) ?? 0;
}
