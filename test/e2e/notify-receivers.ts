// What trk notify's end-to-end tests send to: a real SMTP server on 127.0.0.1 (smtp-server, each message read back
// with mailparser), a chat webhook's receiver (node:http), both on ports the system picks, each able to be down
// for a while or to refuse: a recipient refused with 550, a webhook answering 503.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  messageId: string | undefined;
  subject: string;
  text: string;
  html: string;
  mail: ParsedMail;
}

export interface MailReceiver {
  url: string;
  received: ReceivedMail[];
  /** Recipients refused with 550 at RCPT TO. */
  refuse: Set<string>;
  /** While true, every message is answered 451 (the server is there but fails). */
  failing: boolean;
  close(): Promise<void>;
}

export async function startMailReceiver(): Promise<MailReceiver> {
  const self: MailReceiver = {
    url: '',
    received: [],
    refuse: new Set(),
    failing: false,
    close: async () => {},
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (self.refuse.has(address.address.toLowerCase())) {
        const err = Object.assign(new Error('no such mailbox'), { responseCode: 550 });
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          if (self.failing) {
            return callback(Object.assign(new Error('try again later'), { responseCode: 451 }));
          }
          self.received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            messageId: mail.messageId,
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
            mail,
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  self.url = `smtp://127.0.0.1:${port}`;
  self.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return self;
}

export interface HookReceiver {
  url: string;
  received: Record<string, unknown>[];
  /** While set, every POST is answered with this status. */
  failWith: number | undefined;
  close(): Promise<void>;
}

export async function startHookReceiver(): Promise<HookReceiver> {
  const self: HookReceiver = { url: '', received: [], failWith: undefined, close: async () => {} };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      if (self.failWith !== undefined) {
        res.writeHead(self.failWith).end();
        return;
      }
      self.received.push(JSON.parse(body) as Record<string, unknown>);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  self.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return self;
}
