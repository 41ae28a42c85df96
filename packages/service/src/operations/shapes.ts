// What a successful answer (code 0, no data.errors) of each operation must look like before anything reads it.
// The client checks every such envelope here, once, where it decodes it: an answer of the wrong shape
// (`accepted: "x"`, `data: null`, `rejected: [null]`) becomes an InvalidResponseError with delivery 'unknown'
// instead of reaching a command that would iterate a string or print empty values. The checks cover what trk
// reads and nothing more: fields the service adds in newer minor versions are welcome, and item fields that
// differ between versions (v1 `track`, v2 `track_info`) are left to the views, which read them defensively.
//
// The checks the operation modules are made of; each module names its own (`answer`), and index.ts gathers
// them as ANSWER_SHAPES.

/** The problem with an answer, in a few words (`data.accepted is a string, not a list`), or undefined when fine. */
export type AnswerCheck = (data: Record<string, unknown>, envelope: Record<string, unknown>) => string | undefined;

/** Quota fields as the specification lists them: integers. The first three are what `trk quota` is for. */
const QUOTA_REQUIRED = ['quota_total', 'quota_used', 'quota_remain'] as const;
const QUOTA_OPTIONAL = ['today_used', 'max_track_daily', 'free_email_quota', 'free_email_quotaused'] as const;
const PAGE_FIELDS = ['data_total', 'page_total', 'page_no', 'page_size'] as const;

/** accepted[] and rejected[] of an item operation; `carrier` says whether accepted items must name theirs. */
export function itemLists(opts: { carrier: boolean }): AnswerCheck {
  return (data) =>
    list(data, 'accepted', (item, at) => acceptedItem(item, at, opts.carrier)) ?? list(data, 'rejected', rejectedItem);
}

/** getquota: its numbers are numbers. */
export const quotaFields: AnswerCheck = (data) => {
  for (const field of QUOTA_REQUIRED) {
    if (typeof data[field] !== 'number') return `data.${field} is ${describe(data[field])}, not a number`;
  }
  for (const field of QUOTA_OPTIONAL) {
    if (data[field] !== undefined && data[field] !== null && typeof data[field] !== 'number') {
      return `data.${field} is ${describe(data[field])}, not a number`;
    }
  }
  return undefined;
};

/** A page of records; `rejected` is not part of this answer, so it is only checked when present. */
export const recordPage: AnswerCheck = (data, envelope) =>
  list(data, 'accepted', (item, at) => acceptedItem(item, at, false)) ??
  (data.rejected === undefined ? undefined : list(data, 'rejected', rejectedItem)) ??
  page(envelope.page);

export function list(
  data: Record<string, unknown>,
  name: 'accepted' | 'rejected',
  item: (value: unknown, at: string) => string | undefined,
): string | undefined {
  const value = data[name];
  if (!Array.isArray(value)) return `data.${name} is ${describe(value)}, not a list`;
  for (let i = 0; i < value.length; i++) {
    const problem = item(value[i], `data.${name}[${i}]`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

export function acceptedItem(value: unknown, at: string, carrier: boolean): string | undefined {
  if (!isObject(value)) return `${at} is ${describe(value)}, not an object`;
  if (typeof value.number !== 'string') return `${at}.number is ${describe(value.number)}, not a string`;
  if (carrier ? typeof value.carrier !== 'number' : !optionalNumber(value.carrier)) {
    return `${at}.carrier is ${describe(value.carrier)}, not a number`;
  }
  return undefined;
}

export function rejectedItem(value: unknown, at: string): string | undefined {
  if (!isObject(value)) return `${at} is ${describe(value)}, not an object`;
  if (typeof value.number !== 'string') return `${at}.number is ${describe(value.number)}, not a string`;
  const error = value.error;
  if (!isObject(error)) return `${at}.error is ${describe(error)}, not an object`;
  if (typeof error.code !== 'number') return `${at}.error.code is ${describe(error.code)}, not a number`;
  if (error.message !== undefined && error.message !== null && typeof error.message !== 'string') {
    return `${at}.error.message is ${describe(error.message)}, not text`;
  }
  return undefined;
}

/** `page` may be absent (trk then reads a short page as the last one); when present its counts are numbers. */
export function page(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) return `page is ${describe(value)}, not an object`;
  for (const field of PAGE_FIELDS) {
    if (!optionalNumber(value[field])) return `page.${field} is ${describe(value[field])}, not a number`;
  }
  return undefined;
}

function optionalNumber(value: unknown): boolean {
  return value === undefined || value === null || typeof value === 'number';
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The kind of a value for a message; never the value itself (it came from the network and may be huge). */
export function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    default:
      return 'an object';
  }
}
