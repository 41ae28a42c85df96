// The carrier and country lookups with --sandbox: the service's lists shipped with the emulator (its carriers),
// with no network (the res URL below is a counting stand-in that must see no request) and without touching the
// real lists' cache.

import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cachePath } from '../../src/carriers/lists.js';
import { carrierNames, carrierResolver, countryNames, loadCarriers } from '../../src/carriers/lookup.js';
import { runCarriers } from '../../src/commands/reference/carriers.js';
import { runCountries } from '../../src/commands/reference/countries.js';
import type { OutputFormat } from '../../src/output/format.js';
import { fakeContext } from '../fake-context.js';
import { startReferenceServer, type ReferenceServer } from './reference-server.js';

let server: ReferenceServer;
let cacheDir: string;

beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(() => server.close());
beforeEach(async () => {
  cacheDir = await mkdtemp(path.join(tmpdir(), 'trk-carriers-sandbox-'));
  server.hits = {};
});
afterEach(() => rm(cacheDir, { recursive: true, force: true }));

const ctxFor = (sandbox: boolean, output?: OutputFormat) =>
  fakeContext({
    settings: { resUrl: server.url, sandbox },
    env: { TRK_CACHE_DIR: cacheDir },
    ...(output ? { global: { output } } : {}),
  });

const noNetwork = () => expect(server.hits).toEqual({});

describe('--sandbox lists', () => {
  it("trk carriers lists the emulator's carriers (the whole service list), saying where they come from", async () => {
    const ctx = ctxFor(true, 'json');
    expect(await runCarriers({ query: 'china' }, ctx)).toBe(0);
    const items = JSON.parse(ctx.io.stdoutText()) as { key: number; _name: string }[];
    expect(items).toContainEqual(expect.objectContaining({ key: 3011, _name: 'China Post', _country_iso: 'CN' }));
    expect(ctx.io.stderrText()).toMatch(/of 2,?621 carriers \(the sandbox's simulated world\)/);
    noNetwork();
    expect(await readdir(cacheDir)).toEqual([]);
  });

  it('trk countries lists the simulated countries with their v1 keys and ISO codes', async () => {
    const ctx = ctxFor(true); // piped: tab-separated rows
    expect(await runCountries({ query: 'china' }, ctx)).toBe(0);
    expect(ctx.io.stdoutText().trim()).toBe('301\tCN\tChina');
    noNetwork();
  });

  it('resolves carrier names in any language, and checks codes against the simulated carriers', async () => {
    const resolve = carrierResolver(ctxFor(true));
    expect(await resolve('China Post')).toBe(3011);
    expect(await resolve('中国邮政')).toBe(3011);
    expect(await resolve('100003')).toBe(100003);
    // Every carrier of the service's list is one of the emulator's, not only those simulated in detail.
    expect(await resolve('Correos Express')).toBe(100048);
    expect(await resolve('100048')).toBe(100048);
    await expect(resolve('No Such Parcel Company')).rejects.toThrow(/unknown carrier "No Such Parcel Company"/);
    noNetwork();
  });

  it('names codes for tables without any cache', async () => {
    const ctx = ctxFor(true);
    expect((await carrierNames(ctx))(3011)).toBe('China Post');
    const countries = await countryNames(ctx);
    expect(countries(301)).toBe('CN');
    expect(countries(2105)).toBe('US');
    noNetwork();
    expect(await readdir(cacheDir)).toEqual([]);
  });

  it('leaves the real lists and their cache alone', async () => {
    // A normal run fetches and caches the real list (here one where 190008 goes by another name)...
    const realList = JSON.parse(server.bodies['apicarrier.all.json']!.toString()) as { key: number; _name: string }[];
    server.bodies['apicarrier.all.json'] = JSON.stringify(
      realList.map((c) => (c.key === 190008 ? { ...c, _name: 'Renamed Carrier' } : c)),
    );
    const real = await loadCarriers(ctxFor(false));
    expect(real.carriers.find((c) => c.key === 190008)?.name).toBe('Renamed Carrier');
    const file = cachePath(cacheDir, 'carriers', real.list.url);
    const before = await readFile(file, 'utf8');
    server.hits = {};
    // ...a sandbox run ignores it, even with --refresh, and names carriers from its own list...
    const sandbox = await loadCarriers(ctxFor(true), { refresh: true });
    expect(sandbox.carriers).toHaveLength(2621);
    expect(sandbox.list.origin).toBe('sandbox');
    expect((await carrierNames(ctxFor(true)))(190008)).toBe(realList.find((c) => c.key === 190008)?._name);
    noNetwork();
    expect(await readFile(file, 'utf8')).toBe(before);
    // ...and the next normal run still names the real carriers from the cache.
    expect((await carrierNames(ctxFor(false)))(190008)).toBe('Renamed Carrier');
  });
});
