// The listener's sink of `--store`, against each store (kinds.ts): what it keeps, what it refuses to keep, and a
// write that fails or takes too long (the listener then answers 503 and the service sends it again).

import { describe, expect, it, vi } from 'vitest';
import { StoreSink } from '../../src/mirror/webhook-sink.js';
import type { Store } from '../../src/store/types.js';
import type { ReceivedEvent } from '../../src/webhook/listen.js';
import { summarizeEvent } from '../../src/webhook/summary.js';
import { fixtureJson } from '../fixture-files.js';
import { all, freshStore, STORE_KINDS } from '../store/kinds.js';

const yanwen = fixtureJson('doc-v2/gettrackinfo_yanwen_190012.json').data.accepted[0] as Record<string, unknown>;

function event(number: string, verified = true): ReceivedEvent {
  const body = { event: 'TRACKING_UPDATED', data: { ...structuredClone(yanwen), number } };
  const raw = Buffer.from(JSON.stringify(body));
  return {
    receivedAt: Date.parse('2026-06-01T12:00:00Z'),
    path: '/hook',
    headers: { sign: 'abc' },
    request: { method: 'POST', url: '/hook', httpVersion: '1.1', rawHeaders: ['sign', 'abc'] },
    raw,
    body,
    version: 'v2',
    verified,
    accepted: true,
    status: 200,
    summary: summarizeEvent(body),
  };
}

describe.each(STORE_KINDS)('the --store sink ($name)', (kind) => {
  if (kind.missing) return void it.skip(kind.missing, () => {});

  it('keeps verified notifications once written, and nothing of one whose signature did not hold', async () => {
    const store = await freshStore(kind);
    const sink = new StoreSink(store);
    await sink.write(event('YT0000000001'));
    await sink.write(event('YT0000000002', false));
    expect((await all(store.records({}))).map((r) => JSON.parse(r.raw).number)).toEqual(['YT0000000001']);
    expect(sink.summary()).toEqual({ counts: '1 notification stored in the mirror (1 status change)', notes: [] });
  });

  it('fails a write the mirror cannot take, so that the listener answers 503', async () => {
    const store = await freshStore(kind);
    const sink = new StoreSink(store);
    await sink.close();
    await expect(sink.write(event('YT0000000003'))).rejects.toThrow();
    expect(sink.summary().counts).toBe(
      '0 notifications stored in the mirror (0 status changes), ' +
        '1 write failed (answered 503: the service sends them again)',
    );
  });
});

describe('the --store sink of a mirror that does not answer', () => {
  it('gives up before the service stops waiting', async () => {
    const stuck = { writeDetails: () => new Promise(() => {}), close: async () => {} } as unknown as Store;
    // The deadline races real work, so it is a timer of its own, driven here.
    vi.useFakeTimers();
    try {
      let outcome: unknown;
      void new StoreSink(stuck, { deadlineMs: 200 }).write(event('YT0000000004')).catch((e: unknown) => (outcome = e));
      await vi.advanceTimersByTimeAsync(199);
      expect(outcome).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect((outcome as Error).message).toBe('the mirror took longer than 0.2 s');
    } finally {
      vi.useRealTimers();
    }
  });
});
