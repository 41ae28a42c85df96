// The forward sink (--forward-to URL): each notification sent on to the app once the sender has its answer, and
// the outcome reported on stderr.

import type { IO } from '../../../io.js';
import { forwarded, Forwarder } from '../../forward.js';
import { eventLabel } from '../lines.js';
import type { ReceivedEvent } from '../types.js';
import type { Sink } from './sink.js';

export class ForwardSink implements Sink {
  private readonly forwarder: Forwarder;

  constructor(
    private readonly io: IO,
    target: string,
    timeoutMs: number,
    private readonly now: () => number,
  ) {
    this.forwarder = new Forwarder(target, timeoutMs);
  }

  async afterAnswer(ev: ReceivedEvent): Promise<void> {
    const started = this.now();
    ev.forward = await this.forwarder.send(ev.raw, ev.request.rawHeaders);
    this.report(ev, this.now() - started);
  }

  private report(ev: ReceivedEvent, ms: number): void {
    const { io } = this;
    const { target } = this.forwarder;
    const result = ev.forward!;
    if (result.status !== undefined) {
      const mark = forwarded(result) ? io.colorErr.green : io.colorErr.red;
      io.err(`  → ${eventLabel(ev)} forwarded to ${target}: ${mark(String(result.status))} (${ms} ms)`);
    } else {
      io.err(`  → ${eventLabel(ev)} not forwarded to ${target}: ${io.colorErr.red(result.error ?? '')}`);
    }
  }

  /** Forwards in flight are aborted: the listener is stopping. */
  stop(): void {
    this.forwarder.stop();
  }

  close(): Promise<void> {
    return this.forwarder.close();
  }
}
