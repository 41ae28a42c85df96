import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  EnvelopeError,
  NetworkError,
  RequestAbortedError,
  ServerError,
  ServiceError,
  describeCode,
  isAuthCode,
} from '../../src/api/errors.js';
import { TrkError } from '../../src/core/errors.js';

describe('service errors', () => {
  it('are TrkErrors carrying operation, status, code and delivery', () => {
    const e = new EnvelopeError({ operation: 'register', httpStatus: 200, serviceCode: -18019908 });
    expect(e).toBeInstanceOf(ServiceError);
    expect(e).toBeInstanceOf(TrkError);
    expect(e.name).toBe('EnvelopeError');
    expect([e.operation, e.httpStatus, e.serviceCode, e.delivery, e.exitCode]).toEqual([
      'register',
      200,
      -18019908,
      'processed',
      1,
    ]);
  });

  it('authentication codes exit 4 with the hint of the table', () => {
    for (const code of [-18010001, -18010002, -18010004, -18010005]) {
      expect(isAuthCode(code)).toBe(true);
      const e = new AuthenticationError({ operation: 'gettracklist', httpStatus: 401, serviceCode: code });
      expect(e.exitCode).toBe(4);
      expect(e.toLine()).toContain(`(${code}): `);
    }
    expect(isAuthCode(-18019908)).toBe(false);
    expect(isAuthCode(undefined)).toBe(false);
    expect(new AuthenticationError({ operation: 'push', serviceCode: -18010004 }).toLine()).toBe(
      "account disabled (-18010004): contact the service's support to re-enable the account",
    );
  });

  it('describeCode: table text, placeholders, unknown codes, no control characters', () => {
    expect(describeCode(-18019908)).toBe('quota exhausted (-18019908)');
    expect(describeCode(-18019901)).toBe('number already registered (-18019901)');
    expect(describeCode(-18019901, "The number 'X' is registered.")).toBe(
      "number already registered (-18019901: The number 'X' is registered.)",
    );
    // Whole escape sequences go (no leftover "[31m"), and so do bidi overrides and line breaks.
    expect(describeCode(-18000000, 'Strange\u001b[31m failure')).toBe('Strange failure (-18000000)');
    expect(describeCode(-18000000, 'abc\u202Efed\r\nnext')).toBe('abcfed next (-18000000)');
    expect(describeCode(-18000000)).toBe('service error (-18000000)');
  });

  it('attempts show in the line; 503 is not-sent, 500 unknown; abort exits 130', () => {
    const e = new ServerError({ operation: 'gettracklist', httpStatus: 500 });
    e.attempts = 5;
    expect(e.toLine()).toBe('server error of the service (HTTP 500) (after 5 attempts): retry later');
    expect(e.delivery).toBe('unknown');
    expect(new ServerError({ operation: 'register', httpStatus: 503 }).delivery).toBe('not-sent');
    expect(new RequestAbortedError({ operation: 'register', delivery: 'unknown' }).exitCode).toBe(130);
    const tls = new NetworkError({
      operation: 'push',
      host: 'h',
      reason: 'CERT_HAS_EXPIRED',
      delivery: 'not-sent',
      tls: true,
    });
    expect(tls.toLine()).toContain('certificate');
  });
});
