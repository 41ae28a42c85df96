// A proxy between trk and a PostgreSQL server, on 127.0.0.1, that reads what trk sends (the statements, by the text
// of their Parse, Bind or Query messages) and can hold the server's answers back: an answer held until trk has sent
// a statement proves that trk sent it without waiting for one. Nothing here waits for time to pass.

import { createServer, connect, type Server, type Socket } from 'node:net';

interface Gate {
  /** Answers are held once a statement containing it is sent (from the start without one). */
  from: string | undefined;
  /** ... until one containing this is. */
  until: string;
  state: 'waiting' | 'holding' | 'done';
}

export interface WireProxy {
  /** The server's address with the proxy's port. */
  url: string;
  /** Every statement sent through the proxy, in order (the text of a prepared one each time it is run). */
  statements: string[];
  /** Holds the server's answers from a statement containing `from` (now without it) until one containing `until`. */
  holdAnswers(until: string, from?: string): void;
  close(): Promise<void>;
}

/** Reads trk's side of one connection: messages as they come, whole, whatever the chunks. */
class ClientMessages {
  #buffer = Buffer.alloc(0);
  #startup = true;
  readonly #names = new Map<string, string>();
  readonly #statement: (text: string) => void;

  constructor(statement: (text: string) => void) {
    this.#statement = statement;
  }

  push(chunk: Buffer): void {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      const offset = this.#startup ? 0 : 1;
      if (this.#buffer.length < offset + 4) return;
      const end = offset + this.#buffer.readInt32BE(offset);
      if (this.#buffer.length < end) return;
      const message = this.#buffer.subarray(0, end);
      this.#buffer = this.#buffer.subarray(end);
      // The startup message (and an SSL request before it) has no type byte.
      if (this.#startup) this.#startup = message.readInt32BE(4) === 80877103;
      else this.#read(String.fromCharCode(message[0]!), message.subarray(5));
    }
  }

  #read(type: string, body: Buffer): void {
    const strings = body.toString('utf8').split('\u0000');
    if (type === 'Q') this.#statement(strings[0]!);
    // Parse: the statement's name, its text; Bind: the portal, the statement's name.
    if (type === 'P') this.#names.set(strings[0]!, strings[1]!);
    if (type === 'B') this.#statement(this.#names.get(strings[1]!) ?? `(unknown statement ${strings[1]})`);
  }
}

export async function wireProxy(serverUrl: string): Promise<WireProxy> {
  const target = new URL(serverUrl);
  const statements: string[] = [];
  const gates: Gate[] = [];
  const held: { to: Socket; data: Buffer }[] = [];
  const sockets = new Set<Socket>();
  const holding = () => gates.some((g) => g.state === 'holding');
  const release = () => {
    if (holding()) return;
    for (const { to, data } of held.splice(0)) to.write(data);
  };
  const sent = (text: string) => {
    statements.push(text);
    for (const g of gates) {
      if (g.state === 'holding' && text.includes(g.until)) g.state = 'done';
      else if (g.state === 'waiting' && g.from !== undefined && text.includes(g.from)) g.state = 'holding';
    }
    release();
  };
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    const messages = new ClientMessages(sent);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk: Buffer) => {
      messages.push(chunk);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (holding()) held.push({ to: client, data: chunk });
      else client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(serverUrl);
  url.port = String((server.address() as { port: number }).port);
  return {
    url: url.toString(),
    statements,
    holdAnswers(until, from) {
      gates.push({ from, until, state: from === undefined ? 'holding' : 'waiting' });
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
