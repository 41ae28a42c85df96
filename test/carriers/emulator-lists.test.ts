// The service's carrier and country lists as trk ships them (kept by @trk/service, copied beside lib/ as data/ by
// the build) and as the emulator serves them at a res URL's paths, read by trk's own list parser and loader.

import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSandbox } from '@trk/sandbox';
import { describe, expect, it } from 'vitest';
import { loadList } from '../../src/carriers/lists.js';
import { parseCarriers, parseCountries } from '../../src/carriers/parse.js';
import { shippedList } from '../../src/carriers/shipped.js';
import { ROOT } from '../e2e/helpers.js';
import { fixtureBytes } from '../fixture-files.js';

describe('the lists trk ships', () => {
  it.each(['apicarrier.all.json', 'country.all.json'])('%s: the recorded list, byte for byte', (file) => {
    const kept = readFileSync(path.join(ROOT, 'packages', 'service', 'data', file));
    expect(kept.equals(fixtureBytes(`reference/${file}`))).toBe(true);
    // package.json's files carry data/, which the build copies from @trk/service beside lib/.
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('data');
  });

  it('read through the carrier list parser, as --sandbox does', async () => {
    const carriers = parseCarriers(await shippedList('carriers'));
    expect(carriers).toHaveLength(2621);
    expect(carriers.find((c) => c.key === 3011)).toMatchObject({
      name: 'China Post',
      countryIso: 'CN',
      countryKey: 301,
    });
    expect(parseCountries(await shippedList('countries'))).toHaveLength(229);
  });
});

describe('the emulator as a res URL', () => {
  it('serves the lists to the list loader', async () => {
    const s = await startSandbox({ speed: 0, start: Date.UTC(2026, 5, 1, 8, 0, 0), rateLimit: 0, strictPaths: true });
    const cacheDir = await mkdtemp(path.join(tmpdir(), 'trk-sandbox-res-'));
    try {
      const opts = { resUrl: s.url, cacheDir, now: () => Date.now(), env: {}, warn: () => {} };
      const carriers = await loadList('carriers', opts);
      expect(carriers.origin).toBe('network');
      expect(parseCarriers(carriers.items).map((c) => c.key)).toContain(100048);
      const countries = await loadList('countries', opts);
      expect(parseCountries(countries.items).map((c) => c.key)).toContain(1918);
    } finally {
      await s.close();
      await rm(cacheDir, { recursive: true, force: true });
    }
  });
});
