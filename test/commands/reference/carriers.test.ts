// trk carriers: the list searched, its columns and formats, the cache, --refresh and an old copy offline.
import { describe, expect, it } from 'vitest';
import { runCarriers } from '../../../src/commands/reference/carriers.js';
import { referenceLists } from '../../carriers/reference-context.js';

const lists = referenceLists();
const { ctxFor } = lists;

const DAY = 24 * 60 * 60 * 1000;

describe('trk carriers', () => {
  it('prints the matching carriers as the service sent them with --json, and the list age on stderr', async () => {
    const ctx = ctxFor('json');
    expect(await runCarriers({ query: 'DHL Express' }, ctx)).toBe(0);
    const items = JSON.parse(ctx.io.stdoutText());
    expect(items[0]).toEqual(expect.objectContaining({ key: 100001, _name: 'DHL Express', _country_iso: 'DE' }));
    expect(items.every((i: { _name: string }) => /dhl express/i.test(i._name))).toBe(true);
    expect(ctx.io.stderrText()).toMatch(/match "DHL Express"/);
    expect(ctx.io.stderrText()).toMatch(
      /2621 carriers \(fetched just now from http:\/\/127\.0\.0\.1:\d+\/asset\/carrier\/info\/apicarrier\.all\.json\)/,
    );
  });

  it('shows key, name, country and url columns, using the cache the second time', async () => {
    await runCarriers({}, ctxFor('json'));
    const later = ctxFor(undefined, Date.parse('2025-03-03T12:00:00Z'));
    await runCarriers({ query: '3011' }, later);
    expect(later.io.stdoutText().split('\n')[0]).toBe('3011\tChina Post\tCN\thttps://yjcx.ems.com.cn/');
    expect(later.io.stderrText()).toMatch(/fetched 2 days ago/);
    expect(lists.server.hits['apicarrier.all.json']).toBe(1);
  });

  it('refetches with --refresh', async () => {
    await runCarriers({}, ctxFor('json'));
    const ctx = ctxFor('csv');
    await runCarriers({ query: 'usps', refresh: true }, ctx);
    expect(lists.server.hits['apicarrier.all.json']).toBe(2);
    expect(ctx.io.stdoutText().split('\n').slice(0, 2)).toEqual([
      'key,name,country,url',
      '21051,USPS,US,https://www.usps.com/',
    ]);
  });

  it('uses an old copy when offline, with a warning', async () => {
    await runCarriers({}, ctxFor('json'));
    lists.server.failWith = 503;
    const ctx = ctxFor('json', Date.parse('2025-03-01T12:00:00Z') + 30 * DAY);
    expect(await runCarriers({ query: 'yanwen' }, ctx)).toBe(0);
    expect(JSON.parse(ctx.io.stdoutText())[0].key).toBe(190012);
    expect(ctx.io.stderrText()).toMatch(
      /warning: could not refresh the carrier list .* using the copy fetched 30 days ago/,
    );
  });

  it('prints an empty list and exits 0 when nothing matches', async () => {
    const ctx = ctxFor('json');
    expect(await runCarriers({ query: 'zzqqxx' }, ctx)).toBe(0);
    expect(JSON.parse(ctx.io.stdoutText())).toEqual([]);
  });
});
