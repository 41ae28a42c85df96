// How the emulator delivers webhooks: an HTTP POST per notification, over undici (loaded on the first delivery
// only, so that a sandbox without a webhook never loads it). The account's queue decides what to send and when.

import type { WebhookDelivery } from '../account/types.js';

/** A webhook receiver gets this long to answer before the push counts as failed (status 0). */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** Resolves every delivery to the receiver's HTTP status, 0 on a network failure or timeout; abort() ends them all. */
export class WebhookSender {
  #agent: import('undici').Agent | undefined;
  readonly #abort = new AbortController();

  async send(d: WebhookDelivery): Promise<number> {
    if (this.#abort.signal.aborted) return 0;
    try {
      const { Agent, request } = await import('undici');
      this.#agent ??= new Agent({ headersTimeout: WEBHOOK_TIMEOUT_MS, bodyTimeout: WEBHOOK_TIMEOUT_MS });
      const res = await request(d.url, {
        method: 'POST',
        headers: d.headers,
        body: d.body,
        dispatcher: this.#agent,
        signal: AbortSignal.any([this.#abort.signal, AbortSignal.timeout(WEBHOOK_TIMEOUT_MS)]),
      });
      await res.body.dump();
      return res.statusCode;
    } catch {
      return 0;
    }
  }

  abort(): void {
    this.#abort.abort();
  }

  async close(): Promise<void> {
    await this.#agent?.close();
  }
}
