// Building the service's envelopes. Item failures are thrown as ItemReject inside per-item handlers and
// turned into `rejected` entries by the loop; failures of the request as a whole become `data.errors`.
//
// Envelope `code` of a request refused as a whole: the request was still answered with HTTP 200, so the
// envelope carries the service error code itself (e.g. -18010013, -18010014, -18019912) beside
// `data.errors`; the real service's HTTP-level refusals (401 ...) put the HTTP status there instead,
// which the transport does. `code` is 0 only when the items were processed.

import type { ApiVersion } from '@trk/service/vocabulary.js';
import { formatCodeMessage } from '@trk/service/codes.js';
import type { ItemError } from '@trk/service/types.js';

export type Envelope = Record<string, unknown>;

/**
 * The live service's own wording, where recorded answers show it (test/fixtures/real-v1): clients that match on
 * the text see what the service sends. Every other message is the code table's text with its placeholders filled.
 */
const LIVE_MESSAGES: Readonly<Record<number, string>> = {
  [-18010012]: "The format of '{0}' is invalid.",
  [-18019901]: "The tracking number '{0}' has been registered, don't need to repeat registration.",
  [-18019902]: "The tracking number '{0}' does not register, please register first.",
};

/** The message the emulator sends for a code. */
export function serviceMessage(code: number, ...args: (string | number)[]): string {
  const live = LIVE_MESSAGES[code];
  if (live === undefined) return formatCodeMessage(code, ...args);
  return live.replace(/\{(\d)\}/g, (_, i: string) => String(args[Number(i)] ?? ''));
}

export function itemError(code: number, ...args: (string | number)[]): ItemError {
  return { code, message: serviceMessage(code, ...args) };
}

/** A request refused as a whole. */
export function requestError(code: number, ...args: (string | number)[]): Envelope {
  return { code, data: { errors: [itemError(code, ...args)] } };
}

export function itemsEnvelope(accepted: unknown[], rejected: unknown[]): Envelope {
  return { code: 0, data: { accepted, rejected } };
}

/** Thrown by item handlers; carries the code and the values for the message's placeholders. */
export class ItemReject extends Error {
  readonly code: number;
  readonly args: (string | number)[];
  /** Carrier to report in the rejected item when it is known by the time of the failure. */
  carrier: number | undefined;
  constructor(code: number, ...args: (string | number)[]) {
    super(serviceMessage(code, ...args));
    this.code = code;
    this.args = args;
  }
  withCarrier(carrier: number | undefined): this {
    if (this.carrier === undefined) this.carrier = carrier;
    return this;
  }
}

/**
 * A rejected item in the version's shape: v1 {number, error}; v2 and v2.1 add `carrier` (0 when unknown,
 * as the service's own examples do) and `tag`.
 */
export function rejectedItem(
  version: ApiVersion,
  number: string,
  error: ItemError,
  extra: { carrier?: number | undefined; tag?: string | null | undefined } = {},
): Record<string, unknown> {
  if (version === 'v1') return { number, error };
  return { number, carrier: extra.carrier ?? 0, tag: extra.tag ?? null, error };
}

export function rejectFrom(
  version: ApiVersion,
  number: string,
  err: ItemReject,
  extra: { carrier?: number | undefined; tag?: string | null | undefined } = {},
): Record<string, unknown> {
  return rejectedItem(version, number, itemError(err.code, ...err.args), {
    carrier: err.carrier ?? extra.carrier,
    tag: extra.tag,
  });
}
