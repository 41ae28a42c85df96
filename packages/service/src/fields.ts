// ONE registry of the request fields trk reads from input columns and flags, named as the service's v2 request
// fields. For each: its name on the wire where a version calls it otherwise, what its values are (the check of a
// cell or a flag), its limit, its flag and help text. Checks (items/check.ts), body builders and the item commands'
// flags (commands/items/field-flags.ts) read it; which operation takes a field in which version is the operation's
// module's; the names shops give its column are items/shop-columns.ts's.
//
// The order is the order of a request's digest (src/items/digest.ts): a field is added at the end.

import { LANGUAGES, LIMITS, type ApiVersion } from './vocabulary.js';

/** What a field's values are: text, a carrier (code or name), a language code, or a yes/no switch. */
export type FieldKind = 'text' | 'carrier' | 'language' | 'switch';

export interface FieldSpec {
  readonly kind: FieldKind;
  /** The field's name on the wire where a version calls it otherwise. */
  readonly wire?: Readonly<Partial<Record<ApiVersion, string>>>;
  /** The API version that added it (v1's and v2's fields have none); register takes it from then on. */
  readonly since?: ApiVersion;
  /** At most this many characters, and how an error names a value of it (`a tag`). */
  readonly limit?: { readonly max: number; readonly noun: string };
  /** The item commands' flag (`--tag <text>`; a switch is the flag that turns it off); none for `number`. */
  readonly flag?: string;
  readonly help?: string;
}

export const FIELDS = {
  number: {
    kind: 'text',
  },
  carrier: {
    kind: 'carrier',
    flag: '--carrier <carrier>',
    help: 'carrier code or name (default: detected by the service)',
  },
  param: {
    kind: 'text',
    wire: { v1: 'extra_param' },
    flag: '--param <value>',
    help: 'extra tracking parameter some carriers need, e.g. US-10001',
  },
  tag: {
    kind: 'text',
    limit: { max: LIMITS.tagMaxLength, noun: 'a tag' },
    flag: '--tag <text>',
    help: 'your own tag (at most 100 characters)',
  },
  lang: { kind: 'language', flag: '--lang <code>', help: 'translate events into this language (1 extra quota unit)' },
  email: {
    kind: 'text',
    limit: { max: LIMITS.emailMaxLength, noun: 'an e-mail' },
    flag: '--email <address>',
    help: 'customer e-mail for notifications',
  },
  final_carrier: {
    kind: 'carrier',
    flag: '--final-carrier <carrier>',
    help: 'last-mile carrier code or name (postal numbers only)',
  },
  auto_detection: {
    kind: 'switch',
    flag: '--no-auto-detection',
    help: 'do not let the service guess the carrier when --carrier is not given',
  },
  order_no: {
    kind: 'text',
    since: 'v2.1',
    flag: '--order-no <text>',
    help: 'order number (v2.1)',
  },
  order_time: { kind: 'text', since: 'v2.1', flag: '--order-time <time>', help: 'order date or time (v2.1)' },
  remark: {
    kind: 'text',
    since: 'v2.1',
    limit: { max: LIMITS.remarkMaxLength, noun: 'a remark' },
    flag: '--remark <text>',
    help: 'remark (v2.1, at most 1000 characters)',
  },
  carrier_old: {
    kind: 'carrier',
    flag: '--from <carrier>',
    help: 'current carrier code or name (needed when the number is registered under several)',
  },
  carrier_new: { kind: 'carrier', flag: '--to <carrier>', help: 'new carrier code or name' },
  final_carrier_old: {
    kind: 'carrier',
    flag: '--final-from <carrier>',
    help: 'current last-mile carrier code or name',
  },
  final_carrier_new: { kind: 'carrier', flag: '--final-to <carrier>', help: 'new last-mile carrier code or name' },
} as const satisfies Readonly<Record<string, FieldSpec>>;

export type ItemField = keyof typeof FIELDS;

type ValueOfKind<K extends FieldKind> = K extends 'carrier' ? number : K extends 'switch' ? boolean : string;
/** Values of fields as flags give them (carriers as codes), typed from the registry. */
export type FieldValues = { [F in ItemField]?: ValueOfKind<(typeof FIELDS)[F]['kind']> | undefined };
export const ITEM_FIELDS = Object.keys(FIELDS) as ItemField[];

export function fieldSpec(field: ItemField): FieldSpec {
  return FIELDS[field];
}

/** The name `version` gives `field` on the wire. */
export function wireName(field: ItemField, version: ApiVersion): string {
  return fieldSpec(field).wire?.[version] ?? field;
}

/** The fields `version` added, in the registry's order. */
export function fieldsSince(version: ApiVersion): ItemField[] {
  return ITEM_FIELDS.filter((f) => fieldSpec(f).since === version);
}

/** Fields whose values are carriers (codes, or names resolved before a row is checked). */
export const CARRIER_FIELDS: readonly ItemField[] = ITEM_FIELDS.filter((f) => FIELDS[f].kind === 'carrier');

const TRUE_WORDS = new Set(['true', '1', 'yes', 'y', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'n', 'off']);

/** The value of a cell or flag of `field`, or the problem with it; `none` for a carrier of 0 (no carrier). */
export type FieldValue = { value: string | number | boolean } | { problem: string } | { none: true };

/**
 * Check one value of `field` (other than `number`, whose rule depends on the version). `show` writes a value into
 * a message safely; `names` says carrier names were resolved to codes before (so a name left is unknown).
 */
export function parseField(field: ItemField, text: string, show: (s: string) => string, names = false): FieldValue {
  const spec: FieldSpec = FIELDS[field];
  switch (spec.kind) {
    case 'carrier': {
      // Codes were zero-padded strings in old carrier lists: "03011" is 3011.
      const code = /^\d{1,9}$/.test(text) ? Number(text) : undefined;
      // 0 is how the service says "no carrier" (a list record's final_carrier): the same as an empty cell.
      if (code === 0) return { none: true };
      if (code !== undefined) return { value: code };
      return {
        problem: names
          ? `${field} ${show(text)} is neither a carrier code nor a carrier name trk knows`
          : `${field} ${show(text)} is not a carrier code (a whole number from the carrier list)`,
      };
    }
    case 'language': {
      const lang = text.toLowerCase();
      if ((LANGUAGES as readonly string[]).includes(lang)) return { value: lang };
      return { problem: `lang ${show(text)} is not one of ${LANGUAGES.join(', ')}` };
    }
    case 'switch': {
      const word = text.toLowerCase();
      if (TRUE_WORDS.has(word)) return { value: true };
      if (FALSE_WORDS.has(word)) return { value: false };
      return { problem: `${field} ${show(text)} is not true or false` };
    }
    default: {
      const length = [...text].length;
      if (spec.limit !== undefined && length > spec.limit.max) {
        return { problem: `${field} longer than ${spec.limit.max} characters (${length})` };
      }
      return { value: text };
    }
  }
}
