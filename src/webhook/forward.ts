// Sending a notification on to the app, as received: the same body, and the request's end-to-end headers (the
// `sign` header among them) in their case, order and repeats. Used by the listener's forward and by
// `trk webhook replay`.

import type { Agent } from 'undici';

export interface ForwardResult {
  status?: number;
  error?: string;
}

/** Whether the app took the notification: a 2xx answer (it is the user's own code: 202 and 204 are fine too). */
export function forwarded(result: ForwardResult): boolean {
  return result.status !== undefined && result.status >= 200 && result.status < 300;
}

/** Headers that belong to one connection and are not forwarded (RFC 9110 §7.6.1), plus what the new
 *  connection sets itself: host and content-length (same body, so same length), and expect (undici refuses it). */
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'expect',
]);

/** Request headers to forward, as a flat [name, value, ...] list keeping their case, order and repeats. */
export function forwardHeaders(rawHeaders: readonly string[]): string[] {
  const drop = new Set(NOT_FORWARDED);
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === 'connection') {
      for (const t of rawHeaders[i + 1]!.split(',')) drop.add(t.trim().toLowerCase());
    }
  }
  const out: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (!drop.has(rawHeaders[i]!.toLowerCase())) out.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  }
  return out;
}

/** Forwards to one URL over one connection pool; `stop` aborts every forward in flight. */
export class Forwarder {
  private agent: Agent | undefined;
  private readonly stopping = new AbortController();

  constructor(
    readonly target: string,
    private readonly timeoutMs: number,
  ) {}

  /** One attempt: the app's status, or why there is none ('stopped' when `stop` cut it short). */
  async send(body: Buffer, rawHeaders: readonly string[]): Promise<ForwardResult> {
    const { Agent, request } = await import('undici');
    this.agent ??= new Agent();
    try {
      const res = await request(this.target, {
        method: 'POST',
        headers: forwardHeaders(rawHeaders),
        body,
        dispatcher: this.agent,
        signal: AbortSignal.any([this.stopping.signal, AbortSignal.timeout(this.timeoutMs)]),
      });
      await res.body.dump();
      return { status: res.statusCode };
    } catch (e) {
      return { error: this.stopping.signal.aborted ? 'stopped' : (e as Error).message || String(e) };
    }
  }

  /** Abort the forwards in flight. */
  stop(): void {
    this.stopping.abort();
  }

  async close(): Promise<void> {
    this.stop();
    await this.agent?.close();
  }
}
