// What the completion scripts ask trk for at a <Tab>: carrier names from the cached list, never a download.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../carriers/reference-server.js';
import { baseEnv, trk } from '../../e2e/helpers.js';

let ref: ReferenceServer;

beforeAll(async () => {
  ref = await startReferenceServer();
});

afterAll(async () => {
  await ref?.close();
});

const CARRIERS = 'apicarrier.all.json';

describe('trk __complete carriers', () => {
  it('offers the cached list, name then code and country; a <Tab> downloads nothing', async () => {
    const env = { ...baseEnv(), TRK_RES_URL: ref.url };
    // Nothing cached yet: the list shipped with trk answers, and nothing is fetched.
    const shipped = await trk(['__complete', 'carriers'], { env });
    expect(shipped.code, shipped.stderr).toBe(0);
    expect(shipped.stdout).toMatch(/^China Post\t3011 CN$/m);
    expect(ref.hits[CARRIERS] ?? 0).toBe(0);

    // A list fetched once (trk carriers) is what later <Tab>s offer, with names only that list has.
    ref.bodies[CARRIERS] = JSON.stringify([
      { key: 3011, _country: 301, _country_iso: 'CN', _name: 'China Post', _group: '' },
      { key: 990001, _country: 301, _country_iso: 'CN', _name: 'Only In The Cache', _group: '' },
    ]);
    expect((await trk(['carriers', '-q'], { env })).code).toBe(0);
    expect(ref.hits[CARRIERS]).toBe(1);
    const cached = await trk(['__complete', 'carriers'], { env });
    expect(cached.stdout.split('\n').filter(Boolean)).toEqual(['China Post\t3011 CN', 'Only In The Cache\t990001 CN']);
    expect(ref.hits[CARRIERS]).toBe(1);
  });
});
