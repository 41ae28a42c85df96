import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionGuard, type GuardedSocket } from '../../../src/webhook/listener/connections.js';

class FakeSocket extends EventEmitter implements GuardedSocket {
  destroyed = false;
  constructor(readonly remoteAddress: string) {
    super();
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('close');
  }
}

let t = 0;
const guards: ConnectionGuard[] = [];
function guard(limits: Partial<ConstructorParameters<typeof ConnectionGuard>[0]> = {}): ConnectionGuard {
  const g = new ConnectionGuard(
    { maxConnections: 4, maxConnectionsPerAddress: 3, headersTimeoutMs: 1000, ...limits },
    () => t,
  );
  guards.push(g);
  return g;
}
afterEach(() => {
  for (const g of guards.splice(0)) g.stop();
  t = 0;
});

function connect(g: ConnectionGuard, address: string): FakeSocket {
  const s = new FakeSocket(address);
  g.admit(s);
  t += 1;
  return s;
}

describe('ConnectionGuard', () => {
  it('at its limit, closes the connection idle longest to hold a new one', () => {
    const g = guard();
    const [a, b, c, d] = ['1', '2', '3', '4'].map((n) => connect(g, `10.0.0.${n}`)) as FakeSocket[];
    g.requestStarted(a!); // busy: never closed to make room
    const e = connect(g, '10.0.0.5');
    expect([a, b, c, d, e].map((s) => s!.destroyed)).toEqual([false, true, false, false, false]);
    expect(g.size).toBe(4);
    expect(g.counts).toEqual({ idleClosed: 1, refused: 0 });
  });

  it('a connection answered and kept alive is idle again, from the time of its answer', () => {
    const g = guard();
    const [a, b, c, d] = ['1', '2', '3', '4'].map((n) => connect(g, `10.0.0.${n}`)) as FakeSocket[];
    g.requestStarted(a!);
    g.requestEnded(a!);
    connect(g, '10.0.0.5');
    // a was idle first but became idle again last: b goes.
    expect([a, b, c, d].map((s) => s!.destroyed)).toEqual([false, true, false, false]);
  });

  it('refuses a new connection when every one held is busy', () => {
    const g = guard();
    const held = ['1', '2', '3', '4'].map((n) => connect(g, `10.0.0.${n}`));
    for (const s of held) g.requestStarted(s);
    const e = connect(g, '10.0.0.5');
    expect(e.destroyed).toBe(true);
    expect(held.every((s) => !s.destroyed)).toBe(true);
    expect(g.counts.refused).toBe(1);
  });

  it('holds at most maxConnectionsPerAddress from an address: its idle one makes room, else the new one goes', () => {
    const g = guard({ maxConnections: 100 });
    const [a, b, c] = [1, 2, 3].map(() => connect(g, '10.0.0.9')) as FakeSocket[];
    const other = connect(g, '10.0.0.1'); // idle longer than the newest of 10.0.0.9, but not that address's
    g.requestStarted(a!);
    const d = connect(g, '10.0.0.9');
    expect([a, b, c, d].map((s) => s!.destroyed)).toEqual([false, true, false, false]);
    expect(other.destroyed).toBe(false);
    g.requestStarted(c!);
    g.requestStarted(d);
    const e = connect(g, '10.0.0.9');
    expect(e.destroyed).toBe(true);
    expect(g.size).toBe(4);
  });

  it('closes connections idle past the headers timeout, busy ones never', () => {
    // The sweep is a timer of its own, driven here.
    vi.useFakeTimers();
    try {
      const g = guard({ headersTimeoutMs: 200 });
      const a = connect(g, '10.0.0.1');
      const b = connect(g, '10.0.0.2');
      g.requestStarted(b);
      t = 1000;
      vi.advanceTimersByTime(50); // the sweep runs every 50 ms at this timeout
      expect(a.destroyed).toBe(true);
      expect(b.destroyed).toBe(false);
      expect(g.counts.idleClosed).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('forgets a connection that closes by itself', () => {
    const g = guard();
    const a = connect(g, '10.0.0.1');
    a.destroy();
    expect(g.size).toBe(0);
    for (const n of ['2', '3', '4', '5']) connect(g, `10.0.0.${n}`);
    expect(g.counts).toEqual({ idleClosed: 0, refused: 0 });
  });
});
