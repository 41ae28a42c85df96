import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { InterruptedError, TrkError, UsageError } from '../../src/core/errors.js';
import {
  bulkSandbox,
  numberList,
  registrations,
  runEngine,
  tempDir,
  testContext,
  writeInput,
  type BulkSandbox,
  type RunOptions,
  clientSendingWrites,
} from './helpers.js';

let env: BulkSandbox | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function setup(opts: Parameters<typeof bulkSandbox>[0] = {}) {
  env = await bulkSandbox(opts);
  const dir = tempDir();
  const ctx = testContext({
    stateDir: path.join(dir, 'state'),
    settings: { baseUrl: env.sandbox.url, apiKey: env.sandbox.key },
  });
  return { env, dir, ctx };
}

/** The real runtime: the context's client, paced by the shared budget file. */
function run(ctx: ReturnType<typeof testContext>, opts: RunOptions) {
  return runEngine(ctx, opts);
}

/** Every input number registered exactly once, nothing else, and the quota charged once per number. */
function expectExactlyOnce(e: BulkSandbox, numbers: readonly string[]): void {
  const regs = registrations(e.sandbox);
  const counts = [...regs.values()];
  expect(counts.every((c) => c === 1)).toBe(true);
  expect(new Set([...regs.keys()].map((k) => k.split('/')[0]))).toEqual(new Set(numbers));
  expect(e.sandbox.account.quota.used).toBe(numbers.length);
}

describe('runItems: register from a file', () => {
  it('registers every row of a CSV and summarises on stderr', async () => {
    const { env: e, dir, ctx } = await setup();
    const numbers = numberList(90);
    const file = writeInput(
      dir,
      'in.csv',
      `number,carrier,tag\n${numbers.map((n, i) => `${n},3011,t${i}`).join('\n')}\n`,
    );
    const report = await run(ctx, { operation: 'register', file });
    expect(report.exitCode).toBe(0);
    expect(report.summary?.accepted).toBe(90);
    expect(report.results.accepted).toHaveLength(90);
    expect(report.plan.requests).toBe(3);
    expectExactlyOnce(e, numbers);
    const tags = [...e.sandbox.account.store.values()].map((r) => r.tag).sort();
    expect(tags).toContain('t89');
    // The rate shows once a run has taken 2 s: one window past the first, and however long the machine took.
    expect(ctx.io.stderrText()).toMatch(/register: 90 numbers in \d+s( \([\d.]+\/s\))?\n/);
    expect(ctx.io.stderrText()).toMatch(/registered\s+90/);
    // Complete: the journal is gone.
    expect(readdirSync(path.join(dir, 'state', 'journals'))).toEqual([]);
  });

  it('reports every problem with its line number and sends nothing', async () => {
    const { env: e, dir, ctx } = await setup();
    const long = 'x'.repeat(101);
    const file = writeInput(
      dir,
      'bad.csv',
      [
        'number,carrier,tag,lang,email',
        'RR000000001CN,3011,ok,en,a@b.c',
        'AB,3011,,,',
        `RR000000002CN,3011,${long},,`,
        'RR000000003CN,China Post,,,',
        'RR000000004CN,,,klingon,',
        'RR000000001CN,3011,again,,',
        `RR000000005CN,,,,${'e'.repeat(251)}`,
      ].join('\n'),
    );
    const err = await run(ctx, { operation: 'register', file }).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toBe(`6 problems in ${file}; nothing was sent`);
    const lines = ctx.io.stderrText().trim().split('\n');
    expect(lines).toEqual([
      `${file} line 3: number "AB" is not 5 to 50 letters, digits or hyphens`,
      `${file} line 4: tag longer than 100 characters (101)`,
      `${file} line 5: carrier "China Post" is not a carrier code (a whole number from the carrier list)`,
      `${file} line 6: lang "klingon" is not one of en, ja, fr, da, th, de, es, zh-hans`,
      `${file} line 7: same number and carrier as line 2, with tag "again" where it has "ok", no lang where it has ` +
        `"en", no email where it has "a@b.c" (keep one of the two rows)`,
      `${file} line 8: email longer than 250 characters (251)`,
    ]);
    expect(e.sandbox.state().requests.total).toBe(0);
  });

  it('caps the problems shown and counts the rest', async () => {
    const { dir, ctx } = await setup();
    const file = writeInput(dir, 'bad.txt', `${Array.from({ length: 25 }, (_, i) => `bad_${i}`).join('\n')}\n`);
    await expect(run(ctx, { operation: 'register', file })).rejects.toThrow('25 problems');
    const lines = ctx.io.stderrText().trim().split('\n');
    expect(lines).toHaveLength(21);
    expect(lines[20]).toBe('... and 5 more');
  });

  it('uses a carrier name resolver when one is given', async () => {
    const { env: e, dir, ctx } = await setup();
    const file = writeInput(dir, 'in.csv', 'number,carrier\nRR000000001CN,China Post\n');
    const report = await run(ctx, {
      operation: 'register',
      file,
      resolveCarrier: (t) => (t.toLowerCase() === 'china post' ? 3011 : undefined),
    });
    expect(report.summary?.accepted).toBe(1);
    expect([...registrations(e.sandbox).keys()]).toEqual(['RR000000001CN/3011']);
  });

  it('--dry-run reports requests, time and quota, and sends nothing', async () => {
    const { env: e, dir, ctx } = await setup();
    const numbers = numberList(100);
    const file = writeInput(
      dir,
      'in.csv',
      `number,lang\n${numbers.map((n, i) => `${n},${i < 30 ? 'en' : ''}`).join('\n')}\n`,
    );
    const report = await run(ctx, { operation: 'register', file, dryRun: true });
    expect(report.plan).toMatchObject({ items: 100, requests: 3, units: 130, secondsAtCeiling: 1 });
    const text = ctx.io.stderrText();
    expect(text).toContain('100 items in 3 requests');
    const quota = 'quota: 130 units (30 with a translation language cost 2), every number new, 1,000,000 left';
    expect(text).toContain(quota);
    expect(text).toContain('nothing was sent');
    // The quota, and which numbers are registered already (free, 200 numbers a request).
    expect(e.sandbox.state().requests.byOperation).toEqual({ 'v2/getquota': 1, 'v2/gettracklist': 1 });
  });

  it('refuses when the quota cannot cover the file, saying how much is missing', async () => {
    const { env: e, dir, ctx } = await setup({ quotaTotal: 100 });
    const file = writeInput(dir, 'in.txt', `${numberList(150).join('\n')}\n`);
    const err = (await run(ctx, { operation: 'register', file }).catch((x: unknown) => x)) as UsageError;
    expect(err).toBeInstanceOf(UsageError);
    expect(err.exitCode).toBe(2);
    expect(err.message).toBe(`not enough quota for ${file}: it needs 150 units, 100 are left (50 missing)`);
    // Before refusing, it looked up which numbers are registered already: none.
    expect(e.sandbox.state().requests.byOperation).toEqual({ 'v2/getquota': 1, 'v2/gettracklist': 1 });
  });

  it('refuses when the daily cap cannot cover the file', async () => {
    const { env: e, dir, ctx } = await setup({ maxTrackDaily: 120 });
    const file = writeInput(dir, 'in.txt', `${numberList(150).join('\n')}\n`);
    await expect(run(ctx, { operation: 'register', file })).rejects.toThrow(
      'it needs 150 units, today leaves 120 (30 missing)',
    );
    expect(e.sandbox.account.store.size).toBe(0);
  });

  it('counts already registered numbers as such, not as failures', async () => {
    const { dir, ctx } = await setup();
    const numbers = numberList(50);
    const first = writeInput(dir, 'first.txt', `${numbers.slice(0, 10).join('\n')}\n`);
    await run(ctx, { operation: 'register', file: first });
    const all = writeInput(dir, 'all.txt', `${numbers.join('\n')}\n`);
    const report = await run(ctx, { operation: 'register', file: all });
    expect(report.exitCode).toBe(0);
    expect(report.summary).toMatchObject({ accepted: 40, already: 10, rejected: 0 });
    expect(ctx.io.stderrText()).toMatch(/already registered\s+10/);
  });

  it("writes rejected rows in the input's own columns, with the error, and exits 3", async () => {
    const { dir, ctx } = await setup();
    const rejects = path.join(dir, 'rejects.csv');
    const file = writeInput(
      dir,
      'in.csv',
      'Number,Tag,Carrier\nRR000000001CN,"a, ' +
        'quoted",3011\nXX00000001,two,\nRR000000002CN,three,\nXX00000002,"four ""q""",\n',
    );
    const report = await run(ctx, { operation: 'register', file, rejectsFile: rejects });
    expect(report.exitCode).toBe(3);
    expect(report.summary?.rejectedByCode).toEqual([
      { code: -18019903, message: 'carrier cannot be detected', count: 2 },
    ]);
    expect(readFileSync(rejects, 'utf8')).toBe(
      'Number,Tag,Carrier,input_line,error_code,error_message\n' +
        'XX00000001,two,,3,-18019903,carrier cannot be detected\n' +
        'XX00000002,"four ""q""",,5,-18019903,carrier cannot be detected\n',
    );
  });

  it(
    'the rejects file quotes formula-like cells (error codes stay numbers) and reads back as it was ' + 'written',
    async () => {
      const { dir, ctx } = await setup();
      const rejects = path.join(dir, 'rejects.csv');
      const file = writeInput(
        dir,
        'in.csv',
        'Number,Tag\n-XX0000001,"=HYPERLINK(""http://evil.example"",""x"")"\nXX00000002,@cmd\n',
      );
      const report = await run(ctx, { operation: 'register', file, rejectsFile: rejects });
      expect(report.exitCode).toBe(1);
      const written = readFileSync(rejects, 'utf8');
      expect(written).toBe(
        'Number,Tag,input_line,error_code,error_message\n' +
          '\'-XX0000001,"\'=HYPERLINK(""http://evil.example"",""x"")",2,-18019903,carrier cannot be detected\n' +
          "XX00000002,'@cmd,3,-18019903,carrier cannot be detected\n",
      );
      // Imported again, the quotes trk added are taken off: the same rows are sent and rejected the same way (the
      // same requests: sent again only when asked).
      const again = path.join(dir, 'rejects-2.csv');
      const second = await run(ctx, { operation: 'register', file: rejects, rejectsFile: again, again: true });
      expect(second.summary?.rejected).toBe(2);
      expect(readFileSync(again, 'utf8')).toBe(written);
    },
  );

  it('a rejects file that cannot be written is a usage error, and nothing is sent', async () => {
    const { env: e, dir, ctx } = await setup();
    const numbers = numberList(3);
    const file = writeInput(dir, 'in.txt', `${numbers.join('\n')}\n`);
    for (const rejectsFile of [path.join(dir, 'no-such-folder', 'rejects.csv'), dir]) {
      const err = await run(ctx, { operation: 'register', file, rejectsFile }).catch((x: unknown) => x);
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).toLine()).toMatch(
        /^cannot write the rejects file .*: (no such file or folder|it is a directory): .*nothing was sent$/,
      );
    }
    expect(registrations(e.sandbox).size).toBe(0);
  });

  it('reads stdin with -f -', async () => {
    const { Readable } = await import('node:stream');
    const { createTestIO } = await import('../test-io.js');
    env = await bulkSandbox();
    const dir = tempDir();
    const io = createTestIO({ stdin: Readable.from([`number\n${numberList(3).join('\n')}\n`]) });
    const ctx = testContext({
      stateDir: path.join(dir, 'state'),
      io,
      settings: { baseUrl: env.sandbox.url, apiKey: env.sandbox.key },
    });
    const report = await run(ctx, { operation: 'register', file: '-' });
    expect(report.summary?.accepted).toBe(3);
    expect(readdirSync(path.join(dir, 'state', 'spool'))).toEqual([]);
  });
});

describe('runItems: faults', () => {
  it('lost answers: no number registered twice, none missing', async () => {
    const { env: e, dir, ctx } = await setup({ dropRate: 0.3, seed: 7 });
    const numbers = numberList(400);
    const file = writeInput(dir, 'in.txt', `${numbers.join('\n')}\n`);
    const report = await run(ctx, { operation: 'register', file });
    expect(e.sandbox.state().requests.dropped).toBeGreaterThan(0);
    expect(report.summary?.accepted).toBe(400);
    expect(report.summary?.verified).toBeGreaterThan(0);
    expect(report.summary?.already).toBe(0);
    expectExactlyOnce(e, numbers);
  });

  it('500 and 503: everything registered once', async () => {
    const { env: e, dir, ctx } = await setup({ failureRate: 0.3, seed: 3 });
    const numbers = numberList(300);
    const file = writeInput(dir, 'in.txt', `${numbers.join('\n')}\n`);
    const report = await run(ctx, { operation: 'register', file });
    expect(e.sandbox.state().requests.injected.failures).toBeGreaterThan(0);
    expect(report.summary?.accepted).toBe(300);
    expectExactlyOnce(e, numbers);
  });

  it('429 bursts: all eventually accepted', async () => {
    const { env: e, dir, ctx } = await setup({ burst429: 4, burst429EveryMs: 2500, burst429ForMs: 300 });
    const numbers = numberList(320);
    const file = writeInput(dir, 'in.txt', `${numbers.join('\n')}\n`);
    const report = await run(ctx, { operation: 'register', file });
    expect(e.sandbox.state().requests.byStatus['429']).toBeGreaterThan(0);
    expect(report.summary?.accepted).toBe(320);
    expectExactlyOnce(e, numbers);
  });

  it('Ctrl-C stops new requests, saves, exits 130; the same command resumes', async () => {
    const { env: e, dir, ctx } = await setup({ latencyMs: 300 });
    const numbers = numberList(400);
    const file = writeInput(dir, 'in.txt', `${numbers.join('\n')}\n`);
    let settledChunks = 0;
    let held = false;
    // Real time sends two windows of chunks before the third answer: the quota check's and the next. Ctrl-C comes
    // at the third chunk settled, or once a write is held and one has settled (never before an answer: the writes
    // admitted may all be under way when the first is held, on the tests' clock whose windows open at once).
    const interruptOnce = () => {
      if (settledChunks === 3 || (held && settledChunks >= 1)) ctx.abort();
    };
    const client = await clientSendingWrites(ctx, e.sandbox, 5, {
      onHeld: () => {
        held = true;
        interruptOnce();
      },
    });
    const first = run(ctx, {
      operation: 'register',
      file,
      client,
      onItems: () => {
        settledChunks += 1;
        interruptOnce();
      },
    }).catch((x: unknown) => x);
    const err = await first;
    await client.close();
    expect(err).toBeInstanceOf(InterruptedError);
    expect((err as InterruptedError).exitCode).toBe(130);
    const done = e.sandbox.account.store.size;
    expect(done).toBeGreaterThanOrEqual(40);
    expect(done).toBeLessThan(400);
    const journals = readdirSync(path.join(dir, 'state', 'journals'));
    expect(journals.filter((f) => f.endsWith('.jsonl'))).toHaveLength(1);
    expect(ctx.io.stderrText()).toContain('progress is saved');

    const again = testContext({
      stateDir: path.join(dir, 'state'),
      settings: { baseUrl: e.sandbox.url, apiKey: e.sandbox.key },
    });
    const report = await run(again, { operation: 'register', file });
    expect(report.summary?.fromJournal).toBe(done);
    expect(report.summary?.accepted).toBe(400);
    expect(report.results.accepted).toHaveLength(400);
    expect(again.io.stderrText()).toContain(`resuming an interrupted run: ${done} done`);
    expectExactlyOnce(e, numbers);
    expect(existsSync(path.join(dir, 'state', 'journals', journals[0] as string))).toBe(false);
  });
});

describe('runItems: what an account refusal or a damaged journal leaves', () => {
  it(
    'quota exhausted in the middle: one line, the refused numbers kept pending, and the next run sends ' + 'only them',
    async () => {
      const { env: e, dir, ctx } = await setup({ quotaTotal: 100 });
      const numbers = numberList(150);
      const file = writeInput(dir, 'in.txt', `${numbers.join('\n')}\n`);
      // The quota read before the run says there is plenty (another process may use it up meanwhile).
      const plenty: ApiClient = {
        version: 'v2',
        call: async (op, body, opts) =>
          op === 'getquota'
            ? ({
                code: 0,
                data: { quota_total: 10_000, quota_used: 0, quota_remain: 10_000, today_used: 0, max_track_daily: 0 },
              } as never)
            : e.client.call(op, body, opts),
        close: async () => {},
      };
      const err = (await run(ctx, { operation: 'register', file, client: plenty, concurrency: 1 }).catch(
        (x: unknown) => x,
      )) as TrkError;
      expect(err).toBeInstanceOf(TrkError);
      expect(err.exitCode).toBe(1);
      expect(err.toLine()).toBe(
        'the service refused the account: quota exhausted (-18019908): buy more quota in the console, then run ' +
          'the same command again',
      );
      expect(e.sandbox.account.store.size).toBe(100);
      const text = ctx.io.stderrText();
      expect(text).toMatch(/register: 100 of 150 numbers/);
      expect(text).toMatch(/registered\s+100/);
      expect(text).toMatch(/not done\s+50/);
      expect(text).not.toMatch(/rejected/);
      // More quota, the same command: the 50 left are sent, nothing twice.
      e.sandbox.setSettings({ quotaTotal: 1000 });
      const again = testContext({
        stateDir: path.join(dir, 'state'),
        settings: { baseUrl: e.sandbox.url, apiKey: e.sandbox.key },
      });
      const report = await run(again, { operation: 'register', file });
      expect(report.exitCode).toBe(0);
      expect(report.summary).toMatchObject({ accepted: 150, fromJournal: 100, rejected: 0 });
      expectExactlyOnce(e, numbers);
    },
  );

  it('a damaged journal: what it cannot vouch for is looked up before anything is sent again', async () => {
    const { env: e, dir, ctx } = await setup({ latencyMs: 200 });
    const numbers = numberList(200);
    const file = writeInput(dir, 'in.txt', `${numbers.join('\n')}\n`);
    let settled = 0;
    // The two chunks of the first window are sent; Ctrl-C comes with their answers.
    const client = await clientSendingWrites(ctx, e.sandbox, 2);
    const first = await run(ctx, {
      operation: 'register',
      file,
      client,
      onItems: () => {
        settled += 1;
        if (settled === 2) ctx.abort();
      },
    }).catch((x: unknown) => x);
    await client.close();
    expect(first).toBeInstanceOf(InterruptedError);
    const journals = path.join(dir, 'state', 'journals');
    const [name] = readdirSync(journals).filter((f) => f.endsWith('.jsonl'));
    const journal = path.join(journals, name!);
    // Every done line turned into nonsense of the right shape but the wrong types.
    writeFileSync(
      journal,
      readFileSync(journal, 'utf8').replace(/"t":"done","c":(\d+),"a":\[[^\]]*\]/g, '"t":"done","c":$1,"a":"lost"'),
    );
    const sends = e.sandbox.state().requests.byOperation['v2/register'] ?? 0;
    const again = testContext({
      stateDir: path.join(dir, 'state'),
      settings: { baseUrl: e.sandbox.url, apiKey: e.sandbox.key },
    });
    const report = await run(again, { operation: 'register', file });
    expect(report.exitCode).toBe(0);
    expect(again.io.stderrText()).toMatch(
      /saved progress of this run is damaged \(line \d+\): what it does not show is looked up/,
    );
    expect(report.summary?.verified).toBeGreaterThan(0);
    // Only the chunks the damaged run never reached were sent: 200 numbers are 5 chunks.
    expect((e.sandbox.state().requests.byOperation['v2/register'] ?? 0) - sends).toBeLessThan(5);
    expectExactlyOnce(e, numbers);
  });
});

describe('runItems: remembered runs', () => {
  it('a finished input is not sent again; an interrupted --again of it is resumed, not called finished', async () => {
    const { env: e, dir, ctx } = await setup({ latencyMs: 150 });
    const numbers = numberList(200);
    const file = writeInput(dir, 'in.txt', `${numbers.join('\n')}\n`);
    expect((await run(ctx, { operation: 'register', file })).exitCode).toBe(0);
    const fresh = () =>
      testContext({ stateDir: path.join(dir, 'state'), settings: { baseUrl: e.sandbox.url, apiKey: e.sandbox.key } });
    const second = fresh();
    const skipped = await run(second, { operation: 'register', file });
    expect(skipped.summary).toBeUndefined();
    expect(second.io.stderrText()).toMatch(
      /the same input was fully sent by trk register on .* \(200 registered\); nothing was sent: pass --again/,
    );
    // --again, interrupted after two chunks.
    const third = fresh();
    let settled = 0;
    const client = await clientSendingWrites(third, e.sandbox, 2);
    const cut = await run(third, {
      operation: 'register',
      file,
      again: true,
      client,
      onItems: () => {
        settled += 1;
        if (settled === 2) third.abort();
      },
    }).catch((x: unknown) => x);
    await client.close();
    expect(cut).toBeInstanceOf(InterruptedError);
    const fourth = fresh();
    const resumed = await run(fourth, { operation: 'register', file });
    expect(resumed.summary?.fromJournal).toBeGreaterThan(0);
    expect(resumed.summary?.already).toBe(200);
    expect(fourth.io.stderrText()).toMatch(/resuming an interrupted run/);
    expectExactlyOnce(e, numbers);
  });
});

describe('runItems: answers are checked against the request', () => {
  it('numbers the request did not carry, or named twice, are not counted ("registered 9" for 2 numbers)', async () => {
    const { dir, ctx } = await setup();
    const asked = numberList(2, 900);
    const extra = numberList(7, 950);
    const liar: ApiClient = {
      version: 'v2',
      call: async (op) => {
        if (op === 'getquota') {
          const quota = { quota_total: 100, quota_used: 0, quota_remain: 100, today_used: 0, max_track_daily: 0 };
          return { code: 0, data: quota } as never;
        }
        const accepted = [...asked, asked[0]!, ...extra].map((number) => ({ origin: 2, number, carrier: 3011 }));
        const rejected = [{ number: 'NOTASKED01', error: { code: -18019903, message: 'x' } }];
        return { code: 0, data: { accepted, rejected } } as never;
      },
      close: async () => {},
    };
    const report = await run(ctx, { operation: 'register', numbers: asked, client: liar });
    expect(report.summary).toMatchObject({ accepted: 2, rejected: 0, unsettled: 0 });
    expect(report.results.accepted.map((a) => a.number)).toEqual(asked);
    expect(ctx.io.stderrText()).toBe('registered 2\n');
    // A file alike: its summary counts the numbers it holds.
    const file = writeInput(dir, 'two.txt', `${asked.join('\n')}\n`);
    const settings = { baseUrl: env!.sandbox.url, apiKey: env!.sandbox.key };
    const fromFile = await run(testContext({ stateDir: path.join(dir, 'state2'), settings }), {
      operation: 'register',
      file,
      client: liar,
    });
    expect(fromFile.summary).toMatchObject({ total: 2, accepted: 2, rejected: 0 });
  });
});

describe('runItems: a state folder that cannot be written', () => {
  it('is one clear error before anything is read or sent, for a file and for stdin', async () => {
    const { Readable } = await import('node:stream');
    const { createTestIO } = await import('../test-io.js');
    env = await bulkSandbox();
    const dir = tempDir();
    // A file where the state folder should be: mkdir fails as it does in a read-only folder (root writes anywhere).
    const blocked = writeInput(dir, 'not-a-folder', '');
    const stateDir = path.join(blocked, 'state');
    const file = writeInput(dir, 'in.txt', `${numberList(3).join('\n')}\n`);
    const settings = { baseUrl: env.sandbox.url, apiKey: env.sandbox.key };
    for (const piped of [false, true]) {
      const io = createTestIO(piped ? { stdin: Readable.from([`${numberList(3).join('\n')}\n`]) } : {});
      const ctx = testContext({ stateDir, configDir: path.join(dir, 'config'), io, settings });
      const running = run(ctx, { operation: 'register', file: piped ? '-' : file });
      const err = (await running.catch((x: unknown) => x)) as TrkError;
      expect(err).toBeInstanceOf(TrkError);
      expect(err.toLine()).toBe(
        `cannot write to trk's state folder ${stateDir}: a file is in the way of a folder: ` +
          'make it a folder you can write to, or set TRK_STATE_DIR to one; nothing was sent',
      );
      expect(err.exitCode).toBe(1);
      expect(ctx.io.stderrText()).toBe('');
    }
    expect(env.sandbox.state().requests.total).toBe(0);
  });
});
