// trk countries: the country list searched, with the ISO codes learnt from the carriers.
import { describe, expect, it } from 'vitest';
import { runCountries } from '../../../src/commands/reference/countries.js';
import { referenceLists } from '../../carriers/reference-context.js';

const lists = referenceLists();
const { ctxFor } = lists;

describe('trk countries', () => {
  it('searches the country list and shows ISO codes learnt from the carriers', async () => {
    const ctx = ctxFor();
    expect(await runCountries({ query: 'de' }, ctx)).toBe(0);
    expect(ctx.io.stdoutText().split('\n')[0]).toBe('704\tDE\tGermany');
    const json = ctxFor('json');
    await runCountries({ query: 'island' }, json);
    const items = JSON.parse(json.io.stdoutText());
    expect(items).toContainEqual({ key: 9102, _name: 'Åaland Islands [FI]' }); // as sent, no ISO added
    expect(items.every((i: { _name: string }) => /island/i.test(i._name))).toBe(true);
    expect(ctx.io.stderrText()).toMatch(/229 countries \(fetched just now/);
  });

  it('works without the carrier list, leaving ISO codes empty', async () => {
    const saved = lists.server.bodies['apicarrier.all.json']!;
    lists.server.bodies['apicarrier.all.json'] = 'oops';
    try {
      const ctx = ctxFor();
      expect(await runCountries({ query: 'germany' }, ctx)).toBe(0);
      expect(ctx.io.stdoutText()).toBe('704\t\tGermany\n');
      expect(ctx.io.stderrText()).toMatch(/warning: no ISO codes/);
    } finally {
      lists.server.bodies['apicarrier.all.json'] = saved;
    }
  });
});
