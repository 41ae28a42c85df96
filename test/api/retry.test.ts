import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  EndpointNotFoundError,
  EnvelopeError,
  InvalidResponseError,
  NetworkError,
  RateLimitError,
  RequestAbortedError,
  ServerError,
  TimeoutError,
  UnexpectedStatusError,
  type ServiceError,
} from '../../src/api/errors.js';
import { OPERATIONS, operationClass, type Operation } from '@trk/service/operations/index.js';
import { DEFAULT_RETRY, parseRetryAfter, retryDelay, shouldRetry, waitReason } from '../../src/api/retry.js';
import { MAX_HOLD_MS } from '../../src/pacing/pacer.js';

type Kind =
  | '401'
  | '404'
  | '429'
  | '500'
  | '502'
  | '503'
  | 'refused'
  | 'tls'
  | 'dropped'
  | 'timeout'
  | 'not-json'
  | 'envelope'
  | 'internal-error-code'
  | '400'
  | 'aborted';

function failure(kind: Kind, operation: Operation): ServiceError {
  const host = '127.0.0.1:1';
  switch (kind) {
    case '401':
      return new AuthenticationError({ operation, httpStatus: 401, serviceCode: -18010002 });
    case '404':
      return new EndpointNotFoundError({ operation, url: 'http://x/track/v2/register', version: 'v2' });
    case '429':
      return new RateLimitError({ operation });
    case '500':
    case '502':
    case '503':
      return new ServerError({ operation, httpStatus: Number(kind) });
    case 'refused':
      return new NetworkError({ operation, host, reason: 'ECONNREFUSED', delivery: 'not-sent' });
    case 'tls':
      return new NetworkError({ operation, host, reason: 'CERT_HAS_EXPIRED', delivery: 'not-sent', tls: true });
    case 'dropped':
      return new NetworkError({ operation, host, reason: 'UND_ERR_SOCKET', delivery: 'unknown' });
    case 'timeout':
      return new TimeoutError({ operation, timeoutMs: 30_000 });
    case 'not-json':
      return new InvalidResponseError({ operation, httpStatus: 200, detail: 'not JSON' });
    case 'envelope':
      return new EnvelopeError({ operation, httpStatus: 200, serviceCode: -18010013 });
    case 'internal-error-code':
      return new EnvelopeError({ operation, httpStatus: 200, serviceCode: -18010003 });
    case '400':
      return new UnexpectedStatusError({ operation, httpStatus: 400 });
    case 'aborted':
      return new RequestAbortedError({ operation, delivery: 'not-sent' });
  }
}

// Expected decision per operation class: read-only, write (non-charging), charging.
const TABLE: Record<Kind, [readOnly: boolean, write: boolean, charging: boolean]> = {
  '401': [false, false, false],
  '404': [false, false, false],
  '429': [true, true, true],
  '503': [true, true, true],
  refused: [true, true, true],
  tls: [false, false, false],
  '500': [true, true, false],
  '502': [true, true, false],
  dropped: [true, true, false],
  timeout: [true, true, false],
  'internal-error-code': [true, true, false],
  // An answer trk cannot read may have been processed: like a dropped connection.
  'not-json': [true, true, false],
  envelope: [false, false, false],
  '400': [false, false, false],
  aborted: [false, false, false],
};

const REPRESENTATIVE: Record<'read' | 'write' | 'charging', Operation[]> = {
  read: ['gettracklist', 'gettrackinfo', 'getquota'],
  write: ['stoptrack', 'retrack', 'deletetrack', 'changeinfo', 'push'],
  charging: ['register', 'changecarrier', 'getRealTimeTrackInfo'],
};

describe('retry policy', () => {
  it('classifies every operation', () => {
    for (const op of OPERATIONS) {
      const cls = operationClass(op);
      expect(REPRESENTATIVE[cls]).toContain(op);
    }
  });

  for (const [kind, [readOnly, write, charging]] of Object.entries(TABLE) as [Kind, [boolean, boolean, boolean]][]) {
    it(
      `${kind}: read-only ${readOnly ? 'retries' : 'stops'}, write ${write ? 'retries' : 'stops'}, charging ` +
        `${charging ? 'retries' : 'stops'}`,
      () => {
        for (const op of REPRESENTATIVE.read) expect(shouldRetry(op, failure(kind, op))).toBe(readOnly);
        for (const op of REPRESENTATIVE.write) expect(shouldRetry(op, failure(kind, op))).toBe(write);
        for (const op of REPRESENTATIVE.charging) expect(shouldRetry(op, failure(kind, op))).toBe(charging);
      },
    );
  }

  it('delivery of each failure kind', () => {
    const op: Operation = 'register';
    expect(failure('401', op).delivery).toBe('not-sent');
    expect(failure('429', op).delivery).toBe('not-sent');
    expect(failure('503', op).delivery).toBe('not-sent');
    expect(failure('refused', op).delivery).toBe('not-sent');
    expect(failure('500', op).delivery).toBe('unknown');
    expect(failure('dropped', op).delivery).toBe('unknown');
    expect(failure('timeout', op).delivery).toBe('unknown');
    expect(failure('not-json', op).delivery).toBe('unknown');
    expect(failure('envelope', op).delivery).toBe('processed');
  });

  it('never retries things that are not service errors', () => {
    expect(shouldRetry('gettracklist', new Error('bug'))).toBe(false);
    expect(shouldRetry('gettracklist', 'x')).toBe(false);
  });

  it('wait reasons', () => {
    expect(waitReason(failure('429', 'push'))).toBe('rate-limited');
    expect(waitReason(failure('503', 'push'))).toBe('unavailable');
    expect(waitReason(failure('refused', 'push'))).toBe('network');
    expect(waitReason(failure('timeout', 'push'))).toBe('network');
  });
});

describe('retryDelay', () => {
  const policy = { maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 30_000 };
  const plain = new ServerError({ operation: 'gettracklist', httpStatus: 503 });

  it('full jitter: uniform below base * 2^(attempt-1)', () => {
    expect(retryDelay(1, plain, policy, () => 0)).toBe(0);
    expect(retryDelay(1, plain, policy, () => 0.999999)).toBe(499);
    expect(retryDelay(3, plain, policy, () => 0.5)).toBe(1000);
    expect(retryDelay(4, plain, policy, () => 0.999999)).toBe(3999);
  });

  it('is capped', () => {
    expect(retryDelay(20, plain, policy, () => 0.999999)).toBeLessThan(30_000);
    expect(retryDelay(20, plain, policy, () => 0.999999)).toBeGreaterThan(29_000);
  });

  it('honours Retry-After, capped at maxDelayMs', () => {
    const hinted = new RateLimitError({ operation: 'register', retryAfterMs: 2000 });
    expect(retryDelay(1, hinted, policy, () => 0)).toBe(2000);
    const long = new RateLimitError({ operation: 'register', retryAfterMs: 600_000 });
    expect(retryDelay(1, long, policy, () => 0)).toBe(30_000);
  });

  it('defaults', () => {
    expect(DEFAULT_RETRY.maxAttempts).toBe(5);
    expect(DEFAULT_RETRY.maxDelayMs).toBe(30_000);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-07T12:00:00Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 45 ', now)).toBe(45_000);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
    expect(parseRetryAfter(['2', '9'], now)).toBe(2000);
  });

  it('reads an HTTP date', () => {
    expect(parseRetryAfter('Wed, 07 Jan 2026 12:00:10 GMT', now)).toBe(10_000);
    // A date in the past means "now".
    expect(parseRetryAfter('Wed, 07 Jan 2026 11:00:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('2026', now)).toBe(MAX_HOLD_MS);
  });

  it('honours no more than a minute, in seconds or as a date: a day-long hold would stop every trk on the key', () => {
    expect(MAX_HOLD_MS).toBe(60_000);
    expect(parseRetryAfter('60', now)).toBe(60_000);
    expect(parseRetryAfter('61', now)).toBe(60_000);
    expect(parseRetryAfter('86400', now)).toBe(60_000);
    expect(parseRetryAfter('Thu, 08 Jan 2026 12:00:00 GMT', now)).toBe(60_000);
  });
});
