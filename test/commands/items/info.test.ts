// trk info: tracking pages, tables and formats, --watch, --status and --sub-status.
import { describe, expect, it } from 'vitest';
import { runInfo } from '../../../src/commands/items/info-online.js';
import { UsageError } from '../../../src/core/errors.js';
import { createFake, type Handler } from '../../fake-context.js';
import { correios, trackInfo, yanwen } from '../track-info.js';
import { withCachedLists } from '../carrier-lists.js';

describe('runInfo', () => {
  it('on a terminal: one number reads as a tracking page, several as a compact table, --page as pages', async () => {
    const one = createFake({ handler: trackInfo, tty: true });
    expect(await runInfo({ numbers: ['AA123456789BR'] }, one.ctx)).toBe(0);
    expect(one.io.stdoutText()).toMatch(/^AA123456789BR {2}· {2}2151/);
    expect(one.io.stdoutText()).toContain('Events (');

    const several = createFake({ handler: trackInfo, tty: true });
    expect(await runInfo({ numbers: ['AA123456789BR', 'YT2616912345678901'] }, several.ctx)).toBe(0);
    const lines = several.io.stdoutText().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NUMBER +STATUS +SUB-STATUS +LAST EVENT/);
    expect(lines.slice(1).map((l) => l.split(/ +/)[0])).toEqual(['AA123456789BR', 'YT2616912345678901']);
    expect(several.calls).toHaveLength(1);

    const pages = createFake({ handler: trackInfo, tty: true });
    await runInfo({ numbers: ['AA123456789BR', 'YT2616912345678901'], pages: true }, pages.ctx);
    expect(pages.io.stdoutText().match(/Events \(/g)).toHaveLength(2);
  });

  it('-o table is the table even for one number, -o wide every column', async () => {
    const table = createFake({ handler: trackInfo, tty: true, global: { output: 'table' } });
    await runInfo({ numbers: ['AA123456789BR'] }, table.ctx);
    expect(table.io.stdoutText()).toMatch(/^NUMBER +(CARRIER +)?STATUS +SUB-STATUS/);
    const wide = createFake({ handler: trackInfo, tty: true, global: { output: 'wide' } });
    await runInfo({ numbers: ['AA123456789BR'] }, wide.ctx);
    expect(wide.io.stdoutText().split('\n')[0]).toMatch(/^NUMBER +CARRIER +LAST MILE|^NUMBER +CARRIER +STATUS/);
    expect(wide.io.stdoutText().split('\n')[0]).toContain('EVENTS');
  });

  it(
    '-o text: a plain summary of each parcel to paste into a reply, a refused number as a line of ' + 'its own',
    async () => {
      const fake = createFake({ handler: trackInfo, global: { output: 'text' } });
      expect(await runInfo({ numbers: ['AA123456789BR', 'YT2616912345678901', 'XX999999999XX'] }, fake.ctx)).toBe(3);
      expect(fake.io.stdoutText()).toBe(
        [
          'Tracking number AA123456789BR (Correios)',
          'Status: Delivered',
          'Last event: 2026-06-30 14:23, RECIFE, PE: Object delivered to the recipient',
          'Delivered: 2026-06-30 14:23',
          '',
          'Tracking number YT2616912345678901 (Yanwen)',
          'Status: In transit — arrived at destination port',
          'Last event: 2026-06-29 21:05 +08:00, LOS ANGELES, US: Arrived at destination country port',
          'Expected delivery: between 2026-07-08 and 2026-07-12',
          '',
          'Tracking number XX999999999XX: The number XX999999999XX is not registered.',
          '',
        ].join('\n'),
      );
    },
  );

  it('-o text with --columns is refused before sending', async () => {
    const fake = createFake({ handler: trackInfo, global: { output: 'text', columns: ['number'] } });
    await expect(runInfo({ numbers: ['AA123456789BR'] }, fake.ctx)).rejects.toThrow(
      /-o text is a summary of each parcel/,
    );
    expect(fake.calls).toHaveLength(0);
  });

  it('--page with a format that has no pages is refused before sending', async () => {
    const fake = createFake({ handler: trackInfo, global: { output: 'json' } });
    await expect(runInfo({ numbers: ['AA123456789BR'], pages: true }, fake.ctx)).rejects.toThrow(UsageError);
    expect(fake.calls).toHaveLength(0);
  });

  it('--watch looks again until the shipment is delivered, and prints it again when it changed', async () => {
    let looks = 0;
    const inTransit = { ...yanwen.data!.accepted![0]! } as Record<string, unknown>;
    const handler: Handler = (_op, _body) => {
      looks += 1;
      const item = looks < 3 ? inTransit : { ...correios.data!.accepted![0]!, number: 'YT2616912345678901' };
      return { code: 0, data: { accepted: [item], rejected: [] } };
    };
    const fake = createFake({ handler, global: { output: 'ndjson' } });
    expect(await runInfo({ numbers: ['YT2616912345678901'], watch: true, every: 5 }, fake.ctx)).toBe(0);
    expect(looks).toBe(3);
    // The first look and the changed third one; the second, the same as the first, is not printed again.
    expect(fake.io.stdoutText().trim().split('\n')).toHaveLength(2);
    expect(fake.io.stderrText()).toContain('Delivered_Other: done watching');
  });

  it('--watch waits through "no tracking information yet" (-18019909) until the first result comes', async () => {
    let looks = 0;
    const delivered = { ...correios.data!.accepted![0]!, number: 'YT2616912345678901' };
    const handler: Handler = () => {
      looks += 1;
      if (looks < 3) {
        const error = { code: -18019909, message: 'no tracking information yet' };
        const rejected = [{ number: 'YT2616912345678901', carrier: 190012, tag: null, error }];
        return { code: 0, data: { accepted: [], rejected } };
      }
      return { code: 0, data: { accepted: [delivered], rejected: [] } };
    };
    const fake = createFake({ handler, global: { output: 'ndjson' } });
    expect(await runInfo({ numbers: ['YT2616912345678901'], watch: true, every: 5 }, fake.ctx)).toBe(0);
    expect(looks).toBe(3);
    expect(fake.io.stderrText()).toContain('Delivered_Other: done watching');
  });

  it('--watch takes numbers as arguments, and says when none of them is registered', async () => {
    await expect(
      runInfo({ numbers: [], file: 'x.csv', watch: true }, createFake({ handler: trackInfo }).ctx),
    ).rejects.toThrow(/--watch looks at numbers given as arguments/);
    await expect(
      runInfo({ numbers: ['XX000000000XX'], watch: true, every: 5 }, createFake({ handler: trackInfo }).ctx),
    ).rejects.toThrow(/nothing to watch: XX000000000XX is not registered/);
  });

  it('--json prints accepted and rejected as the service sent them, exit 3 on a rejection', async () => {
    const fake = createFake({ handler: trackInfo, global: { output: 'json' } });
    expect(await runInfo({ numbers: ['AA123456789BR', 'XX000000000XX'] }, fake.ctx)).toBe(3);
    const out = JSON.parse(fake.io.stdoutText()) as {
      accepted: unknown[];
      rejected: { number: string; error: { code: number } }[];
    };
    expect(out.accepted).toEqual([correios.data!.accepted![0]]);
    expect(out.rejected).toEqual([
      { number: 'XX000000000XX', error: { code: -18019902, message: 'The number XX000000000XX is not registered.' } },
    ]);
  });

  it('CSV: one details row per number, the rejected one carrying its error', async () => {
    const fake = createFake({ handler: trackInfo, global: { output: 'csv' } });
    await runInfo({ numbers: ['AA123456789BR', 'XX000000000XX'] }, fake.ctx);
    const lines = fake.io.stdoutText().trim().split(/\r?\n/);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^number,carrier,.*status.*result,error_code,error_message/);
    expect(lines[1]).toMatch(/^AA123456789BR,2151,.*accepted/);
    expect(lines[2]).toMatch(/^XX000000000XX,.*rejected,-18019902,/);
  });

  it('on a terminal shows rejected numbers after the pages', async () => {
    const fake = createFake({ handler: trackInfo, tty: true });
    expect(await runInfo({ numbers: ['AA123456789BR', 'XX000000000XX'] }, fake.ctx)).toBe(3);
    expect(fake.io.stdoutText()).toMatch(/XX000000000XX.*rejected.*-18019902/);
  });
});

describe('runInfo --status / --sub-status', () => {
  const numbers = ['AA123456789BR', 'YT2616912345678901', 'XX000000000XX'];
  const json = async (opts: { status?: string[]; subStatus?: string[] }) => {
    const fake = createFake({ handler: trackInfo, global: { output: 'json' } });
    const code = await runInfo({ numbers, ...opts }, fake.ctx);
    const out = JSON.parse(fake.io.stdoutText()) as { accepted: { number: string }[]; rejected: { number: string }[] };
    return { code, accepted: out.accepted.map((a) => a.number), rejected: out.rejected.map((r) => r.number) };
  };

  it('keeps only the numbers whose latest status matches; rejected numbers stay visible', async () => {
    expect(await json({ status: ['Delivered'] })).toEqual({
      code: 3,
      accepted: ['AA123456789BR'],
      rejected: ['XX000000000XX'],
    });
    expect(await json({ subStatus: ['InTransit_Arrival'] })).toEqual({
      code: 3,
      accepted: ['YT2616912345678901'],
      rejected: ['XX000000000XX'],
    });
    expect(await json({ status: ['InTransit'], subStatus: ['InTransit_PickedUp'] })).toEqual({
      code: 3,
      accepted: [],
      rejected: ['XX000000000XX'],
    });
  });

  it('says on stderr how many of the numbers found match', async () => {
    const fake = createFake({ handler: trackInfo, global: { output: 'json' } });
    await runInfo({ numbers, status: ['Delivered'] }, fake.ctx);
    expect(fake.io.stderrText()).toContain('1 of 2 found are Delivered');
  });

  it('refuses --sub-status on v1, which has none, before sending anything', async () => {
    const fake = createFake({ handler: trackInfo, version: 'v1' });
    const err = await runInfo({ numbers, subStatus: ['InTransit_Arrival'] }, fake.ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect(fake.calls).toHaveLength(0);
  });
});

describe('trk info: carrier names', () => {
  const parse = withCachedLists();

  it('info: the tracking page and the rejected rows name the carriers', async () => {
    const handler: Handler = () => ({
      code: 0,
      data: {
        accepted: [
          {
            number: 'RR123456789CN',
            tag: null,
            track: { w1: 3011, w2: 21051, b: 301, c: 2105, e: 10, z0: {}, z1: [], z2: [] },
          },
        ],
        rejected: [{ number: 'RR000000000CN', carrier: 3011, error: { code: -18019902, message: 'not registered' } }],
      },
    });
    const r = await parse(['info', 'RR123456789CN', 'RR000000000CN'], { handler, version: 'v1', tty: true });
    expect(r.code).toBe(3);
    expect(r.out.split('\n')[0]).toBe('RR123456789CN  ·  3011 China Post  ·  last mile 21051 USPS');
    expect(r.out).toMatch(/Route {5}CN → US/);
    expect(r.out).toMatch(/RR000000000CN\s+3011 China Post\s+rejected/);
  });
});
