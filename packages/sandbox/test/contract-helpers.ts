// Shared pieces of the contract tests (contract-*.http.test.ts): an emulator on 127.0.0.1 with a frozen
// simulated clock, a webhook receiver on 127.0.0.1, and plain POSTs to /track/<version>/<path> through
// packages/sandbox/test/http.ts, so that what the emulator answers over HTTP is exactly what the tests see.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';

import type { ApiVersion, Operation } from '@trk/service/vocabulary.js';
import { operationPath } from '@trk/service/operations/index.js';
import { type RunningSandbox, type SandboxOptions, startSandbox } from '../src/http/server.js';
import { type Answer, call } from './http.js';

export const START = Date.UTC(2026, 5, 1, 8, 0, 0);
export const SEC = 1000;
export const MIN = 60 * SEC;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;

export const VERSIONS: readonly ApiVersion[] = ['v1', 'v2', 'v2.1'];
export const V2_VERSIONS: readonly ('v2' | 'v2.1')[] = ['v2', 'v2.1'];

export { fixtureJson } from '../../../test/fixture-files.js';

/**
 * An emulator on 127.0.0.1, port 0, rate limit off, simulated time frozen at START (speed 0): only
 * `advance` moves it, so every row sees the same schedule whatever the machine's load.
 */
export function openSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ port: 0, host: '127.0.0.1', rateLimit: 0, speed: 0, start: START, strictPaths: true, ...opts });
}

/** `/track/<version>/<path>` in the version's casing; throws for an operation the version lacks. */
export function apiPath(version: ApiVersion, op: Operation): string {
  const p = operationPath(version, op);
  if (p === undefined) throw new Error(`${version} has no ${op}`);
  return `/track/${version}/${p}`;
}

/** Every (version, operation) the spec gives a path. */
export const ROUTES: readonly { version: ApiVersion; op: Operation }[] = VERSIONS.flatMap((version) =>
  (
    [
      'register',
      'changecarrier',
      'changeinfo',
      'stoptrack',
      'retrack',
      'deletetrack',
      'getquota',
      'gettracklist',
      'gettrackinfo',
      'push',
      'getRealTimeTrackInfo',
    ] as const
  )
    .filter((op) => operationPath(version, op) !== undefined)
    .map((op) => ({ version, op })),
);

/** Rows of an `it.each` table with a plain-text title each (`it.each(titled(rows, f))('%s', (_, row) => ...)`). */
export function titled<R>(rows: readonly R[], title: (row: R) => string): [string, R][] {
  return rows.map((row) => [title(row), row]);
}

/** POST `body` (JSON-encoded unless it is already a string) with the sandbox's key. */
export function post(
  s: RunningSandbox,
  version: ApiVersion,
  op: Operation,
  body: unknown,
  opts: { contentType?: string | null; key?: string } = {},
): Promise<Answer> {
  return call(s.url, apiPath(version, op), {
    key: opts.key ?? s.key,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...(opts.contentType === undefined ? {} : { contentType: opts.contentType }),
  });
}

/** quota_used, read over v2 (v1 has no getquota; the account is the same). */
export async function quotaUsed(s: RunningSandbox): Promise<number> {
  const a = await post(s, 'v2', 'getquota', []);
  expect(a.status).toBe(200);
  expect(a.json.code).toBe(0);
  return a.json.data.quota_used as number;
}

/** A request whose every item must be accepted (setup steps). */
export async function accepted(s: RunningSandbox, version: ApiVersion, op: Operation, body: unknown): Promise<any[]> {
  const a = await post(s, version, op, body);
  expect(a.status, `${version} ${op}`).toBe(200);
  expect(a.json.code, `${version} ${op}: ${a.text}`).toBe(0);
  expect(a.json.data.rejected, `${version} ${op}: ${a.text}`).toEqual([]);
  return a.json.data.accepted;
}

/** The tracking state of a record as gettracklist shows it, read through one version's fields. */
export interface TrackState {
  tracking_status: 'Tracking' | 'Stopped';
  stop_track_reason: 'Expired' | 'ByRequest' | 'InvalidCarrier' | 'Manual' | null;
  is_retracked: boolean;
}

/** v1 `sr`: 1 expiry rules, 2 API request, 3 manual operation, 4 invalid carrier. */
const V1_STOP_REASON: Record<number, TrackState['stop_track_reason']> = {
  1: 'Expired',
  2: 'ByRequest',
  3: 'Manual',
  4: 'InvalidCarrier',
};

/** The gettracklist record(s) of exactly this number (the one-number filter is fuzzy). */
export async function listed(s: RunningSandbox, version: ApiVersion, number: string): Promise<any[]> {
  const a = await post(s, version, 'gettracklist', { number });
  expect(a.status).toBe(200);
  expect(a.json.code).toBe(0);
  return (a.json.data.accepted as any[]).filter((r) => r.number === number);
}

/**
 * The state of the one record of `number`, undefined when it is not in the account. v1's short fields
 * (`ts` tracking, `sr` stop reason code, `ir` re-tracked) are translated to v2's names, and their types
 * checked on the way.
 */
export async function stateOf(s: RunningSandbox, version: ApiVersion, number: string): Promise<TrackState | undefined> {
  const recs = await listed(s, version, number);
  expect(recs.length).toBeLessThanOrEqual(1);
  const r = recs[0];
  if (r === undefined) return undefined;
  if (version === 'v1') {
    expect(typeof r.ts).toBe('boolean');
    expect(typeof r.ir).toBe('boolean');
    expect(r.sr === null || [1, 2, 3, 4].includes(r.sr)).toBe(true);
    return {
      tracking_status: r.ts ? 'Tracking' : 'Stopped',
      stop_track_reason: r.sr === null ? null : (V1_STOP_REASON[r.sr] ?? null),
      is_retracked: r.ir,
    };
  }
  return { tracking_status: r.tracking_status, stop_track_reason: r.stop_track_reason, is_retracked: r.is_retracked };
}

/** A notification as the receiver got it. */
export interface Received {
  path: string;
  event: string;
  number: string;
  body: any;
}

/** A webhook receiver on 127.0.0.1 answering 200 and keeping what it got, in order. */
export class Receiver {
  readonly received: Received[] = [];
  #server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        this.received.push({ path: req.url ?? '', event: body.event, number: body.data?.number, body });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => this.#server?.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/hook`;
    return this;
  }

  /** Events received for one number, in order of arrival. */
  eventsFor(number: string): string[] {
    return this.received.filter((r) => r.number === number).map((r) => r.event);
  }

  async close(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}
