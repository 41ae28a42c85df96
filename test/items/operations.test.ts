// The same engine for the other item operations and for `trk list --number` beyond 200 numbers.

import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { clock } from '../../src/core/clock.js';
import { InterruptedError } from '../../src/core/errors.js';
import {
  bulkSandbox,
  numberList,
  runEngine,
  tempDir,
  testContext,
  writeInput,
  type BulkSandbox,
  type RunOptions,
} from './helpers.js';

let env: BulkSandbox | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function setup(opts: Parameters<typeof bulkSandbox>[0] = {}) {
  env = await bulkSandbox(opts);
  const dir = tempDir();
  const e = env;
  const ctx = () =>
    testContext({ stateDir: path.join(dir, 'state'), settings: { baseUrl: e.sandbox.url, apiKey: e.sandbox.key } });
  const run = (opts: RunOptions) => runEngine(ctx(), opts);
  return { e, dir, ctx, run };
}

describe('item operations other than register', () => {
  it('stop, retrack and delete numbers from files, reusing the import file', async () => {
    const { e, dir, run } = await setup();
    const numbers = numberList(60);
    const file = writeInput(dir, 'in.csv', `number,carrier,tag\n${numbers.map((n) => `${n},3011,x`).join('\n')}\n`);
    await run({ operation: 'register', file });

    const stopCtxReport = await run({ operation: 'stoptrack', file });
    expect(stopCtxReport.summary).toMatchObject({ accepted: 60, rejected: 0 });
    expect([...e.sandbox.account.store.values()].every((r) => !r.tracking)).toBe(true);

    const list = writeInput(dir, 'list.txt', `${numbers.join('\n')}\n`);
    const retrack = await run({ operation: 'retrack', file: list });
    expect(retrack.summary?.accepted).toBe(60);
    expect([...e.sandbox.account.store.values()].every((r) => r.tracking && r.retracked)).toBe(true);

    // A second retrack is refused by the service for every number: rejections, exit 3.
    // The same file again: remembered, so nothing is sent without --again.
    const remembered = await run({ operation: 'retrack', file: list });
    expect(remembered.exitCode).toBe(0);
    expect(remembered.summary).toBeUndefined();
    expect(remembered.plan.finishedBefore?.counts.accepted).toBe(60);
    // Sent again: every number is tracking already, which is what retrack asks for.
    const twice = await run({ operation: 'retrack', file: list, again: true });
    expect(twice.exitCode).toBe(0);
    expect(twice.summary).toMatchObject({ accepted: 0, already: 60, rejected: 0 });

    const del = await run({ operation: 'deletetrack', file: list });
    expect(del.summary?.accepted).toBe(60);
    expect(e.sandbox.account.store.size).toBe(0);
  });

  it('a column the operation does not use is noted and ignored', async () => {
    const { dir, ctx } = await setup();
    const file = writeInput(dir, 'in.csv', 'number,tag\nRR000000001CN,x\n');
    const c = ctx();
    const report = await runEngine(c, { operation: 'stoptrack', file });
    // The number is not registered: rejected, and nothing done at all.
    expect(report.exitCode).toBe(1);
    expect(c.io.stderrText()).toContain(`${file}: ignored tag: not used by trk stop`);
  });

  it('lost answers of a free operation: sent again, and "already stopped" then counts as done', async () => {
    // Seeded (the first answers are lost): with Math.random, five chunks at 40 % lose none about one run in 13.
    const { e, dir, run } = await setup({ seed: 7 });
    const numbers = numberList(200);
    const file = writeInput(dir, 'in.txt', `${numbers.join('\n')}\n`);
    await run({ operation: 'register', file });
    e.sandbox.setFaults({ dropRate: 0.4 });
    const report = await run({ operation: 'stoptrack', file });
    e.sandbox.setFaults({ dropRate: 0 });
    expect(e.sandbox.state().requests.dropped).toBeGreaterThan(0);
    expect(report.summary?.rejected).toBe(0);
    expect((report.summary?.accepted ?? 0) + (report.summary?.already ?? 0)).toBe(200);
    expect(report.summary?.already).toBeGreaterThan(0);
    expect([...e.sandbox.account.store.values()].every((r) => !r.tracking)).toBe(true);
  });

  it('change-carrier after lost answers is looked up, not charged twice', async () => {
    const { e, dir, run } = await setup({ seed: 7 });
    // Ten chunks, so that the seeded 40 % of lost answers surely hits some.
    const numbers = numberList(400);
    await run({ operation: 'register', file: writeInput(dir, 'reg.txt', `${numbers.join('\n')}\n`) });
    // Let every record get its first result: a change is refused while the last one is pending.
    await e.sandbox.advance(3_600_000);
    const usedBefore = e.sandbox.account.quota.used;
    e.sandbox.setFaults({ dropRate: 0.4 });
    const file = writeInput(
      dir,
      'cc.csv',
      `number,carrier,carrier_new\n${numbers.map((n) => `${n},3011,21051`).join('\n')}\n`,
    );
    const report = await run({ operation: 'changecarrier', file });
    e.sandbox.setFaults({ dropRate: 0 });
    expect(e.sandbox.state().requests.dropped).toBeGreaterThan(0);
    expect(report.summary?.accepted).toBe(400);
    expect(report.summary?.verified).toBeGreaterThan(0);
    expect([...e.sandbox.account.store.values()].every((r) => r.carrier === 21051 && r.changeCount === 1)).toBe(true);
    expect(e.sandbox.account.quota.used - usedBefore).toBe(400);
  });

  it('list --number with more than 200 numbers: exact matches, in calls of 200, every page', async () => {
    const { e, dir, run } = await setup();
    const numbers = numberList(450);
    await run({ operation: 'register', file: writeInput(dir, 'reg.txt', `${numbers.join('\n')}\n`) });
    const missing = ['RR999999991CN', 'RR999999992CN'];
    const file = writeInput(dir, 'q.txt', `${[...numbers, ...missing, numbers[0]].join('\n')}\n`);
    const before = e.sandbox.state().requests.byOperation['v2/gettracklist'] ?? 0;
    const report = await run({ operation: 'gettracklist', file });
    expect(report.results.accepted).toHaveLength(450);
    expect(new Set(report.results.accepted.map((r) => r.number))).toEqual(new Set(numbers));
    expect(report.summary?.notFound).toBe(2);
    expect(report.plan.requests).toBe(3);
    // 200 records are 5 pages of 40: 5 + 5 + 2 calls.
    expect((e.sandbox.state().requests.byOperation['v2/gettracklist'] ?? 0) - before).toBe(12);
    // Reads keep no journal.
    expect(
      existsSync(path.join(dir, 'state', 'journals')) ? readdirSync(path.join(dir, 'state', 'journals')) : [],
    ).toEqual([]);
  });

  it('list --number beyond 200, the service failing now and then: each page sent again by the run', async () => {
    const { e, dir, run } = await setup({ seed: 5 });
    const numbers = numberList(450);
    await run({ operation: 'register', file: writeInput(dir, 'reg.txt', `${numbers.join('\n')}\n`) });
    const file = writeInput(dir, 'q.txt', `${[...numbers, 'RR999999991CN'].join('\n')}\n`);
    e.sandbox.setFaults({ failureRate: 0.2 });
    const report = await run({ operation: 'gettracklist', file });
    e.sandbox.setFaults({ failureRate: 0 });
    expect(e.sandbox.state().requests.injected.failures).toBeGreaterThan(0);
    expect(report.results.accepted.map((r) => r.number).sort()).toEqual([...numbers].sort());
    expect(report.summary?.notFound).toBe(1);
  });

  it('list --number beyond 200, Ctrl-C among its pages: interrupted at once, and nothing more is asked', async () => {
    const { e, dir, ctx } = await setup({ latencyMs: 150 });
    const numbers = numberList(450);
    await runEngine(ctx(), { operation: 'register', file: writeInput(dir, 'reg.txt', `${numbers.join('\n')}\n`) });
    const asked = () => e.sandbox.state().requests.byOperation['v2/gettracklist'] ?? 0;
    const before = asked();
    const c = ctx();
    const running = runEngine(c, { operation: 'gettracklist', file: writeInput(dir, 'q.txt', numbers.join('\n')) });
    while (asked() === before) await nextTurn();
    c.abort();
    await expect(running).rejects.toBeInstanceOf(InterruptedError);
    const atStop = asked();
    expect(atStop - before).toBeGreaterThan(0);
    expect(atStop - before).toBeLessThan(12);
    await clock().sleep(5_000);
    expect(asked()).toBe(atStop);
  });

  it('list --number keeps to one exact number when a call holds a single one', async () => {
    const { dir, run } = await setup();
    await run({ operation: 'register', file: writeInput(dir, 'reg.txt', 'RR000000011CN\nRR000000111CN\n') });
    // One number alone is a substring match for the service: RR000000011CN must not bring RR000000111CN... nor
    // the other way round.
    const report = await run({ operation: 'gettracklist', file: writeInput(dir, 'q.txt', 'RR000000011CN\n') });
    expect(report.results.accepted.map((r) => r.number)).toEqual(['RR000000011CN']);
  });

  it('gettrackinfo from a file', async () => {
    const { e, dir, run } = await setup();
    const numbers = numberList(45);
    await run({ operation: 'register', file: writeInput(dir, 'reg.txt', `${numbers.join('\n')}\n`) });
    await e.sandbox.advance(60_000); // the first results (before them gettrackinfo rejects a number -18019909)
    const report = await run({
      operation: 'gettrackinfo',
      file: writeInput(dir, 'q.txt', `${numbers.join('\n')}\nRR999999991CN\n`),
    });
    expect(report.results.accepted).toHaveLength(45);
    expect(report.summary?.rejected).toBe(1);
    expect(report.results.accepted[0]).toHaveProperty('track_info');
  });
});
