// A minimal Redis client, for the shared rate budget (redis-pacer.ts): one connection, commands answered in the
// order sent (RESP2), AUTH and SELECT from the address. trk sends Redis one script call per request it makes,
// a few a second; the maintained clients (node-redis, ioredis) bring cluster, sentinel, pub/sub, pipelines and
// reconnection strategies it has no use for, and cost more to load than a whole one-shot command. This speaks
// only what is needed, with a time limit on every answer; a failure rejects what is waiting and the next
// command connects again.

import type * as Net from 'node:net';

export type RespValue = string | number | null | RespValue[];

/** An error answer of the server (`-ERR ...`). */
export class RespError extends Error {
  override name = 'RespError';
}

interface Waiting {
  resolve(value: RespValue): void;
  reject(err: Error): void;
}

/** One RESP2 value from `buf` at `at`: the value and where the next begins; undefined when incomplete. */
export function parseReply(buf: Buffer, at = 0): { value: RespValue | RespError; next: number } | undefined {
  const eol = buf.indexOf('\r\n', at);
  if (eol < 0) return undefined;
  const type = String.fromCharCode(buf[at] as number);
  const line = buf.toString('utf8', at + 1, eol);
  const after = eol + 2;
  switch (type) {
    case '+':
      return { value: line, next: after };
    case '-':
      return { value: new RespError(line), next: after };
    case ':':
      return { value: Number(line), next: after };
    case '$': {
      const len = Number(line);
      if (len < 0) return { value: null, next: after };
      if (buf.length < after + len + 2) return undefined;
      return { value: buf.toString('utf8', after, after + len), next: after + len + 2 };
    }
    case '*': {
      const count = Number(line);
      if (count < 0) return { value: null, next: after };
      const items: RespValue[] = [];
      let next = after;
      for (let i = 0; i < count; i++) {
        const item = parseReply(buf, next);
        if (!item) return undefined;
        // An error inside an array (a script's) is kept as its message.
        items.push(item.value instanceof RespError ? item.value.message : item.value);
        next = item.next;
      }
      return { value: items, next };
    }
    default:
      throw new RespError(`not a Redis answer (${JSON.stringify(type)})`);
  }
}

/** A command as RESP: an array of bulk strings. */
export function encodeCommand(args: readonly (string | number)[]): string {
  let out = `*${args.length}\r\n`;
  for (const a of args) {
    const s = String(a);
    out += `$${Buffer.byteLength(s)}\r\n${s}\r\n`;
  }
  return out;
}

export class RespClient {
  readonly #url: URL;
  readonly #timeoutMs: number;
  #socket: Net.Socket | undefined;
  #buffer: Buffer = Buffer.alloc(0);
  #waiting: Waiting[] = [];
  #timer: NodeJS.Timeout | undefined;

  /** `url`: redis://[user[:password]@]host[:port][/db], rediss:// for TLS. */
  constructor(url: string, timeoutMs = 2000) {
    this.#url = new URL(url);
    this.#timeoutMs = timeoutMs;
  }

  /** Sends one command; resolves with its answer, rejects with a RespError or a connection failure. */
  command(args: readonly (string | number)[]): Promise<RespValue> {
    if (!this.#socket) this.#connect();
    return this.#send(args);
  }

  close(): void {
    this.#fail(new Error('closed'));
  }

  #send(args: readonly (string | number)[]): Promise<RespValue> {
    return new Promise<RespValue>((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
      const socket = this.#socket as Net.Socket;
      // While an answer is awaited the connection keeps the process alive; idle, it does not.
      socket.ref();
      this.#arm();
      socket.write(encodeCommand(args));
    });
  }

  #connect(): void {
    const url = this.#url;
    const port = Number(url.port || 6379);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const socket =
      url.protocol === 'rediss:'
        ? process.getBuiltinModule('node:tls').connect({ host, port, servername: host })
        : process.getBuiltinModule('node:net').connect({ host, port });
    socket.setNoDelay(true);
    this.#socket = socket;
    this.#buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => this.#read(chunk));
    socket.on('error', (err) => this.#fail(err));
    socket.on('close', () => this.#fail(new Error('the connection to Redis closed')));
    // Sent first, answered first: a refused password fails the command waiting behind it.
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    if (password !== '') void this.#send(user !== '' ? ['AUTH', user, password] : ['AUTH', password]).catch(() => {});
    const db = Number(url.pathname.slice(1) || 0);
    if (db > 0) void this.#send(['SELECT', db]).catch(() => {});
  }

  #read(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    let at = 0;
    try {
      for (;;) {
        const reply = parseReply(this.#buffer, at);
        if (!reply) break;
        at = reply.next;
        const waiting = this.#waiting.shift();
        if (!waiting) throw new RespError('an answer nobody asked for');
        if (reply.value instanceof RespError) waiting.reject(reply.value);
        else waiting.resolve(reply.value);
      }
    } catch (err) {
      this.#fail(err as Error);
      return;
    }
    this.#buffer = this.#buffer.subarray(at);
    this.#arm();
  }

  /** The time limit of the oldest answer awaited; none (and no hold on the process) when nothing is. */
  #arm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#waiting.length === 0) {
      this.#socket?.unref();
      return;
    }
    this.#timer = setTimeout(() => this.#fail(new Error(`no answer from Redis within ${this.#timeoutMs} ms`)), this.#timeoutMs);
  }

  #fail(err: Error): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const socket = this.#socket;
    this.#socket = undefined;
    socket?.destroy();
    for (const w of this.#waiting.splice(0)) w.reject(err);
  }
}
