// Command lines run against the fake client with a cache folder holding the shared reference lists (carriers and
// countries), as `trk carriers` would have saved them; the resource address points at a closed port, so any fetch
// fails the command. For the tests of carrier names given to flags and shown in tables.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { errorOutcome } from '../../src/cli.js';
import { cachePath, listUrl } from '../../src/carriers/lists.js';
import { createFake, type FakeOptions } from '../fake-context.js';
import { REFERENCE } from '../fixture-files.js';
import { runProgram } from './run-program.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');
const RES_URL = 'http://127.0.0.1:9';

/** A cache folder with the reference lists as `trk carriers` would have saved them (or empty). */
function cacheDir(dirs: string[], withLists: boolean): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'trk-names-'));
  dirs.push(dir);
  if (withLists) {
    mkdirSync(dir, { recursive: true });
    for (const [name, file] of [
      ['carriers', 'apicarrier.all.json'],
      ['countries', 'country.all.json'],
    ] as const) {
      const items = JSON.parse(readFileSync(path.join(REFERENCE, file), 'utf8')) as unknown[];
      writeFileSync(
        cachePath(dir, name, listUrl(RES_URL, name)),
        JSON.stringify({ url: listUrl(RES_URL, name), fetched_at: new Date(NOW).toISOString(), items }),
      );
    }
  }
  return dir;
}

/**
 * Registers the removal of the cache folders after each test; the function returned runs a command line with the
 * lists cached (or not, with `lists: false`): its exit code, its error line, the calls sent, stdout and the fake.
 */
export function withCachedLists() {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return async (argv: string[], opts: FakeOptions & { lists?: boolean } = {}) => {
    const fake = createFake({ now: NOW, env: { TRK_CACHE_DIR: cacheDir(dirs, opts.lists ?? true) }, ...opts });
    const { code, error } = await runProgram(fake, argv);
    const line = error === undefined ? '' : errorOutcome(error).line;
    return { code, line, calls: fake.calls, out: fake.io.stdoutText(), fake };
  };
}
