// Which connections the listener holds. Each costs a file descriptor and some memory, so their number is capped,
// and so is the share of one address, without letting those who hold connections and send nothing (or send
// their headers a byte at a time) lock out the service:
// - a connection is idle from its opening, or from its last answer, until its next request's headers are in;
//   idle longer than `headersTimeoutMs`, it is closed (Node's own headers timeout lets such a connection be);
// - at `maxConnections`, a new connection closes the one idle longest to take its place, and is itself refused
//   only when none is idle (every connection held is then a request being read, waiting or answered, which the
//   turns to read bodies bound);
// - one address holds at most `maxConnectionsPerAddress`: past that, its own longest idle connection makes room,
//   or the new one is refused.
// The service opens a connection and sends its request at once, so it is idle for a moment only, and never the
// longest.

export interface GuardedSocket {
  readonly remoteAddress?: string | undefined;
  destroy(): void;
  once(event: 'close', listener: () => void): unknown;
}

export interface ConnectionLimits {
  maxConnections: number;
  maxConnectionsPerAddress: number;
  headersTimeoutMs: number;
}

interface Held {
  address: string;
  /** Requests on it not answered yet. */
  requests: number;
}

/** Connections closed or refused to keep room, for the stop summary. */
export interface ConnectionCounts {
  /** Idle ones closed: for too long idle, or to make room. */
  idleClosed: number;
  /** New ones refused: the listener or their address at its limit with none idle to close. */
  refused: number;
}

export class ConnectionGuard {
  private readonly held = new Map<GuardedSocket, Held>();
  /** Idle connections by the time they became idle, oldest first (Maps keep the order of insertion). */
  private readonly idle = new Map<GuardedSocket, number>();
  private readonly perAddress = new Map<string, Set<GuardedSocket>>();
  private sweeper: NodeJS.Timeout | undefined;
  readonly counts: ConnectionCounts = { idleClosed: 0, refused: 0 };

  constructor(
    private readonly limits: ConnectionLimits,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** A new connection: held, in place of an idle one if need be, or closed at once. */
  admit(socket: GuardedSocket): void {
    const address = socket.remoteAddress ?? '';
    const mine = this.perAddress.get(address);
    if (mine !== undefined && mine.size >= this.limits.maxConnectionsPerAddress && !this.closeIdlestOf(mine)) {
      this.refuse(socket);
      return;
    }
    if (this.held.size >= this.limits.maxConnections && !this.closeIdlest()) {
      this.refuse(socket);
      return;
    }
    this.held.set(socket, { address, requests: 0 });
    this.idle.set(socket, this.clock());
    let set = this.perAddress.get(address);
    if (set === undefined) this.perAddress.set(address, (set = new Set()));
    set.add(socket);
    socket.once('close', () => this.forget(socket));
    this.sweeper ??= setInterval(
      () => this.sweep(),
      Math.max(50, Math.min(1000, this.limits.headersTimeoutMs / 4)),
    ).unref();
  }

  /** A request's headers are in: the connection is busy until it is answered. */
  requestStarted(socket: GuardedSocket): void {
    const h = this.held.get(socket);
    if (h === undefined) return;
    h.requests += 1;
    this.idle.delete(socket);
  }

  /** A request was answered: with none left, the connection is idle again (kept alive for the next). */
  requestEnded(socket: GuardedSocket): void {
    const h = this.held.get(socket);
    if (h === undefined || h.requests === 0) return;
    h.requests -= 1;
    if (h.requests === 0) this.idle.set(socket, this.clock());
  }

  /** Connections held now. */
  get size(): number {
    return this.held.size;
  }

  stop(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private refuse(socket: GuardedSocket): void {
    this.counts.refused += 1;
    socket.destroy();
  }

  /** Close the listener's connection idle longest (the first in `idle`); false when none is idle. */
  private closeIdlest(): boolean {
    const first = this.idle.keys().next();
    if (first.done) return false;
    this.closeIdle(first.value);
    return true;
  }

  /** Close the connection idle longest among one address's; false when none of them is idle. */
  private closeIdlestOf(sockets: ReadonlySet<GuardedSocket>): boolean {
    let oldest: GuardedSocket | undefined;
    let since = Infinity;
    for (const s of sockets) {
      const t = this.idle.get(s);
      if (t !== undefined && t < since) [oldest, since] = [s, t];
    }
    if (oldest === undefined) return false;
    this.closeIdle(oldest);
    return true;
  }

  private closeIdle(socket: GuardedSocket): void {
    this.counts.idleClosed += 1;
    this.forget(socket);
    socket.destroy();
  }

  /** Close the connections idle for longer than the headers timeout (oldest first, so the scan stops early). */
  private sweep(): void {
    const cutoff = this.clock() - this.limits.headersTimeoutMs;
    for (const [socket, since] of this.idle) {
      if (since > cutoff) break;
      this.closeIdle(socket);
    }
  }

  private forget(socket: GuardedSocket): void {
    const h = this.held.get(socket);
    if (h === undefined) return;
    this.held.delete(socket);
    this.idle.delete(socket);
    const set = this.perAddress.get(h.address);
    set?.delete(socket);
    if (set?.size === 0) this.perAddress.delete(h.address);
  }
}
