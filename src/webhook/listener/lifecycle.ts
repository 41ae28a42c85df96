// The listener's life: the parts put together and listening, the counts and those waiting on them, the stop and
// its summary.

import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TrkError } from '../../core/errors.js';
import { nodeHttp } from '../../core/node.js';
import { fmt, plural } from '../../core/text.js';
import { Admission } from './admission.js';
import { ConnectionGuard } from './connections.js';
import { DEFAULT_LISTEN_HOST, DEFAULT_LISTEN_PATH } from '../address.js';
import { DEFAULT_QUEUE_LIMITS, settleLimits } from './limits.js';
import { normalisePath, Pipeline } from './pipeline.js';
import { RefusalLog } from './refusals.js';
import { ForwardSink } from './sinks/forward.js';
import { PrintSink } from './sinks/print.js';
import { makeSaveDir, SaveSink } from './sinks/save.js';
import type { Sink } from './sinks/sink.js';
import type { Limits, Listener, ListenerCounts, ListenerOptions, ReceivedEvent } from './types.js';

export { DEFAULT_LISTEN_HOST, DEFAULT_LISTEN_PATH, DEFAULT_LISTEN_PORT } from '../address.js';

/** The sinks of the options, in the order they are written: the caller's first, then save, forward and print. */
function sinksOf(opts: ListenerOptions, limits: Limits, now: () => number): Sink[] {
  const sinks: Sink[] = [...(opts.sinks ?? [])];
  if (opts.saveDir !== undefined) sinks.push(new SaveSink(opts.io, opts.saveDir, limits.writeDeadlineMs));
  if (opts.forwardTo !== undefined) {
    sinks.push(
      new ForwardSink(opts.io, {
        target: opts.forwardTo,
        timeoutMs: limits.forwardTimeoutMs,
        queueRoot: opts.queueRoot ?? join(tmpdir(), 'trk-webhook-queue'),
        queue: { ...DEFAULT_QUEUE_LIMITS, ...opts.queue },
        writeDeadlineMs: limits.writeDeadlineMs,
        now,
      }),
    );
  }
  sinks.push(
    new PrintSink(opts.io, { json: opts.json === true, print: opts.print === true, carrierName: opts.carrierName }),
  );
  return sinks;
}

/** Listening on `host:port`, or an error that says why not in words. */
function listenOn(server: Server, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      const where = `${host}:${port}`;
      if (e.code === 'EADDRINUSE')
        reject(new TrkError(`${where} is already in use`, { hint: 'pick another --port', cause: e }));
      else if (e.code === 'EACCES')
        reject(new TrkError(`not allowed to listen on ${where}`, { hint: 'use a port above 1024', cause: e }));
      else reject(new TrkError(`cannot listen on ${where}: ${e.message}`, { cause: e }));
    });
    server.listen(port, host, () => resolve());
  });
}

class WebhookListener implements Listener {
  readonly counts: ListenerCounts = { handled: 0, accepted: 0, refused: 0 };
  private readonly waiters = new Set<() => void>();
  private readonly pending = new Set<Promise<void>>();
  private readonly refusals: RefusalLog;
  private readonly server: Server;
  private readonly guard: ConnectionGuard;
  private closed: Promise<void> | undefined;
  url = '';
  port = 0;

  constructor(
    private readonly opts: ListenerOptions,
    private readonly sinks: readonly Sink[],
    limits: Limits,
  ) {
    const { io } = opts;
    this.refusals = new RefusalLog((line) => io.err(line));
    const pipeline = new Pipeline({
      io,
      key: opts.key,
      verify: opts.verify ?? true,
      hookPath: normalisePath(opts.path ?? DEFAULT_LISTEN_PATH),
      limits,
      now: opts.now ?? Date.now,
      respond: opts.respond,
      admission: new Admission(limits),
      refusals: this.refusals,
      sinks,
      record: (ev) => this.record(ev),
    });
    this.guard = new ConnectionGuard(limits);
    this.server = this.serve(pipeline, limits);
  }

  /** The HTTP server: every connection through the guard, every request through the pipeline. */
  private serve(pipeline: Pipeline, limits: Limits): Server {
    // Node waits 300 s for a request by default and checks every 30 s: far too patient with a sender that dribbles.
    const timeouts = {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
      connectionsCheckingInterval: 1000,
    };
    // Node's own object (src/core/node.ts): an ES import of node:http builds its namespace, which on Node 22 and 24
    // loads the undici bundled with Node and, through it, perf_hooks, worker_threads, zlib, http2 and web streams,
    // 13 MiB of a listener's memory on Node 22 (61 → 77 MiB idle against Node 20's 61).
    const server = nodeHttp().createServer(timeouts, (req, res) => {
      this.guard.requestStarted(req.socket);
      res.once('close', () => this.guard.requestEnded(req.socket));
      const task = pipeline.handle(req, res).catch((e: unknown) => {
        this.opts.io.err(`receiver error: ${(e as Error).message}`);
        if (!res.headersSent) res.writeHead(500).end();
      });
      this.pending.add(task);
      void task.finally(() => this.pending.delete(task));
    });
    server.on('connection', (socket: Socket) => this.guard.admit(socket));
    return server;
  }

  async listen(host: string, port: number, path: string): Promise<void> {
    await listenOn(this.server, host, port);
    this.server.on('error', (e) => this.opts.io.err(`receiver error: ${e.message}`));
    this.port = (this.server.address() as AddressInfo).port;
    this.url = `http://${host.includes(':') ? `[${host}]` : host}:${this.port}${normalisePath(path)}`;
  }

  /** Count a handled notification (`ev` when it got as far as a body) and wake those waiting for counts. */
  private record(ev: ReceivedEvent | undefined): void {
    this.counts.handled += 1;
    if (ev?.accepted) this.counts.accepted += 1;
    else this.counts.refused += 1;
    if (ev) this.opts.onEvent?.(ev);
    for (const w of [...this.waiters]) w();
  }

  waitFor(count: number, timeoutMs = 10_000): Promise<ListenerCounts> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.counts.handled < count) return false;
        done();
        resolve({ ...this.counts });
        return true;
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`timed out waiting for ${count} notifications (have ${this.counts.handled})`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      if (!check()) this.waiters.add(check);
    });
  }

  close(): Promise<void> {
    this.closed ??= this.stop();
    return this.closed;
  }

  private async stop(): Promise<void> {
    const stopped = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.guard.stop();
    for (const sink of this.sinks) sink.stop?.();
    // Every answer that was due has gone out (answers precede the sinks' slow work); a request still sending its
    // body is cut off, and the sinks' work in flight is awaited.
    this.server.closeAllConnections();
    await Promise.allSettled([...this.pending]);
    await stopped;
    for (const sink of this.sinks) await sink.close?.();
    this.refusals.tellHidden();
  }

  summary(): { head: string; notes: string[] } {
    const { handled, refused } = this.counts;
    const head = `stopped: ${plural(handled, 'notification')}, ${fmt(refused)} refused`;
    const sums = this.sinks.map((s) => s.summary?.() ?? { notes: [] });
    const counts = sums.flatMap((s) => (s.counts === undefined ? [] : [`; ${s.counts}`])).join('');
    return { head: head + counts + this.connectionsNote(), notes: sums.flatMap((s) => s.notes) };
  }

  /** Connections closed or refused to keep room for others, if any: a sign that something held on to the port. */
  private connectionsNote(): string {
    const { idleClosed, refused } = this.guard.counts;
    const parts = [
      idleClosed > 0 ? `${plural(idleClosed, 'idle connection')} closed` : '',
      refused > 0 ? `${plural(refused, 'connection')} refused` : '',
    ].filter(Boolean);
    return parts.length === 0 ? '' : `; ${parts.join(', ')} to keep room for others`;
  }
}

export async function startListener(opts: ListenerOptions): Promise<Listener> {
  if ((opts.verify ?? true) && !opts.key) throw new TrkError('no API key to verify signatures with');
  if (opts.saveDir !== undefined) await makeSaveDir(opts.saveDir);
  const limits = settleLimits(opts);
  const listener = new WebhookListener(opts, sinksOf(opts, limits, opts.now ?? Date.now), limits);
  await listener.listen(opts.host ?? DEFAULT_LISTEN_HOST, opts.port ?? 0, opts.path ?? DEFAULT_LISTEN_PATH);
  return listener;
}
