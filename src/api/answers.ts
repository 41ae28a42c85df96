// What one attempt's outcome means, decoded here and only here: an HTTP answer becomes an envelope with code 0 of
// the shape its operation returns (its module's `answer` in @trk/service/operations/; rejected items are data) or
// a typed ServiceError, and a failure of the transport becomes a NetworkError saying whether the request can have
// left. Pure: the client (client.ts, call.ts) does the sending.

import { answerProblem } from '@trk/service/operations/index.js';
import {
  AuthenticationError,
  EndpointNotFoundError,
  EnvelopeError,
  InvalidResponseError,
  NetworkError,
  RateLimitError,
  ServerError,
  TLS_CODE,
  UnexpectedStatusError,
  isAuthCode,
  type ServiceError,
} from './errors.js';
import { parseRetryAfter } from './retry.js';
import type { ApiVersion, Operation } from '@trk/service/vocabulary.js';
import type { Envelope } from '@trk/service/types.js';

export type AnswerHeaders = Record<string, string | string[] | undefined>;

/** An HTTP answer to a POST of `op` to `url`. */
export interface HttpAnswer {
  op: Operation;
  url: string;
  version: ApiVersion;
  status: number;
  headers: AnswerHeaders;
  text: string;
}

/** The envelope of a successful answer; throws the ServiceError any other answer means. */
export function decodeAnswer(answer: HttpAnswer): Envelope {
  const { op, status, headers } = answer;
  const parsed = parseJson(answer.text);
  const envelope = isEnvelope(parsed) ? parsed : undefined;
  const first = envelope ? firstError(envelope) : undefined;
  const serviceCode = first?.code === undefined ? {} : { serviceCode: first.code };
  const common = { operation: op, httpStatus: status, ...serviceCode };
  if (status >= 200 && status < 300) {
    if (envelope) return decodeEnvelope(op, status, envelope);
    const notJson = parsed === NOT_JSON;
    const detail = `${notJson ? 'not JSON' : 'no envelope'} (HTTP ${status}${notJson ? describeType(headers) : ''})`;
    throw new InvalidResponseError({ ...common, detail });
  }
  const retryAfterMs = parseRetryAfter(headers['retry-after']);
  const withRetryAfter = retryAfterMs === undefined ? common : { ...common, retryAfterMs };
  if (status === 401) {
    throw new AuthenticationError({ ...common, ...(first?.message ? { serviceMessage: first.message } : {}) });
  }
  if (status === 404) throw new EndpointNotFoundError({ ...common, url: answer.url, version: answer.version });
  if (status === 429) throw new RateLimitError(withRetryAfter);
  if (status >= 500) throw new ServerError({ ...withRetryAfter, httpStatus: status });
  if (envelope && (envelope.code !== 0 || first)) return decodeEnvelope(op, status, envelope);
  throw new UnexpectedStatusError({ ...common, httpStatus: status, ...redirectHint(status, headers) });
}

/** A redirect (e.g. http:// to https://) is fixed in the base URL, so name where the service points. */
function redirectHint(status: number, headers: AnswerHeaders): { hint?: string } {
  const location = headers.location;
  if (status < 300 || status >= 400 || typeof location !== 'string') return {};
  return { hint: `the service redirects to ${location.replace(/[\u0000-\u001f\u007f]/g, '')}: correct the base URL` };
}

function decodeEnvelope(op: Operation, status: number, envelope: Envelope): Envelope {
  const first = firstError(envelope);
  if (envelope.code === 0 && !first) {
    // Of the shape the operation returns, or not an answer trk can act on (it may have been processed).
    const problem = answerProblem(op, envelope);
    if (problem === undefined) return envelope;
    throw new InvalidResponseError({ operation: op, httpStatus: status, detail: `${problem} (${op}, HTTP ${status})` });
  }
  const serviceCode = first?.code ?? envelope.code;
  const serviceMessage = first?.message;
  const common = { operation: op, httpStatus: status, serviceCode, ...(serviceMessage ? { serviceMessage } : {}) };
  if (isAuthCode(serviceCode)) throw new AuthenticationError({ ...common, delivery: 'processed' });
  throw new EnvelopeError(common);
}

const NOT_JSON = Symbol('not JSON');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

function isEnvelope(value: unknown): value is Envelope {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as { code?: unknown; data?: unknown };
  return typeof v.code === 'number' && (v.data === undefined || v.data === null || typeof v.data === 'object');
}

function firstError(envelope: Envelope): { code: number | undefined; message: string | undefined } | undefined {
  const errors = envelope.data?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const e = errors[0] as { code?: unknown; message?: unknown } | null;
  return {
    code: typeof e?.code === 'number' ? e.code : undefined,
    message: typeof e?.message === 'string' ? e.message : undefined,
  };
}

function describeType(headers: AnswerHeaders): string {
  const type = headers['content-type'];
  return typeof type === 'string' && type !== '' ? `, ${type.split(';')[0]?.trim()}` : '';
}

// Connection failures that happen before a single byte of the request is written.
const CONNECT_PHASE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** A ServiceError for a failure of the transport; anything else (a bug, a bad argument) is rethrown as is. */
export function networkError(op: Operation, host: string, err: unknown): ServiceError {
  const e = err as { code?: unknown; message?: unknown; cause?: { code?: unknown } } | null;
  const code = typeof e?.code === 'string' ? e.code : undefined;
  const causeCode = typeof e?.cause?.code === 'string' ? e.cause.code : undefined;
  const message = typeof e?.message === 'string' ? e.message : '';
  // A proxy that refuses the tunnel or wants authentication: the request never left for the service.
  if (/^Proxy /.test(message)) {
    return new NetworkError({ operation: op, host, reason: message, delivery: 'not-sent', cause: err });
  }
  if (code === undefined || code === 'UND_ERR_INVALID_ARG') throw err;
  const reason = [code, causeCode].find((c) => c !== undefined && (CONNECT_PHASE.has(c) || TLS_CODE.test(c))) ?? code;
  const tls = reason !== undefined && TLS_CODE.test(reason);
  const delivery = reason !== undefined && (CONNECT_PHASE.has(reason) || tls) ? 'not-sent' : 'unknown';
  const named = reason === undefined ? {} : { reason };
  return new NetworkError({ operation: op, host, ...named, delivery, tls, cause: err });
}
