import { describe, expect, it } from 'vitest';
import { runRegister, type RegisterOptions } from '../../../src/commands/items/register.js';
import { UsageError } from '../../../src/core/errors.js';
import { createFake, rejecting } from '../../fake-context.js';
import { runLine } from '../run-program.js';
import { withCachedLists } from '../carrier-lists.js';

const base: RegisterOptions = { numbers: [] };
const numbers = (n: number) => Array.from({ length: n }, (_, i) => `RR${String(i).padStart(9, '0')}CN`);

/** Bodies of the register requests (the engine also reads the quota first). */
const registered = (fake: ReturnType<typeof createFake>) =>
  fake.calls.filter((c) => c.op === 'register').map((c) => c.body as Record<string, unknown>[]);

describe('register flags', () => {
  it('map to the wire fields of every row', async () => {
    const fake = createFake({ version: 'v2.1' });
    await runRegister(
      {
        ...base,
        numbers: ['AB12345'],
        fields: {
          param: 'US-10001',
          tag: 't',
          lang: 'de',
          email: 'a@b.c',
          final_carrier: 7,
          auto_detection: false,
          order_no: 'o1',
          order_time: '2024-01-02',
          remark: 'r',
        },
      },
      fake.ctx,
    );
    expect(registered(fake)).toEqual([
      [
        {
          number: 'AB12345',
          param: 'US-10001',
          tag: 't',
          lang: 'de',
          email: 'a@b.c',
          final_carrier: 7,
          auto_detection: false,
          order_no: 'o1',
          order_time: '2024-01-02',
          remark: 'r',
        },
      ],
    ]);
  });

  it(
    "send auto_detection: true by default when no carrier is given (trk means v2's default in every " + 'version)',
    async () => {
      const fake = createFake();
      await runRegister({ ...base, numbers: ['AB12345'] }, fake.ctx);
      await runRegister({ ...base, numbers: ['AB12346'], fields: { carrier: 3011 } }, fake.ctx);
      expect(registered(fake)).toEqual([
        [{ number: 'AB12345', auto_detection: true }],
        [{ number: 'AB12346', carrier: 3011 }],
      ]);
    },
  );
});

describe('runRegister', () => {
  it('sends 85 numbers in chunks of 40 and exits 0 when all are accepted', async () => {
    const fake = createFake({ global: { output: 'json' } });
    const code = await runRegister({ ...base, numbers: numbers(85), fields: { carrier: 3011 } }, fake.ctx);
    expect(code).toBe(0);
    expect(registered(fake).map((b) => b.length)).toEqual([40, 40, 5]);
    // The quota is read first: 85 units must be left.
    expect(fake.calls[0]?.op).toBe('getquota');
    const out = JSON.parse(fake.io.stdoutText()) as { accepted: { number: string }[]; rejected: unknown[] };
    expect(out.accepted.map((a) => a.number)).toEqual(numbers(85));
    expect(out.rejected).toEqual([]);
    expect(fake.io.stderrText()).toContain('registered 85');
  });

  it('exits 3 and shows the rejected items', async () => {
    const fake = createFake({
      handler: rejecting(['RR000000001CN'], -18019903, 'carrier cannot be detected'),
      global: { output: 'csv' },
    });
    const code = await runRegister({ ...base, numbers: numbers(3) }, fake.ctx);
    expect(code).toBe(3);
    const csv = fake.io.stdoutText();
    expect(csv.split('\n')[0]).toContain('result');
    expect(csv).toMatch(/RR000000001CN.*rejected.*-18019903.*carrier cannot be detected/);
    expect(fake.io.stderrText()).toContain('registered 2, rejected 1');
  });

  it('counts numbers already registered as such, not as rejections (exit 0, as with -f)', async () => {
    const fake = createFake({ handler: rejecting(['RR000000001CN']), global: { output: 'csv' } });
    const code = await runRegister({ ...base, numbers: numbers(3) }, fake.ctx);
    expect(code).toBe(0);
    expect(fake.io.stdoutText()).toMatch(/RR000000001CN,.*,already,-18019901,.*already registered/);
    expect(fake.io.stdoutText()).not.toContain('rejected');
    expect(fake.io.stderrText()).toContain('registered 2, already registered 1');
    expect(fake.io.stderrText()).not.toContain('rejected 1');
  });

  it('still exits 3 when other rejections come with numbers already registered', async () => {
    const handler = (_op: string, body: unknown) => {
      const items = body as { number: string }[];
      return {
        code: 0,
        data: {
          accepted: [],
          rejected: items.map((i, n) => ({
            number: i.number,
            error:
              n === 0
                ? { code: -18019901, message: 'already registered' }
                : { code: -18019903, message: 'carrier cannot be detected' },
          })),
        },
      };
    };
    const fake = createFake({ handler });
    expect(await runRegister({ ...base, numbers: numbers(2) }, fake.ctx)).toBe(3);
    expect(fake.io.stderrText()).toContain('registered 0, already registered 1, rejected 1');
  });

  it('reports a request that failed as a whole in the one error line, with nothing on stdout', async () => {
    const fake = createFake({
      handler: (op) => {
        if (op === 'register') throw new Error('invalid API key');
        return { code: 0, data: {} };
      },
    });
    await expect(runRegister({ ...base, numbers: numbers(1) }, fake.ctx)).rejects.toThrow('invalid API key');
    expect(fake.io.stdoutText()).toBe('');
  });

  it('refuses a bad number before sending anything', async () => {
    const fake = createFake();
    const err = await runRegister({ ...base, numbers: ['RR000000001CN', 'no'] }, fake.ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toBe('argument 2: number "no" is not 5 to 50 letters, digits or hyphens');
    expect(registered(fake)).toHaveLength(0);
  });

  it('--dry-run of a pipe reports, predicts a quota refusal, and registers nothing', async () => {
    const quota = (left: number) => (op: string) =>
      op === 'getquota'
        ? {
            code: 0,
            data: { quota_total: 10, quota_used: 10 - left, quota_remain: left, today_used: 0, max_track_daily: 0 },
          }
        : { code: 0, data: {} };
    const fine = createFake({ stdin: 'RR000000001CN\nRR000000002CN\n', handler: quota(5) });
    expect(await runRegister({ ...base, dryRun: true }, fine.ctx)).toBe(0);
    expect(fine.io.stderrText()).toContain('quota: 2 units, every number new, 5 left');
    const short = createFake({ stdin: 'RR000000001CN\nRR000000002CN\n', handler: quota(1) });
    await expect(runRegister({ ...base, dryRun: true }, short.ctx)).rejects.toThrow(
      'not enough quota for stdin: it needs 2 units, 1 are left (1 missing)',
    );
    expect(registered(fine)).toHaveLength(0);
    expect(registered(short)).toHaveLength(0);
  });

  it('refuses v2.1 fields on v2 before sending anything', async () => {
    const fake = createFake({ version: 'v2' });
    await expect(
      runRegister({ ...base, numbers: ['RR000000001CN'], fields: { order_no: 'x' } }, fake.ctx),
    ).rejects.toThrow(/the v2 API cannot send --order-no/);
    expect(fake.calls).toHaveLength(0);
  });

  it('exits 0 for an empty list without a request', async () => {
    const fake = createFake({ stdin: '\n\n' });
    expect(await runRegister(base, fake.ctx)).toBe(0);
    expect(fake.calls).toHaveLength(0);
  });

  it('reads NUMBER,CARRIER rows from stdin, the row carrier winning over --carrier', async () => {
    const fake = createFake({ stdin: 'AAA11111,100\nBBB22222\n' });
    await runRegister({ ...base, fields: { carrier: 5 } }, fake.ctx);
    expect(registered(fake)[0]).toEqual([
      { number: 'AAA11111', carrier: 100 },
      { number: 'BBB22222', carrier: 5 },
    ]);
  });

  it(
    'says what was done before a failure on stderr, raises it, and leaves the items written as JSON that does ' +
      'not parse',
    async () => {
      let n = 0;
      const fake = createFake({
        global: { output: 'json' },
        handler: (op, body) => {
          if (op === 'register' && n++ === 1) throw new Error('connection reset');
          return {
            code: 0,
            data: {
              accepted: (body as { number: string }[]).map((i) => ({ number: i.number, carrier: 1 })),
              rejected: [],
            },
          };
        },
      });
      const err = await runRegister({ ...base, numbers: numbers(120) }, fake.ctx).catch((e: unknown) => e);
      expect((err as Error).message).toBe('connection reset');
      // The items of the chunk that was registered were written as it settled; the document is left open.
      const out = fake.io.stdoutText();
      expect(out).toMatch(/^\{\n {2}"accepted": \[\n {4}\{\n {6}"number": "/);
      expect(out.endsWith('}\n')).toBe(true);
      expect(() => JSON.parse(out)).toThrow();
      expect(fake.io.stderrText()).toMatch(/^registered \d+, not done \d+\n$/);
    },
  );

  it('does not send when no key is configured', async () => {
    const fake = createFake({ apiKey: undefined });
    await expect(runRegister({ ...base, numbers: ['AAA11111'] }, fake.ctx)).rejects.toMatchObject({ exitCode: 4 });
  });
});

describe('trk register: the command line', () => {
  it('register with every flag', async () => {
    const { code, sent } = await runLine(
      [
        'register',
        'AAA11111',
        '--carrier',
        '3011',
        '--param',
        'US-10001',
        '--tag',
        'b7',
        '--lang',
        'de',
        '--email',
        'a@b.c',
        '--final-carrier',
        '21051',
        '--api-version',
        'v2.1',
        '--order-no',
        'o1',
        '--order-time',
        '2025-05-01',
        '--remark',
        'r',
      ],
      { version: 'v2.1' },
    );
    expect(code).toBe(0);
    expect(sent('register')).toEqual([
      [
        {
          number: 'AAA11111',
          carrier: 3011,
          param: 'US-10001',
          tag: 'b7',
          lang: 'de',
          email: 'a@b.c',
          final_carrier: 21051,
          order_no: 'o1',
          order_time: '2025-05-01',
          remark: 'r',
        },
      ],
    ]);
  });

  it('register --no-auto-detection without a carrier', async () => {
    const { sent } = await runLine(['register', 'AAA11111', '--no-auto-detection']);
    expect(sent('register')).toEqual([[{ number: 'AAA11111', auto_detection: false }]]);
  });
});

describe('trk register: carrier names', () => {
  const parse = withCachedLists();

  it('register --carrier and --final-carrier', async () => {
    const { code, fake } = await parse([
      'register',
      'RR123456789CN',
      '--carrier',
      'DHL Express',
      '--final-carrier',
      'china post',
    ]);
    expect(code).toBe(0);
    expect(fake.sent('register')).toEqual([[{ number: 'RR123456789CN', carrier: 100001, final_carrier: 3011 }]]);
  });
});
