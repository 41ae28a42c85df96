// The life of a run of a file, against the emulator: a file that changes while it is sent, grows between nights
// or is rewritten after a cut-off night; records of earlier runs that are damaged; a quota that covers only the
// new numbers; options that change what is sent; tags of numbers registered already; rows set aside.

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { InterruptedError, TrkError } from '../../src/core/errors.js';
import { parseCsv } from '../e2e/helpers.js';
import {
  type bulkSandbox,
  numberList,
  registrations,
  runEngine,
  sandboxPerTest,
  tempDir,
  testContext,
  writeInput,
  type BulkSandbox,
  type RunOptions,
  type TestContext,
} from './helpers.js';

const sandbox = sandboxPerTest();

async function setup(opts: Parameters<typeof bulkSandbox>[0] = {}) {
  const env = await sandbox(opts);
  const dir = tempDir();
  const state = path.join(dir, 'state');
  const fresh = (global: Parameters<typeof testContext>[0]['global'] = {}) =>
    testContext({ stateDir: state, global, settings: { baseUrl: env.sandbox.url, apiKey: env.sandbox.key } });
  return { e: env, dir, state, fresh };
}

const run = (ctx: ReturnType<typeof testContext>, opts: RunOptions) => runEngine(ctx, opts);
const sends = (e: BulkSandbox, op = 'register') => e.sandbox.state().requests.byOperation[`v2/${op}`] ?? 0;
const lines = (list: readonly string[]) => `${list.join('\n')}\n`;

/** Every number of `list` registered exactly once, and the quota charged once per number registered. */
function expectOnce(e: BulkSandbox, list: readonly string[]): void {
  const regs = registrations(e.sandbox);
  for (const n of list)
    expect(
      [...regs.entries()].filter(([k]) => k.startsWith(`${n}/`)).map(([, c]) => c),
      n,
    ).toEqual([1]);
  expect(e.sandbox.account.quota.used).toBe(regs.size);
}

/** A run of `file` that rewrites it (once) as soon as its first chunk is answered: what the run does then. */
function changedMidway(ctx: TestContext, file: string, text: string, opts: Partial<RunOptions> = {}) {
  let changed = false;
  const change = () => {
    if (!changed) writeFileSync(file, text);
    changed = true;
  };
  return run(ctx, { operation: 'register', file, concurrency: 1, onItems: change, ...opts }).catch((x: unknown) => x);
}

/** Aborts the run once `chunks` chunks have settled. */
function abortAfter(ctx: ReturnType<typeof testContext>, chunks: number): () => void {
  let settled = 0;
  return () => {
    settled += 1;
    if (settled === chunks) ctx.abort();
  };
}

describe('a file that changes while it is sent', () => {
  // Rows of 8 KB (a long note trk ignores): the sending pass reads a few hundred kilobytes ahead, so a change
  // after the first answers reaches the rows it has not read yet.
  const wide = (list: readonly string[]) => `number,note\n${list.map((n) => `${n},${'x'.repeat(8000)}`).join('\n')}\n`;

  it.each([
    ['cut short', (list: string[]) => wide(list.slice(0, 100))],
    ['edited', (list: string[]) => wide(list.map((n, i) => (i === 150 ? 'RR999999999CN' : n)))],
    ['grown', (list: string[]) => wide([...list, ...numberList(50, 5000)])],
  ])(
    '%s: the run stops with a clear error, never exit 0, names the rows it did not send, and sends none unchecked',
    async (_how, change) => {
      const { e, dir, fresh } = await setup({ latencyMs: 50 });
      const list = numberList(190);
      const file = writeInput(dir, 'daily.csv', wide(list));
      const rejects = path.join(dir, 'rejects.csv');
      const ctx = fresh();
      const err = await changedMidway(ctx, file, change(list), { rejectsFile: rejects });
      expect(err).toBeInstanceOf(TrkError);
      expect((err as TrkError).exitCode).toBe(1);
      expect((err as TrkError).toLine()).toMatch(
        /daily\.csv changed since it was checked \(.*\): stopped before sending what it holds now: run the same/,
      );
      const registered = [...registrations(e.sandbox).keys()].map((k) => k.split('/')[0]);
      // Nothing the check did not see was sent, nothing twice, and not all of it.
      expect(registered.every((n) => list.includes(n!))).toBe(true);
      expect(registered.length).toBeLessThan(190);
      expect(ctx.io.stderrText()).toMatch(/not done\s+\d+/);
      // The rows not sent are named, each once, in the rejects file.
      const named = parseCsv(readFileSync(rejects, 'utf8'));
      expect(named.every((r) => r.error_code === 'not-done' && r.error_message?.startsWith('not sent: '))).toBe(true);
      expect(named.map((r) => r.number).sort()).toEqual(list.filter((n) => !registered.includes(n)).sort());
    },
  );

  it('the next run of the changed file sends what it now holds, each number once', async () => {
    const { e, dir, fresh } = await setup({ latencyMs: 50 });
    const list = numberList(190);
    const file = writeInput(dir, 'daily.csv', wide(list));
    const grown = [...list, ...numberList(40, 7000)];
    const err = await changedMidway(fresh(), file, wide(grown));
    expect(err).toBeInstanceOf(TrkError);
    const next = await run(fresh(), { operation: 'register', file });
    expect(next.exitCode).toBe(0);
    expect(next.summary?.already).toBe(0);
    expectOnce(e, grown);
  });
});

describe('a finished file run again', () => {
  it('sends only the rows no run of it confirmed, and says so; a trailing blank line sends nothing', async () => {
    const { e, dir, fresh } = await setup();
    const old = numberList(1000);
    const file = writeInput(dir, 'daily.csv', `number\n${lines(old)}`);
    expect((await run(fresh(), { operation: 'register', file })).exitCode).toBe(0);
    const before = sends(e);
    const grown = [...old, ...numberList(100, 20_000)];
    writeFileSync(file, `number\n${lines(grown)}`);
    const ctx = fresh();
    const report = await run(ctx, { operation: 'register', file });
    expect(report.exitCode).toBe(0);
    expect(report.summary).toMatchObject({ total: 100, accepted: 100, already: 0 });
    expect(ctx.io.stderrText()).toMatch(/daily\.csv: 1,000 rows already sent by the run of \d{4}-\d\d-\d\d; 100 new\n/);
    // 100 rows: three requests, not 28.
    expect(sends(e) - before).toBe(3);
    writeFileSync(file, `number\n${lines(grown)}\n\n`);
    const blank = fresh();
    const again = await run(blank, { operation: 'register', file });
    expect(again.summary).toBeUndefined();
    expect(blank.io.stderrText()).toMatch(/the same input was fully sent/);
    expect(sends(e) - before).toBe(3);
    expectOnce(e, grown);
  });

  it("speaks of the rows it reads anew: the earlier rows' repeats and empty carriers were said before", async () => {
    const { e, dir, fresh } = await setup();
    const [a, b, c, d] = numberList(4);
    const first = `number,carrier\n${a},3011\n${b},3011\n${a},3011\n${c},\n`;
    const file = writeInput(dir, 'shop.csv', first);
    const one = fresh();
    expect((await run(one, { operation: 'register', file })).exitCode).toBe(0);
    expect(one.io.stderrText()).toMatch(/^1 repeated row sent once$/m);
    expect(one.io.stderrText()).toMatch(/^1 row named no carrier \(empty\)/m);
    // Grown by a row of its own and a repeat of a row the first run sent.
    writeFileSync(file, `${first}${d},3011\n${b},3011\n`);
    const two = fresh();
    const report = await run(two, { operation: 'register', file });
    expect(report.summary).toMatchObject({ total: 1, accepted: 1 });
    expect(two.io.stderrText()).toMatch(/shop\.csv: 5 rows already sent by the run of [\d-]+; 1 new\n/);
    expect(two.io.stderrText()).not.toMatch(/repeated row|named no carrier/);
    expectOnce(e, [a!, b!, c!, d!]);
  });

  it('rows rejected before are sent again with the new ones; --again sends everything', async () => {
    const { e, dir, fresh } = await setup();
    const good = numberList(5);
    const file = writeInput(dir, 'mixed.txt', lines([...good, 'XX00000001']));
    expect((await run(fresh(), { operation: 'register', file })).exitCode).toBe(3);
    writeFileSync(file, lines([...good, 'XX00000001', ...numberList(2, 600)]));
    const report = await run(fresh(), { operation: 'register', file });
    expect(report.summary).toMatchObject({ total: 3, accepted: 2, rejected: 1 });
    const forced = await run(fresh(), { operation: 'register', file, again: true });
    expect(forced.summary).toMatchObject({ total: 8, accepted: 0, already: 7, rejected: 1 });
    expect(e.sandbox.account.quota.used).toBe(7);
  });

  it('forgetting a finished run forgets what its file had confirmed: the file is sent again', async () => {
    const { e, dir, state, fresh } = await setup();
    const list = numberList(30);
    const file = writeInput(dir, 'once.txt', lines(list));
    await run(fresh(), { operation: 'register', file });
    writeFileSync(file, lines([...list, ...numberList(5, 800)]));
    const { forgetRuns, listRuns, runFolders } = await import('../../src/items/runs.js');
    const folders = runFolders(state);
    expect(listRuns(folders).map((r) => r.state)).toEqual(['finished']);
    expect(forgetRuns(folders, undefined)).toEqual({ forgotten: 1, running: 0 });
    expect(readdirSync(path.join(state, 'sent'))).toEqual([]);
    const report = await run(fresh(), { operation: 'register', file });
    expect(report.summary).toMatchObject({ total: 35, accepted: 5, already: 30 });
    expectOnce(e, [...list, ...numberList(5, 800)]);
  });
});

describe('a damaged record of a finished run', () => {
  it.each([
    ['garbage', 'not json at all {'],
    ['empty', ''],
  ])('%s: the next run looks its numbers up instead of sending them all again', async (_kind, damage) => {
    const { e, dir, state, fresh } = await setup();
    const list = numberList(200);
    const file = writeInput(dir, 'in.txt', lines(list));
    expect((await run(fresh(), { operation: 'register', file })).exitCode).toBe(0);
    for (const folder of ['runs', 'sent'].map((f) => path.join(state, f)).filter((f) => existsSync(f))) {
      for (const name of readdirSync(folder)) writeFileSync(path.join(folder, name), damage);
    }
    const before = sends(e);
    const ctx = fresh();
    const report = await run(ctx, { operation: 'register', file });
    expect(report.exitCode).toBe(0);
    expect(ctx.io.stderrText()).toMatch(
      /the record of an earlier run of .*in\.txt is damaged: what it may have sent is looked up/,
    );
    expect(report.summary).toMatchObject({ accepted: 200, verified: 200 });
    expect(sends(e) - before).toBe(0);
    expectOnce(e, list);
  });
});

describe('a cut-off night never blocks the next', () => {
  it('a file rewritten after a cut-off run: a new run, the confirmed not sent again, the lost named', async () => {
    const { e, dir, state, fresh } = await setup({ latencyMs: 100 });
    const night1 = numberList(400);
    const file = writeInput(dir, 'export.csv', `number,carrier\n${night1.map((n) => `${n},3011`).join('\n')}\n`);
    const ctx = fresh();
    const cut = await run(ctx, { operation: 'register', file, concurrency: 1, onItems: abortAfter(ctx, 3) }).catch(
      (x: unknown) => x,
    );
    expect(cut).toBeInstanceOf(InterruptedError);
    const doneFirst = [...registrations(e.sandbox).keys()].map((k) => k.split('/')[0]!);
    expect(doneFirst.length).toBeGreaterThanOrEqual(120);
    // The shop rewrites its export in place: the first 200 rows and 50 new ones.
    const night2 = [...night1.slice(0, 200), ...numberList(50, 9000)];
    writeFileSync(file, `number,carrier\n${night2.map((n) => `${n},3011`).join('\n')}\n`);
    const before = sends(e);
    const next = fresh();
    const report = await run(next, { operation: 'register', file });
    expect(report.exitCode).toBe(0);
    const text = next.io.stderrText();
    expect(text).toMatch(
      /export\.csv changed since an interrupted run of it \(.*\): starting a new run of the file as it is now/,
    );
    const lost = night1.slice(200).filter((n) => !doneFirst.includes(n));
    expect(text).toContain(`${lost.length} numbers of the interrupted run are not in the new file and were not sent`);
    // What the interrupted run confirmed is not sent again: only the other rows of the new file are.
    const left = night2.filter((n) => !doneFirst.includes(n));
    expect(report.summary).toMatchObject({ total: left.length, accepted: left.length, already: 0 });
    expect(sends(e) - before).toBe(Math.ceil(left.length / 40));
    expectOnce(e, [...new Set([...doneFirst, ...night2])]);
    // Named in trk's own rejects file (no --rejects, no output format), whose path the summary gives.
    const rejectsFile = /rows? written to (.*\.csv)\n/.exec(text)?.[1];
    expect(rejectsFile).toBeDefined();
    expect(path.dirname(rejectsFile!)).toBe(path.join(state, 'rejects'));
    const named = parseCsv(readFileSync(rejectsFile!, 'utf8'));
    expect(named.map((r) => r.number).sort()).toEqual([...lost].sort());
    expect(named.every((r) => r.error_code === 'not-sent' && r.carrier === '3011')).toBe(true);
    expect(named[0]!.error_message).toMatch(
      /^not in the file now; the interrupted run of .* never sent it \(its line \d+ then\)$/,
    );
    // The interrupted run is gone; the next night is an ordinary one.
    expect(readdirSync(path.join(state, 'journals')).filter((f) => f.endsWith('.jsonl'))).toEqual([]);
    const third = fresh();
    expect((await run(third, { operation: 'register', file })).exitCode).toBe(0);
    expect(third.io.stderrText()).toMatch(/the same input was fully sent/);
  });

  it('stop -f alike; on a terminal trk asks first, and "no" keeps the interrupted run (exit 1, not 2)', async () => {
    const { e, dir, fresh } = await setup({ latencyMs: 100 });
    const list = numberList(200);
    expect(
      (await run(fresh(), { operation: 'register', file: writeInput(dir, 'all.txt', lines(list)) })).exitCode,
    ).toBe(0);
    const file = writeInput(dir, 'stop.txt', lines(list));
    const ctx = fresh();
    await run(ctx, { operation: 'stoptrack', file, concurrency: 1, onItems: abortAfter(ctx, 2) }).catch(
      () => undefined,
    );
    writeFileSync(file, lines(list.slice(0, 100)));
    // A terminal: asked, and answered no.
    const { createTestIO } = await import('../test-io.js');
    const tty = testContext({
      stateDir: path.join(dir, 'state'),
      io: createTestIO({ tty: true }),
      settings: { baseUrl: e.sandbox.url, apiKey: e.sandbox.key },
    });
    const refused = (await run(tty, { operation: 'stoptrack', file }).catch((x: unknown) => x)) as TrkError;
    expect(refused).toBeInstanceOf(TrkError);
    expect(refused.exitCode).toBe(1);
    expect(refused.toLine()).toMatch(/^nothing was sent: the interrupted run is kept/);
    // Unattended: the new run goes on.
    const report = await run(fresh(), { operation: 'stoptrack', file });
    expect(report.exitCode).toBe(0);
    expect(report.summary?.total).toBeGreaterThan(0);
    const stopped = [...e.sandbox.account.store.values()].filter((r) => !r.tracking).map((r) => r.number);
    expect(stopped.sort()).toEqual(list.slice(0, 100).sort());
  });
});

describe('the quota check counts what will be charged', () => {
  it('registered numbers cost nothing: a run that fits without them is sent; --dry-run says so', async () => {
    const { e, dir, fresh } = await setup();
    const registered = numberList(60);
    expect((await run(fresh(), { operation: 'register', numbers: registered })).exitCode).toBe(0);
    // The spec's "repeated registration ... consumes one quota unit" is the unit paid the first time: the
    // emulator charges nothing for a repeat.
    expect((await run(fresh(), { operation: 'register', numbers: registered.slice(0, 3) })).summary?.already).toBe(3);
    expect(e.sandbox.account.quota.used).toBe(60);
    e.sandbox.setSettings({ quotaTotal: 60 + 25 });
    const fresh20 = numberList(20, 3000);
    const file = writeInput(dir, 'mixed.txt', lines([...registered, ...fresh20]));
    const dry = fresh();
    const plan = await run(dry, { operation: 'register', file, dryRun: true });
    expect(plan.plan.registered).toEqual({ items: 60, units: 60 });
    expect(dry.io.stderrText()).toContain(
      'quota: 20 units for 20 new numbers (60 registered already cost nothing), 25 left',
    );
    const report = await run(fresh(), { operation: 'register', file });
    expect(report.exitCode).toBe(0);
    expect(report.summary).toMatchObject({ accepted: 20, already: 60 });
    expect(e.sandbox.account.quota.used).toBe(80);
    // Lookups are 200 numbers a request, free: the dry run's and the run's, each of two pages of 40 records.
    expect(sends(e, 'gettracklist')).toBe(4);
  });

  it('still refuses when the new numbers alone do not fit, saying which are new', async () => {
    const { e, dir, fresh } = await setup();
    const registered = numberList(10);
    await run(fresh(), { operation: 'register', numbers: registered });
    e.sandbox.setSettings({ quotaTotal: 10 + 5 });
    const file = writeInput(dir, 'mixed.txt', lines([...registered, ...numberList(8, 3000)]));
    const err = (await run(fresh(), { operation: 'register', file }).catch((x: unknown) => x)) as TrkError;
    expect(err.exitCode).toBe(2);
    expect(err.message).toBe(
      `not enough quota for ${file}: its new numbers need 8 units ` +
        '(the other 10 are registered already and cost nothing), 5 are left (3 missing)',
    );
    expect(sends(e)).toBe(1);
  });

  it('if the lookup cannot be made, warns and sends: the service refuses what the quota does not cover', async () => {
    const { e, dir, fresh } = await setup();
    const registered = numberList(10);
    await run(fresh(), { operation: 'register', numbers: registered });
    e.sandbox.setSettings({ quotaTotal: 10 + 5 });
    const broken: ApiClient = {
      version: 'v2',
      call: async (op, body, opts) => {
        if (op === 'gettracklist') throw new TrkError('the list is down');
        return e.client.call(op, body, opts);
      },
      close: async () => {},
    };
    const file = writeInput(dir, 'mixed.txt', lines([...registered, ...numberList(3, 3000)]));
    const ctx = fresh();
    const report = await run(ctx, { operation: 'register', file, client: broken });
    expect(ctx.io.stderrText()).toMatch(
      /could not look up which numbers are registered already \(the list is down\): sending/,
    );
    expect(report.exitCode).toBe(0);
    expect(report.summary).toMatchObject({ accepted: 3, already: 10 });
  });
});

describe('options that change what is sent make a new run', () => {
  it('a finished file run again with a --column or a carrier default re-sends rows whose request changes', async () => {
    const { e, dir, fresh } = await setup();
    const list = numberList(5);
    const file = writeInput(dir, 'shop.csv', `number,shipper\n${list.map((n) => `${n},190271`).join('\n')}\n`);
    expect((await run(fresh(), { operation: 'register', file })).summary?.accepted).toBe(5);
    const same = fresh();
    await run(same, { operation: 'register', file });
    expect(same.io.stderrText()).toMatch(/the same input was fully sent/);
    const before = sends(e);
    // The shipper column, ignored so far, now says the carrier: every request changes.
    const mapped = await run(fresh(), { operation: 'register', file, columns: ['shipper=carrier'] });
    expect(mapped.summary).toMatchObject({ total: 5, rejected: 0 });
    expect(sends(e) - before).toBe(1);
    // A carrier default on rows without one changes them too; rows with their own carrier keep theirs.
    const other = writeInput(dir, 'plain.csv', `number,carrier\n${list[0]},\n${list[1]},190271\n`);
    expect((await run(fresh(), { operation: 'register', file: other })).exitCode).toBe(0);
    const defaulted = await run(fresh(), { operation: 'register', file: other, defaults: { carrier: '190271' } });
    expect(defaulted.summary).toMatchObject({ total: 1 });
  });
});

describe('register --tag of a number registered already', () => {
  it('applies the tag with a free change of its info and says so; the row reads done', async () => {
    const { e, fresh } = await setup();
    const [n] = numberList(1);
    await run(fresh(), { operation: 'register', numbers: [n!], defaults: { tag: 'old' } });
    const used = e.sandbox.account.quota.used;
    const ctx = fresh();
    const report = await run(ctx, { operation: 'register', numbers: [n!], defaults: { tag: 'new' } });
    expect(report.exitCode).toBe(0);
    expect(report.summary).toMatchObject({ accepted: 0, already: 1, tagApplied: 1, rejected: 0 });
    expect(ctx.io.stderrText()).toBe('registered 0, already registered 1, tag applied 1\n');
    expect(report.results.accepted).toEqual([expect.objectContaining({ number: n, tag: 'new', tag_applied: true })]);
    expect(report.results.rejected).toEqual([]);
    expect([...e.sandbox.account.store.values()].find((r) => r.number === n)?.tag).toBe('new');
    expect(e.sandbox.account.quota.used).toBe(used);
    expect(sends(e, 'changeinfo')).toBe(1);
  });

  it('says plainly when the tag could not be applied, and how to apply it; not a silent exit 0', async () => {
    const { e, dir, fresh } = await setup();
    const [n] = numberList(1);
    const refusing: ApiClient = {
      version: 'v2',
      call: async (op, body, opts) => {
        if (op === 'changeinfo')
          return {
            code: 0,
            data: { accepted: [], rejected: [{ number: n, error: { code: -18019902, message: 'not registered' } }] },
          } as never;
        if (op === 'register')
          return {
            code: 0,
            data: { accepted: [], rejected: [{ number: n, error: { code: -18019901, message: 'already' } }] },
          } as never;
        return e.client.call(op, body, opts);
      },
      close: async () => {},
    };
    const ctx = fresh();
    const report = await run(ctx, { operation: 'register', numbers: [n!], defaults: { tag: 'new' }, client: refusing });
    expect(report.exitCode).toBe(1);
    expect(report.results.rejected).toEqual([
      {
        number: n,
        tag_applied: false,
        error: {
          code: -18019902,
          message:
            'registered already, but the tag was not applied (not registered): ' +
            `apply it with trk update ${n} --tag "new"`,
        },
      },
    ]);
    expect(ctx.io.stderrText()).toBe('registered 0, rejected 1\n');
    // From a file, the summary names it apart from other rejections.
    const fromFile = fresh();
    const file = writeInput(dir, 'tags.csv', `number,tag\n${n},new\n`);
    expect((await run(fromFile, { operation: 'register', file, client: refusing })).exitCode).toBe(1);
    const line = '    -18019902 registered already, tag not applied: number not registered: 1\n';
    expect(fromFile.io.stderrText()).toContain(line);
  });
});

describe('rows set aside are named', () => {
  it('without --rejects or an output format, rejections go to a rejects file in the state folder', async () => {
    const { dir, state, fresh } = await setup();
    const file = writeInput(
      dir,
      'in.csv',
      `number,tag\n${numberList(2)
        .map((n) => `${n},ok`)
        .join('\n')}\nXX00000001,bad\n`,
    );
    const ctx = fresh();
    const report = await run(ctx, { operation: 'register', file });
    expect(report.exitCode).toBe(3);
    const written = /1 row written to (.*)\n/.exec(ctx.io.stderrText())?.[1];
    expect(written).toMatch(
      new RegExp(`^${path.join(state, 'rejects')}/\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d-register-in\\.csv$`),
    );
    expect(parseCsv(readFileSync(written!, 'utf8'))).toEqual([
      {
        number: 'XX00000001',
        tag: 'bad',
        input_line: '4',
        error_code: '-18019903',
        error_message: 'carrier cannot be detected',
      },
    ]);
    // No rejections, no file; an output format shows them itself.
    const clean = writeInput(dir, 'clean.csv', `number\n${numberList(2, 50).join('\n')}\n`);
    await run(fresh(), { operation: 'register', file: clean });
    await run(fresh({ output: 'json' }), {
      operation: 'register',
      file: writeInput(dir, 'bad.csv', 'number\nXX00000002\n'),
    });
    // A read prints its results, those not found among them.
    const unknown = writeInput(dir, 'info.csv', 'number\nRR999999991CN\n');
    expect((await run(fresh(), { operation: 'gettrackinfo', file: unknown })).summary?.rejected).toBe(1);
    expect(readdirSync(path.join(state, 'rejects'))).toEqual([path.basename(written!)]);
  });

  it('--quiet prints only the one line saying what was set aside, and nothing when all went well', async () => {
    const { dir, fresh } = await setup();
    const file = writeInput(dir, 'in.csv', `number\n${numberList(3).join('\n')}\nXX00000001\nno!\n`);
    const quiet = fresh({ quiet: true });
    const report = await run(quiet, { operation: 'register', file, skipInvalid: true });
    expect(report.exitCode).toBe(3);
    const text = quiet.io.stderrText();
    expect(text.split('\n').filter(Boolean)).toHaveLength(1);
    expect(text).toMatch(/^register: 2 of 5 numbers set aside \(1 rejected, 1 invalid\): written to .*\.csv\n$/);
    const ok = fresh({ quiet: true });
    await run(ok, {
      operation: 'register',
      file: writeInput(dir, 'ok.csv', `number\n${numberList(2, 70).join('\n')}\n`),
    });
    expect(ok.io.stderrText()).toBe('');
  });
});
