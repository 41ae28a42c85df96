// Sending a message to its target: mail over SMTP (nodemailer, loaded with the first mail; one pooled connection,
// STARTTLS when the server offers it on smtp://, TLS from the start on smtps://), a JSON POST to a chat webhook, a
// command that reads the message as JSON on its stdin. What each outcome means for the ledger: sent; failed (tried
// again later: a server down, a 5xx of a webhook, a command that failed); bounced (the mail server refused the
// recipient with a 5xx: an address that will not work, never tried again).

import { spawn } from 'node:child_process';
import type { Message } from './messages.js';

export type SendOutcome = { outcome: 'sent' } | { outcome: 'failed' | 'bounced'; error: string };

/** Where mail goes and whom it is from (the smtp-url and smtp-from settings). */
export interface MailSettings {
  url: string;
  from: string;
}

/** An http target's time limit: a webhook that hangs fails and is tried again later. */
const HTTP_TIMEOUT_MS = 30_000;

type Transporter = {
  sendMail(m: Record<string, unknown>): Promise<{ rejected?: unknown[] }>;
  close(): void;
};

/** The options of an smtp:// or smtps:// address (user and password %-decoded). */
export function transportOptions(address: string): Record<string, unknown> {
  const url = new URL(address);
  const secure = url.protocol === 'smtps:';
  const auth = url.username
    ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
    : {};
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    ...auth,
    pool: true,
    maxConnections: 1,
  };
}

/** A mail server's refusal of the recipient (5xx to RCPT TO): the address is wrong, not the moment. */
function bounced(err: unknown): boolean {
  const e = err as { responseCode?: unknown; command?: unknown };
  return typeof e.responseCode === 'number' && e.responseCode >= 500 && /RCPT/i.test(String(e.command ?? ''));
}

export class Senders {
  readonly #mail: MailSettings | undefined;
  readonly #log: (line: string) => void;
  #transport: Promise<Transporter> | undefined;

  constructor(mail: MailSettings | undefined, log: (line: string) => void) {
    this.#mail = mail;
    this.#log = log;
  }

  async mail(to: readonly string[], messageId: string, m: Message): Promise<SendOutcome> {
    if (!this.#mail) return { outcome: 'failed', error: 'no smtp-url set' };
    const { from } = this.#mail;
    try {
      const transport = await this.#transporter();
      const info = await transport.sendMail({
        from,
        to: [...to],
        subject: m.subject,
        text: m.text,
        html: m.html,
        messageId,
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
      if (info.rejected?.length && info.rejected.length >= to.length) {
        return { outcome: 'bounced', error: `the server refused ${to.join(', ')}` };
      }
      return { outcome: 'sent' };
    } catch (err) {
      return { outcome: bounced(err) ? 'bounced' : 'failed', error: oneLine(err) };
    }
  }

  async http(url: string, m: Message): Promise<SendOutcome> {
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(m.payload),
        signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
      });
      await res.arrayBuffer();
      return res.ok ? { outcome: 'sent' } : { outcome: 'failed', error: `answered ${res.status}` };
    } catch (err) {
      return { outcome: 'failed', error: oneLine(err) };
    }
  }

  /** Runs `command` by the shell with the message as JSON on its stdin; what it prints goes to trk's stderr. */
  exec(command: string, m: Message): Promise<SendOutcome> {
    return new Promise((resolve) => {
      const child = spawn(command, { shell: true, stdio: ['pipe', 'pipe', 'pipe'] });
      const passOn = (chunk: Buffer) => {
        for (const line of chunk.toString().split('\n')) if (line.trim()) this.#log(line);
      };
      child.stdout.on('data', passOn);
      child.stderr.on('data', passOn);
      child.on('error', (err) => resolve({ outcome: 'failed', error: oneLine(err) }));
      child.on('close', (code, signal) =>
        resolve(
          code === 0
            ? { outcome: 'sent' }
            : { outcome: 'failed', error: signal ? `killed by ${signal}` : `exited ${code}` },
        ),
      );
      child.stdin.on('error', () => {});
      child.stdin.end(`${JSON.stringify(m.payload)}\n`);
    });
  }

  async close(): Promise<void> {
    if (this.#transport) (await this.#transport.catch(() => undefined))?.close();
  }

  #transporter(): Promise<Transporter> {
    this.#transport ??= import('nodemailer').then(
      (nodemailer) => nodemailer.createTransport(transportOptions(this.#mail!.url) as never) as unknown as Transporter,
    );
    return this.#transport;
  }
}

export function oneLine(err: unknown): string {
  const e = err as { message?: unknown; cause?: { message?: unknown; code?: unknown } };
  const cause = e.cause?.code ?? e.cause?.message;
  const text = `${String(e.message ?? err)}${cause ? ` (${String(cause)})` : ''}`;
  return text.replace(/\s+/g, ' ').trim().slice(0, 300);
}
