// What one module of @trk/service/operations/ says about its operation, and the small parts they share. Each
// module is the one place for its operation's facts: paths, fields and items per request in every version, its
// class, its body builder, the shape of its answer, its "already in that state" codes and its summary words.

import type { ItemField } from '../fields.js';
import type { ApiVersion } from '../vocabulary.js';
import { LIMITS } from '../vocabulary.js';
import type { AnswerCheck } from './shapes.js';
import type { TrackListFilter } from '../types.js';

/**
 * read: changes nothing, safe to repeat after any failure. write: changes state without charging, repeated
 * after an ambiguous failure (a second send meets "already in that state"). charging: consumes quota, never
 * sent blindly twice; looked up after an ambiguous failure instead.
 */
export type OperationClass = 'read' | 'write' | 'charging';

/**
 * A request the version cannot express as the user asked for it (a field v1 lacks, v1's delete without a
 * carrier): refused before anything is sent. The api layer makes it a usage error (exit 2) with the hint.
 */
export class RequestRefused extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = 'RequestRefused';
  }
}

/** A row made ready for the wire, by field (v2 names; the v1 names are the body builders' business). */
export type Item = { number: string; auto_detection?: boolean } & {
  [F in Exclude<ItemField, 'number' | 'auto_detection'>]?: F extends CarrierField ? number : string;
};
type CarrierField =
  | 'carrier'
  | 'final_carrier'
  | 'carrier_old'
  | 'carrier_new'
  | 'final_carrier_old'
  | 'final_carrier_new';

/** What the engine adds to the items of a gettracklist call: the list's filter and the page. */
export interface ListPart {
  filter?: TrackListFilter | undefined;
  page: number;
}

export interface OperationSpec<Name extends string = string, Input = never> {
  readonly name: Name;
  /** Path segment in each version; a version without the operation has none. */
  readonly paths: Readonly<Partial<Record<ApiVersion, string>>>;
  readonly class: OperationClass;
  /** What the user calls it when a version lacks it ("the v1 API has no quota operation"). */
  readonly noun?: string;
  /** Items one request carries, per version. */
  readonly perRequest?: Readonly<Record<ApiVersion, number>>;
  /** The request body in `version` for what the caller has (items, a filter); throws RequestRefused. */
  readonly body: (version: ApiVersion, input: Input) => unknown;
  /** The shape a successful answer must have. */
  readonly answer: AnswerCheck;
}

/** An operation the item engine runs: the fields it reads, and how a chunk of checked rows becomes its body. */
export interface ItemOperationSpec<Name extends string = string, Input = never> extends OperationSpec<Name, Input> {
  /** Item fields the operation takes, per version. */
  readonly fields: Readonly<Record<ApiVersion, readonly ItemField[]>>;
  readonly itemBody: (version: ApiVersion, items: readonly Item[], list?: ListPart) => unknown;
  /** Item rejections that mean the item is already in the state asked for: counted as done. */
  readonly already?: { readonly codes: readonly number[]; readonly words: string };
  /**
   * Rejections believable as "already done" only for a re-send after an answer was lost (the first send most
   * likely did it): -18019902 "not registered" after a delete, -18019905 "re-tracked once only" after a retrack.
   */
  readonly alreadyAfterResend?: readonly number[];
  /** The trk command that sends it item by item, and the summary's word for an accepted item. */
  readonly command: string;
  readonly done: string;
  /** Quota units an accepted item costs (charging operations). */
  readonly unitCost?: (item: { lang?: string | undefined }) => number;
  /**
   * What a row lacks for this operation (a new carrier, something to change), or undefined. Checked on rows, not
   * on flags alone: a row's own cells may give it.
   */
  readonly rowLacks?: (values: Readonly<Partial<Record<ItemField, string>>>, version: ApiVersion) => string | undefined;
  /** Fields its command takes a flag for, in the help's order (default: every field of any version but number). */
  readonly flags?: readonly ItemField[];
  /** Help of a flag where the command means it otherwise than the registry says (`new tag`). */
  readonly flagHelp?: Readonly<Partial<Record<ItemField, string>>>;
}

export const EVERY: Readonly<Record<ApiVersion, number>> = {
  v1: LIMITS.itemsPerRequest,
  v2: LIMITS.itemsPerRequest,
  'v2.1': LIMITS.itemsPerRequest,
};
export const samePath = (name: string) => ({ v1: name, v2: name, 'v2.1': name });
/** The help of --carrier where it picks one of the records a number may have. */
export const RECORD_CARRIER =
  'only the record under this carrier, a code or name (default: every carrier the number is registered with)';

/** The help of --carrier where it names the one record to change or show. */
export const THIS_RECORD = 'only the record under this carrier (code or name)';

export const NUMBER_CARRIER: Readonly<Record<ApiVersion, readonly ItemField[]>> = {
  v1: ['number', 'carrier'],
  v2: ['number', 'carrier'],
  'v2.1': ['number', 'carrier'],
};

/** Drop undefined fields: the wire carries only what was given. */
export function compact<T extends object>(obj: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) out[k] = v;
  return out as T;
}

export function listSome(values: readonly string[]): string {
  return values.length <= 3 ? values.join(', ') : `${values.slice(0, 3).join(', ')} and ${values.length - 3} more`;
}
