// What an attempt's outcome means, without a network: answers decoded into envelopes or typed errors, transport
// failures into network errors that say whether the request can have left.
import { describe, expect, it } from 'vitest';
import { decodeAnswer, networkError, type HttpAnswer } from '../../src/api/answers.js';
import {
  AuthenticationError,
  EndpointNotFoundError,
  EnvelopeError,
  InvalidResponseError,
  NetworkError,
  RateLimitError,
  ServerError,
  UnexpectedStatusError,
} from '../../src/api/errors.js';

const OK = { code: 0, data: { accepted: [{ number: 'RR123456789CN', carrier: 3011 }], rejected: [] } };

function answer(status: number, body: unknown, headers: HttpAnswer['headers'] = {}): HttpAnswer {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { op: 'register', url: 'http://127.0.0.1:1/track/v2.1/register', version: 'v2.1', status, headers, text };
}

function thrown(a: HttpAnswer): unknown {
  try {
    decodeAnswer(a);
  } catch (err) {
    return err;
  }
  throw new Error('decoded without an error');
}

describe('decodeAnswer', () => {
  it("returns the envelope of a 200 of the operation's shape", () => {
    expect(decodeAnswer(answer(200, OK))).toEqual(OK);
  });

  it('a 200 that is not JSON, no envelope, or not of the shape is an InvalidResponseError', () => {
    const html = thrown(answer(200, '<html>', { 'content-type': 'text/html; charset=utf-8' }));
    expect(html).toBeInstanceOf(InvalidResponseError);
    expect((html as Error).message).toContain('not JSON (HTTP 200, text/html)');
    expect((thrown(answer(200, [1, 2])) as Error).message).toContain('no envelope (HTTP 200)');
    const shape = thrown(answer(200, { code: 0, data: { accepted: 'x' } }));
    expect(shape).toBeInstanceOf(InvalidResponseError);
    expect((shape as Error).message).toContain('(register, HTTP 200)');
  });

  it('maps statuses to their errors: 401, 404, 429 with Retry-After, 5xx', () => {
    const auth = thrown(answer(401, { code: 401, data: { errors: [{ code: -18010002, message: 'bad key' }] } }));
    expect(auth).toBeInstanceOf(AuthenticationError);
    const missing = thrown(answer(404, 'not found'));
    expect(missing).toBeInstanceOf(EndpointNotFoundError);
    expect((missing as EndpointNotFoundError).url).toBe('http://127.0.0.1:1/track/v2.1/register');
    expect((missing as EndpointNotFoundError).toLine()).toContain('v2.1');
    const limited = thrown(answer(429, '', { 'retry-after': '2' }));
    expect(limited).toBeInstanceOf(RateLimitError);
    expect((limited as RateLimitError).retryAfterMs).toBe(2000);
    const down = thrown(answer(503, 'down'));
    expect(down).toBeInstanceOf(ServerError);
    expect((down as ServerError).httpStatus).toBe(503);
  });

  it('an envelope refusing the request is an EnvelopeError, or an AuthenticationError for an account code', () => {
    const refused = thrown(answer(200, { code: -18010013, data: { errors: [{ code: -18010013, message: 'no' }] } }));
    expect(refused).toBeInstanceOf(EnvelopeError);
    expect((refused as EnvelopeError).serviceCode).toBe(-18010013);
    const disabled = thrown(answer(200, { code: 0, data: { errors: [{ code: -18010004, message: 'disabled' }] } }));
    expect(disabled).toBeInstanceOf(AuthenticationError);
    expect((disabled as AuthenticationError).delivery).toBe('processed');
    expect(thrown(answer(400, { code: -18010013, data: {} }))).toBeInstanceOf(EnvelopeError);
  });

  it('another status is an UnexpectedStatusError; a redirect names where the service points, cleaned', () => {
    const moved = thrown(answer(301, '', { location: 'https://elsewhere.example/\u001b[31m' }));
    expect(moved).toBeInstanceOf(UnexpectedStatusError);
    const line = (moved as UnexpectedStatusError).toLine();
    expect(line).toContain('the service redirects to https://elsewhere.example/[31m');
    expect(thrown(answer(418, 'teapot'))).toBeInstanceOf(UnexpectedStatusError);
  });
});

describe('networkError', () => {
  const failure = (code: string | undefined, extra: object = {}) => Object.assign(new Error('failed'), { code }, extra);

  it('a failure before the request was written is not-sent; after, unknown', () => {
    const refused = networkError('register', 'h:1', failure('ECONNREFUSED'));
    expect(refused).toBeInstanceOf(NetworkError);
    expect(refused.delivery).toBe('not-sent');
    expect(networkError('register', 'h:1', failure('ECONNRESET')).delivery).toBe('unknown');
    // undici wraps the system's code in its cause.
    const wrapped = networkError('register', 'h:1', failure('UND_ERR_SOCKET', { cause: { code: 'EHOSTUNREACH' } }));
    expect((wrapped as NetworkError).reason).toBe('EHOSTUNREACH');
    expect(wrapped.delivery).toBe('not-sent');
  });

  it('a TLS failure is not-sent and says so; a proxy refusing the tunnel too', () => {
    const tls = networkError('register', 'h:1', failure('CERT_HAS_EXPIRED')) as NetworkError;
    expect(tls.delivery).toBe('not-sent');
    expect(tls.reason).toBe('CERT_HAS_EXPIRED');
    const proxy = networkError('register', 'h:1', Object.assign(new Error('Proxy response (407) !== 200'), {}));
    expect(proxy.delivery).toBe('not-sent');
  });

  it('rethrows what is not a failure of the network (a bug, a bad argument)', () => {
    const bug = new TypeError('x is not a function');
    expect(() => networkError('register', 'h:1', bug)).toThrow(bug);
    expect(() => networkError('register', 'h:1', failure('UND_ERR_INVALID_ARG'))).toThrow('failed');
  });
});
