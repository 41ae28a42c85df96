// Plain HTTP calls to the emulator for the transport tests: no client logic in between, so that what the
// sandbox answers is what the test sees.

import { Agent, request } from 'undici';
import { afterAll } from 'vitest';
import { type RunningSandbox, type SandboxOptions, startSandbox } from '../src/http/server.js';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

export const agent = new Agent({ keepAliveTimeout: 10_000 });

export async function call(
  url: string,
  path: string,
  opts: { key?: string | undefined; body?: string | Buffer; contentType?: string | null; method?: 'POST' | 'GET' } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  const contentType = opts.contentType === undefined ? 'application/json' : opts.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  if (opts.key !== undefined) headers.svctoken = opts.key;
  const res = await request(`${url}${path}`, {
    method: opts.method ?? 'POST',
    headers,
    body: opts.method === 'GET' ? null : (opts.body ?? '[]'),
    dispatcher: agent,
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

/** POST a JSON body to a control endpoint (or GET the state). */
export async function control(url: string, path: string, body?: unknown): Promise<Answer> {
  return call(url, `/__sandbox/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/**
 * Starts the sandboxes of one test file, all closed after it: simulated time stands at `start` until a test
 * moves it, and there is no rate limit unless a test sets one.
 */
export function sandboxStarter(start: number): (opts?: SandboxOptions) => Promise<RunningSandbox> {
  const running: RunningSandbox[] = [];
  afterAll(async () => {
    await Promise.all(running.map((s) => s.close()));
  });
  return async (opts = {}) => {
    const s = await startSandbox({ speed: 0, start, rateLimit: 0, strictPaths: true, ...opts });
    running.push(s);
    return s;
  };
}

/** Register one number with China Post (3011). */
export function register(s: RunningSandbox, number: string, version = 'v2'): Promise<Answer> {
  return call(s.url, `/track/${version}/register`, { key: s.key, body: JSON.stringify([{ number, carrier: 3011 }]) });
}
