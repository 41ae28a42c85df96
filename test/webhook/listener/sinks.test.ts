import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createTestIO } from '../../test-io.js';
import { DEFAULT_QUEUE_LIMITS } from '../../../src/webhook/listener/limits.js';
import { ForwardSink } from '../../../src/webhook/listener/sinks/forward.js';
import { PrintSink } from '../../../src/webhook/listener/sinks/print.js';
import { SaveSink } from '../../../src/webhook/listener/sinks/save.js';
import { settleWithin } from '../../../src/webhook/listener/sinks/sink.js';
import type { ReceivedEvent } from '../../../src/webhook/listener/types.js';
import { summarizeEvent } from '../../../src/webhook/summary.js';
import { app, deadUrl, stopped, tempDir, until } from '../app.js';

function event(number: string): ReceivedEvent {
  const raw = stopped(number);
  const body = JSON.parse(raw.toString()) as unknown;
  return {
    receivedAt: Date.parse('2025-03-01T12:00:00.250Z'),
    path: '/hook',
    headers: { sign: 'abc' },
    request: { method: 'POST', url: '/hook', httpVersion: '1.1', rawHeaders: ['Host', 'x', 'sign', 'abc'] },
    raw,
    body,
    version: 'v2',
    verified: true,
    accepted: true,
    status: 200,
    summary: summarizeEvent(body),
  };
}

describe('settleWithin', () => {
  it('waits for the work, or for the deadline when the work is slower, and never rejects', async () => {
    // The deadline races real work, so it is a timer of its own, driven here.
    vi.useFakeTimers();
    try {
      let settled = false;
      void settleWithin(new Promise(() => {}), 50).then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(49);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(settled).toBe(true);
      // A failure of the work ends the wait at once, without the deadline.
      let failed = false;
      void settleWithin(Promise.reject(new Error('no')), 10_000).then(() => (failed = true));
      await vi.advanceTimersByTimeAsync(0);
      expect(failed).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('PrintSink', () => {
  it('a line on stdout; with --print the body on stdout and the line on stderr', async () => {
    const io = createTestIO();
    await new PrintSink(io, { json: true, print: false, carrierName: undefined }).afterAnswer(event('AA1'));
    expect(JSON.parse(io.stdoutText())).toMatchObject({ event: 'TRACKING_STOPPED', number: 'AA1', verified: true });
    const printing = createTestIO();
    await new PrintSink(printing, { json: false, print: true, carrierName: undefined }).afterAnswer(event('AA2'));
    expect(printing.stdoutText()).toBe(`${stopped('AA2').toString()}\n`);
    expect(printing.stderrText()).toMatch(/TRACKING_STOPPED {2}AA2 {2}2151/);
  });
});

describe('SaveSink', () => {
  it('saves before the answer: the pair is on disk once write has settled', async () => {
    const dir = await tempDir();
    const sink = new SaveSink(createTestIO(), dir, 2000);
    const ev = event('AA3');
    await sink.write(ev);
    expect((await readdir(dir)).sort()).toEqual([
      '20250301T120000.250Z-TRACKING_STOPPED-AA3.headers',
      '20250301T120000.250Z-TRACKING_STOPPED-AA3.json',
    ]);
    await sink.afterAnswer(ev);
    expect(ev.savedTo).toBe(path.join(dir, '20250301T120000.250Z-TRACKING_STOPPED-AA3.json'));
    expect(await readFile(path.join(dir, '20250301T120000.250Z-TRACKING_STOPPED-AA3.headers'), 'utf8')).toBe(
      'POST /hook HTTP/1.1\nHost: x\nsign: abc\n',
    );
  });

  it('a folder it cannot write to is told on stderr, and the notification goes on', async () => {
    const io = createTestIO();
    const sink = new SaveSink(io, path.join(await tempDir(), 'missing', 'deeper'), 2000);
    await sink.write(event('AA4'));
    expect(io.stderrText()).toMatch(/^could not save AA4: ENOENT/);
  });
});

describe('ForwardSink', () => {
  const options = async (target: string) => ({
    target,
    timeoutMs: 5000,
    queueRoot: path.join(await tempDir(), 'queue'),
    queue: { ...DEFAULT_QUEUE_LIMITS, firstDelayMs: 20, maxDelayMs: 20, maxAttempts: 2 },
    writeDeadlineMs: 2000,
    now: Date.now,
  });

  it('keeps the notification on disk before the answer, and lets it go once the app takes it', async () => {
    const target = await app();
    const opts = await options(target.url);
    const sink = new ForwardSink(createTestIO(), opts);
    const ev = event('AA5');
    await sink.write(ev);
    const [folder] = await readdir(opts.queueRoot);
    expect(await readdir(path.join(opts.queueRoot, folder!))).toHaveLength(2);
    await sink.afterAnswer(ev);
    expect(ev.forward).toEqual({ status: 200 });
    expect(target.got[0]!.headers.sign).toBe('abc');
    expect(target.got[0]!.headers.host).not.toBe('x'); // a header of the connection, not forwarded
    sink.stop();
    await sink.close();
    expect(await readdir(opts.queueRoot)).toEqual([]);
    expect(sink.summary()).toEqual({ counts: '1 forwarded, 0 failed', notes: [] });
  });

  it('after its attempts, leaves the notification in the queue and says where', async () => {
    const io = createTestIO();
    const opts = await options(await deadUrl());
    const sink = new ForwardSink(io, opts);
    const ev = event('AA6');
    await sink.write(ev);
    await sink.afterAnswer(ev);
    await until(() => /after 2 attempts/.test(io.stderrText()));
    sink.stop();
    await sink.close();
    const [folder] = await readdir(opts.queueRoot);
    const dir = path.join(opts.queueRoot, folder!);
    expect(io.stderrText()).toContain(`AA6 not forwarded after 2 attempts: left in ${dir} for trk webhook replay`);
    expect(sink.summary().counts).toBe('0 forwarded, 1 failed');
    expect(sink.summary().notes).toEqual([
      `1 notification not forwarded is kept in ${dir}: trk webhook replay ${dir} --forward-to ${opts.target}`,
    ]);
  });
});
