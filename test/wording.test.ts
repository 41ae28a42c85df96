// What people read speaks of "the service", never of the real service's brand, and says one thing one way.
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { describeList, type LoadedList } from '../src/carriers/lists.js';
import { CONFIG_KEY_HELP, parseServiceUrl } from '../src/config/keys.js';
import { toDetailsView } from '@trk/service/records.js';
import { renderTrackingPage } from '../src/output/tracking-page.js';
import { helpPages } from '../src/build/write-help-pages.js';
import { accepted, V2_DETAILS } from './output/fixtures.js';

const BRAND = /17\s*track/i;

describe('no brand name of the real service', () => {
  it('in any help page', async () => {
    for (const [line, page] of Object.entries(await helpPages())) expect(page, line).not.toMatch(BRAND);
  });

  it('in the settings described by "trk config list"', () => {
    for (const [key, text] of Object.entries(CONFIG_KEY_HELP)) expect(text, key).not.toMatch(BRAND);
  });

  it('in the hints of a bad address', () => {
    for (const bad of ['not a url', 'ftp://host', 'https://user@host/?q=1']) {
      expect(() => parseServiceUrl(bad, '--base-url', true)).toThrow();
      try {
        parseServiceUrl(bad, '--base-url', true);
      } catch (err) {
        expect(String((err as { hint?: string }).hint)).not.toMatch(BRAND);
      }
    }
  });

  it('on a tracking page whose estimate the service made (its source names the brand)', () => {
    const view = toDetailsView(accepted(V2_DETAILS[2])[0], 'v2');
    expect(view.metrics?.eta_source).toMatch(BRAND);
    const page = renderTrackingPage(view, new Chalk({ level: 0 }), {
      now: Date.parse('2026-07-01T12:00:00Z'),
      width: 80,
    });
    expect(page).toMatch(/Expected\s+2026-07-08 – 2026-07-12 \(estimated by the service\)/);
    expect(page).not.toMatch(BRAND);
  });
});

describe('one wording', () => {
  it('a list fetched a moment ago was "fetched just now", as a cached copy of that age says', () => {
    const list: LoadedList = {
      name: 'carriers',
      items: [],
      url: 'http://127.0.0.1:9/list.json',
      fetchedAt: 1_000,
      origin: 'network',
    };
    expect(describeList(list, 2, ['carrier', 'carriers'], 2_000)).toBe(
      '2 carriers (fetched just now from http://127.0.0.1:9/list.json)',
    );
    expect(describeList({ ...list, origin: 'cache' }, 2, ['carrier', 'carriers'], 2_000)).toBe(
      '2 carriers (fetched just now from http://127.0.0.1:9/list.json)',
    );
  });
});
