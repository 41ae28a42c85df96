// A context whose carrier and country lists come from a reference server in this process, with a new cache folder
// for each test: for trk carriers, trk countries and the lookups other commands make.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { OutputFormat } from '../../src/output/format.js';
import { fakeContext } from '../fake-context.js';
import { startReferenceServer, type ReferenceServer } from './reference-server.js';

/** Registers the server's and the cache's hooks; `server` is the running server, `ctxFor` a context on it. */
export function referenceLists() {
  let server: ReferenceServer;
  let cacheDir: string;
  beforeAll(async () => {
    server = await startReferenceServer();
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    cacheDir = await mkdtemp(path.join(tmpdir(), 'trk-carriers-'));
    server.hits = {};
    server.failWith = undefined;
  });
  afterEach(() => rm(cacheDir, { recursive: true, force: true }));
  return {
    get server() {
      return server;
    },
    ctxFor: (output?: OutputFormat, now = Date.parse('2025-03-01T12:00:00Z')) =>
      fakeContext({
        settings: { resUrl: server.url },
        env: { TRK_CACHE_DIR: cacheDir },
        now,
        ...(output ? { global: { output } } : {}),
      }),
  };
}
