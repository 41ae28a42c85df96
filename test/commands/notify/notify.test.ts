// trk notify end to end: the emulator's parcels synced into the mirror (a SQLite file, a PostgreSQL database), rules
// added, the emulator's clock moved and synced again, then `trk notify run` against a real SMTP server, a chat
// webhook's receiver and a shell command, all on 127.0.0.1. What each message says and to whom is checked against the
// changes the mirror recorded; then the runs after it: none sent twice, a target down for a run served by a later
// one, a bounce recorded once, a run that stops half-way (in this process, and a process killed with SIGKILL while
// its command took a message), two runs at once.

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clock } from '../../../src/core/clock.js';
import { HOLD_MS } from '../../../src/mirror/notify/ledger.js';
import { NotifyRun } from '../../../src/mirror/notify/run.js';
import { readRules } from '../../../src/mirror/notify/setup.js';
import { Senders, type MailSettings } from '../../../src/mirror/notify/targets.js';
import type { Message } from '../../../src/mirror/notify/messages.js';
import type { SkippingClock } from '../../skipping-clock.js';
import { STORE_KINDS } from '../../store/kinds.js';
import { exampleCommand, groupHelp } from '../group-help.js';
import { syncedMirror } from '../mirror/synced-mirror.js';
import { numbers, startEmulator, trk, trkProcess, type Emulator } from '../../e2e/helpers.js';
import { HOUR, mirrorEnv, openStore, register, spawnTrk, START, sync, until } from '../../e2e/mirror-helpers.js';
import {
  startHookReceiver,
  startMailReceiver,
  type HookReceiver,
  type MailReceiver,
} from '../../e2e/notify-receivers.js';

interface Change {
  id: number;
  number: string;
  to: string;
}

describe.each(STORE_KINDS)('trk notify ($name)', (kind) => {
  if (kind.missing) return void it.skip(kind.missing, () => {});
  let emu: Emulator;
  let mail: MailReceiver;
  let hook: HookReceiver;
  let env: NodeJS.ProcessEnv;
  let execFile: string;
  const list = numbers(80, 'RQ');
  /** The index of a number in the list: its order #1000i and customer's address customer{i}@example.com. */
  const indexOf = (n: string) => list.indexOf(n);
  let seen = 0;
  /** The changes of the sync before the first run. */
  let lastChanges: Change[] = [];

  /** The changes recorded since the last call (by id). */
  async function newChanges(): Promise<Change[]> {
    const all = JSON.parse((await trk(['changes', '--json'], { env })).stdout) as Change[];
    const fresh = all.filter((c) => c.id > seen);
    seen = Math.max(seen, ...all.map((c) => c.id));
    return fresh;
  }

  /** The emulator's clock moved by `days`, and the mirror synced. */
  async function later(days: number): Promise<Change[]> {
    await emu.sandbox.advance(days * 24 * HOUR);
    await sync(env);
    return newChanges();
  }

  beforeAll(async () => {
    emu = await startEmulator({ speed: 0, start: START });
    mail = await startMailReceiver();
    hook = await startHookReceiver();
    env = await mirrorEnv(emu, kind, {
      TRK_RES_URL: emu.sandbox.url,
      TRK_SMTP_URL: mail.url,
      TRK_SMTP_FROM: 'Shop <shop@example.com>',
      TRK_TRACKING_URL: 'https://shop.example/track/{number}',
    });
    execFile = path.join(String(env.HOME), 'exec.ndjson');
    await register(emu, env, list, 80);
    await emu.sandbox.advance(3 * 24 * HOUR);
    await sync(env);
    await newChanges();
  }, 120_000);
  afterAll(async () => {
    await mail.close();
    await hook.close();
    await emu.close();
  });

  it('refuses bad rules with exit 2, one line naming the fix, and keeps none of them', async () => {
    const template = path.join(String(env.HOME), 'bad.txt');
    writeFileSync(template, 'Subject: {{order}}\n\nYour parcel {{nubmer}} moved.\n');
    const cases: [string[], RegExp][] = [
      [['add', 'x', '--when', 'Lost', '--to', 'customer'], /--when.*Allowed choices are NotFound, InfoReceived/],
      [['add', 'x', '--when', 'Delivered', '--to', 'ftp://x'], /--to "ftp:\/\/x" is no target.*mailto:/s],
      [['add', 'x', '--when', 'Delivered', '--to', 'mailto:nobody'], /names no mail address \(nobody\)/],
      [['add', 'x', '--to', 'customer'], /the rule matches nothing.*--when STATUS/s],
      [['add', 'x', '--when', 'Exception', '--to', 'customer', '--digest'], /cannot go to "customer"/],
      [
        ['add', 'x', '--when', 'Exception', '--to', 'customer', '--template', template],
        /unknown placeholder {{nubmer}}/,
      ],
      [['add', 'x y', '--when', 'Exception', '--to', 'customer'], /rule name "x y" is not one/],
      [['add', 'x', '--when', 'Exception', '--to', 'customer', '--stuck', '0'], /--stuck must be a positive/],
      [['run', '--rule', 'nope'], /there is no rule "nope"/],
      [['remove', 'nope'], /there is no rule "nope"/],
      [['run', '--pace', '-1'], /--pace must be a number of messages a second/],
    ];
    for (const [args, message] of cases) {
      const r = await trk(['notify', ...args], { env });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect((await trk(['notify', 'list', '--json'], { env })).stdout.trim()).toBe('[]');
  });

  it('adds rules that cover changes from then on, and lists them', async () => {
    const add = (...args: string[]) => trk(['notify', 'add', ...args], { env });
    expect((await add('customers', '--when', 'outfordelivery,Delivered', '--to', 'customer')).code).toBe(0);
    expect(
      (await add('team', '--when', 'Exception,DeliveryFailure', '--to', 'mailto:ops@example.com', '--digest')).code,
    ).toBe(0);
    expect((await add('chat', '--when', 'Delivered', '--to', hook.url)).code).toBe(0);
    expect((await add('script', '--when', 'InTransit', '--to', `exec:cat >> '${execFile}'`)).code).toBe(0);
    const again = await add('chat', '--when', 'Delivered', '--to', hook.url);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/there is a rule chat already/);
    const rules = JSON.parse((await trk(['notify', 'list', '--json'], { env })).stdout) as { name: string }[];
    expect(rules.map((r) => r.name)).toEqual(['chat', 'customers', 'script', 'team']);
    // The changes of the first sync are the past: nothing to send.
    const dry = await trk(['notify', 'run', '--dry-run'], { env });
    expect(dry.stdout).toBe('');
  });

  it('sends one sample message with notify test, recording nothing; a customer rule is tested on you', async () => {
    const chat = await trk(['notify', 'test', 'chat'], { env });
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stderr).toMatch(/sent a test message of rule chat to http:\/\/127\.0\.0\.1:\d+\/…/);
    const sample = hook.received.pop() as { text: string; parcel: { number: string } };
    expect(sample.parcel.number).toBe('RR123456789CN');
    expect(sample.text).toContain('#1001 (test)');
    const refused = await trk(['notify', 'test', 'customers'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/add --to mailto:you@example.com/);
    const mine = await trk(['notify', 'test', 'customers', '--to', 'mailto:me@example.com'], { env });
    expect(mine.code, mine.stderr).toBe(0);
    const got = mail.received.pop()!;
    expect(got.to).toEqual(['me@example.com']);
    expect(got.subject).toBe('Your order #1001 (test): Out for delivery');
    const rules = JSON.parse((await trk(['notify', 'list', '--json'], { env })).stdout) as { sent: number }[];
    expect(rules.map((r) => r.sent)).toEqual([0, 0, 0, 0]);
    // A rule removed is gone from the list; its name can be used again.
    expect((await trk(['notify', 'add', 'gone', '--when', 'Expired', '--to', hook.url], { env })).code).toBe(0);
    expect((await trk(['notify', 'remove', 'gone'], { env })).code).toBe(0);
    const names = JSON.parse((await trk(['notify', 'list', '--json'], { env })).stdout) as { name: string }[];
    expect(names.map((r) => r.name)).toEqual(['chat', 'customers', 'script', 'team']);
  });

  it('prints the messages with --dry-run, and sends and records nothing', async () => {
    const changes = await later(4);
    lastChanges = changes;
    expect(changes.filter((c) => c.to === 'Delivered').length).toBeGreaterThan(3);
    const dry = await trk(['notify', 'run', '--dry-run'], { env });
    expect(dry.code, dry.stderr).toBe(0);
    const delivered = changes.filter((c) => c.to === 'Delivered' || c.to === 'OutForDelivery');
    for (const c of delivered) expect(dry.stdout).toContain(`To: customer${indexOf(c.number)}@example.com\n`);
    expect(mail.received).toHaveLength(0);
    expect(hook.received).toHaveLength(0);
    const counts = JSON.parse((await trk(['notify', 'list', '--json'], { env })).stdout) as { sent: number }[];
    expect(counts.every((r) => r.sent === 0)).toBe(true);
  });

  it('sends each rule its messages: customers, the digest, the chat, the command', async () => {
    const fresh = lastChanges;
    const skipping = clock() as SkippingClock;
    const before = skipping.skippedMs;
    // At most 4 messages a second to each target: the mail server's waits are on the tests' clock.
    const r = await trk(['notify', 'run', '--pace', '4'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(skipping.skippedMs - before).toBeGreaterThanOrEqual((mail.received.length - 1) * 250);
    const toCustomers = fresh.filter((c) => c.to === 'Delivered' || c.to === 'OutForDelivery');
    const customerMail = mail.received.filter((m) => m.to[0] !== 'ops@example.com');
    expect(customerMail.map((m) => m.to[0]).sort()).toEqual(
      toCustomers.map((c) => `customer${indexOf(c.number)}@example.com`).sort(),
    );
    for (const m of customerMail) {
      const i = Number(/customer(\d+)@/.exec(m.to[0]!)![1]);
      expect(m.subject).toMatch(new RegExp(`^Your order #${10000 + i}: (Delivered|Out for delivery)$`));
      expect(m.text).toContain(`Carrier:            China Post`);
      expect(m.text).toContain(`https://shop.example/track/${list[i]}`);
      expect(m.text).toMatch(/Expected delivery: {2}/);
      expect(m.html).toContain(`#${10000 + i}`);
      expect(m.messageId).toMatch(/^<[0-9a-f]{40}@example\.com>$/);
      expect(m.mail.from?.text).toBe('"Shop" <shop@example.com>');
      for (const line of m.text.split('\n')) expect(line.length, line).toBeLessThanOrEqual(72);
    }
    const trouble = fresh.filter((c) => c.to === 'Exception' || c.to === 'DeliveryFailure');
    const digests = mail.received.filter((m) => m.to[0] === 'ops@example.com');
    expect(digests).toHaveLength(trouble.length ? 1 : 0);
    for (const c of trouble) expect(digests[0]!.text).toContain(`#${10000 + indexOf(c.number)}`);
    const chat = hook.received as { text: string; content: string; change: { to_status: string } }[];
    expect(chat).toHaveLength(fresh.filter((c) => c.to === 'Delivered').length);
    for (const m of chat) {
      expect(m.change.to_status).toBe('Delivered');
      expect(m.content).toBe(m.text);
    }
    const inTransit = fresh.filter((c) => c.to === 'InTransit');
    const lines = inTransit.length ? readFileSync(execFile, 'utf8').trim().split('\n') : [];
    expect(lines.map((l) => (JSON.parse(l) as { parcel: { number: string } }).parcel.number).sort()).toEqual(
      inTransit.map((c) => c.number).sort(),
    );
  });

  it('sends nothing on a second run', async () => {
    const before = [mail.received.length, hook.received.length];
    const r = await trk(['notify', 'run'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/notify: 0 messages sent/);
    expect([mail.received.length, hook.received.length]).toEqual(before);
  });

  it('retries a target that was down on a later run, and records a bounce once', async () => {
    let changes = await later(2);
    for (let i = 0; i < 4 && !changes.some((c) => c.to === 'Delivered'); i++) changes = await later(2);
    const delivered = changes.filter((c) => c.to === 'Delivered');
    expect(delivered.length).toBeGreaterThan(0);
    const bouncing = `customer${indexOf(delivered[0]!.number)}@example.com`;
    const toBouncing = () => mail.received.filter((m) => m.to[0] === bouncing).length;
    const bouncedBefore = toBouncing();
    mail.refuse.add(bouncing);
    hook.failWith = 503;
    const hooked = hook.received.length;
    const down = await trk(['notify', 'run'], { env });
    expect(down.code).toBe(3);
    expect(down.stderr).toMatch(/rule chat → http:\/\/127\.0\.0\.1:\d+\/…: answered 503 \(tried again from /);
    expect(down.stderr).toContain(`rule customers → ${bouncing}: `);
    expect(down.stderr).toContain('(bounced: not tried again)');
    hook.failWith = undefined;
    // Not yet: the first retry waits a minute.
    await trk(['notify', 'run'], { env });
    expect(hook.received.length).toBe(hooked);
    // The tests' clock moves on (test/skipping-clock.ts): nothing waits in real time.
    await clock().sleep(2 * 60_000);
    const up = await trk(['notify', 'run'], { env });
    expect(up.code, up.stderr).toBe(0);
    const numbersSent = hook.received.slice(hooked).map((m) => (m as { parcel: { number: string } }).parcel.number);
    expect(numbersSent.sort()).toEqual(delivered.map((c) => c.number).sort());
    expect(toBouncing()).toBe(bouncedBefore);
    mail.refuse.clear();
    // An hour on the tests' clock, past every back-off: a bounced address is still not tried again.
    await clock().sleep(60 * 60_000);
    await trk(['notify', 'run'], { env });
    expect(toBouncing()).toBe(bouncedBefore);
  });

  it('resends at most the one message under way when a run dies, with the same Message-ID', async () => {
    let changes = await later(2);
    for (let i = 0; i < 4 && changes.filter(isCustomers).length < 2; i++) changes = await later(2);
    const expected = changes.filter(isCustomers).map((c) => `customer${indexOf(c.number)}@example.com`);
    expect(expected.length).toBeGreaterThan(1);
    const before = mail.received.length;
    await dyingRun(env, mail, 2);
    // At once: the message under way is the dead run's until its hold passes; the others go.
    await trk(['notify', 'run'], { env });
    await clock().sleep(HOLD_MS + 1000);
    const r = await trk(['notify', 'run'], { env });
    expect(r.code, r.stderr).toBe(0);
    const got = mail.received.slice(before).filter((m) => m.to[0] !== 'ops@example.com');
    expect([...new Set(got.map((m) => m.to[0]))].sort()).toEqual([...new Set(expected)].sort());
    const twice = got.filter((m, i) => got.findIndex((o) => o.to[0] === m.to[0]) !== i);
    expect(twice.length).toBeLessThanOrEqual(1);
    for (const m of twice) expect(got.filter((o) => o.messageId === m.messageId)).toHaveLength(2);
  });

  it('delivers everything after a run killed with SIGKILL mid-send, the message under way twice', async () => {
    const out = path.join(String(env.HOME), 'killed.ndjson');
    const once = path.join(String(env.HOME), 'killed-once');
    // The command takes the message, then kills trk (its parent) the first time: SIGKILL with the claim unsettled.
    const command = `cat >> '${out}'; if [ ! -e '${once}' ]; then touch '${once}'; kill -9 $PPID; fi`;
    const added = await trk(['notify', 'add', 'aa-killed', '--when', 'Delivered', '--to', `exec:${command}`], { env });
    expect(added.code, added.stderr).toBe(0);
    let changes = await later(2);
    for (let i = 0; i < 4 && changes.filter((c) => c.to === 'Delivered').length < 2; i++) changes = await later(2);
    const delivered = changes.filter((c) => c.to === 'Delivered').map((c) => c.number);
    expect(delivered.length).toBeGreaterThan(1);
    const killed = await trkProcess(['notify', 'run'], { env });
    expect(killed.code).toBe(null);
    await clock().sleep(HOLD_MS + 1000);
    const again = await trk(['notify', 'run'], { env });
    expect(again.code, again.stderr).toBe(0);
    const got = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { parcel: { number: string } }).parcel.number);
    expect([...new Set(got)].sort()).toEqual([...new Set(delivered)].sort());
    expect(got.length - new Set(got).size).toBe(1);
    expect((await trk(['notify', 'remove', 'aa-killed'], { env })).code).toBe(0);
  });

  // Two processes, as two hosts would run them (SQLite's writers in one process share one connection).
  it('sends each message once when two runs go at once', async () => {
    let changes = await later(2);
    for (let i = 0; i < 4 && changes.filter(isCustomers).length < 2; i++) changes = await later(2);
    const expected = changes.filter(isCustomers);
    const before = mail.received.length;
    const runs = await Promise.all([trkProcess(['notify', 'run'], { env }), trkProcess(['notify', 'run'], { env })]);
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const got = mail.received.slice(before).filter((m) => m.to[0] !== 'ops@example.com');
    expect(got.map((m) => m.to[0]).sort()).toEqual(
      expected.map((c) => `customer${indexOf(c.number)}@example.com`).sort(),
    );
  });
});

const isCustomers = (c: Change) => c.to === 'Delivered' || c.to === 'OutForDelivery';

/**
 * A run that dies while its `n`th message is under way: the message is handed to the SMTP server, and the run stops
 * before the ledger hears of it (as a run killed at that moment would).
 */
async function dyingRun(env: NodeJS.ProcessEnv, mail: MailReceiver, n: number): Promise<void> {
  const store = await openStore(env);
  const settings: MailSettings = { url: mail.url, from: 'Shop <shop@example.com>' };
  let sent = 0;
  const senders = new (class extends Senders {
    override async mail(to: readonly string[], id: string, m: Message) {
      const outcome = await super.mail(to, id, m);
      if (++sent === n) throw new Error('killed');
      return outcome;
    }
  })(settings, () => {});
  const names = { carrierName: () => 'China Post', trackingUrl: undefined };
  const run = new NotifyRun(
    store,
    senders,
    names,
    { dryRun: false, pace: undefined, from: settings.from },
    {
      out: () => {},
      info: () => {},
    },
  );
  try {
    const rules = (await readRules(store)).filter((r) => r.name === 'customers');
    await expect(run.run(rules)).rejects.toThrow('killed');
  } finally {
    await senders.close();
    await store.close();
  }
}

describe.each(STORE_KINDS)('trk webhook listen --store --notify beside trk notify run ($name)', (kind) => {
  if (kind.missing) return void it.skip(kind.missing, () => {});
  it('sends each message once, whichever of the listener and the cron run claims it', async () => {
    const emu = await startEmulator({ speed: 0, start: START });
    const mail = await startMailReceiver();
    const env = await mirrorEnv(emu, kind, { TRK_SMTP_URL: mail.url, TRK_SMTP_FROM: 'shop@example.com' });
    const list = numbers(30, 'RL');
    await register(emu, env, list, 30);
    await emu.sandbox.advance(2 * 24 * HOUR);
    await sync(env);
    const added = await trk(['notify', 'add', 'customers', '--when', 'OutForDelivery,Delivered', '--to', 'customer'], {
      env,
    });
    expect(added.code, added.stderr).toBe(0);
    const listener = spawnTrk(['webhook', 'listen', '--port', '0', '--store', '--notify', '--json'], env);
    try {
      const listening = /Listening on (http:\/\/127\.0\.0\.1:\d+\/hook)/;
      const url = await until('the listening line', () => listening.exec(listener.out.stderr)?.[1]);
      emu.sandbox.setSettings({ webhookUrl: url });
      for (let day = 0; day < 5; day++) {
        await emu.sandbox.advance(24 * HOUR);
        // The cron path at the same time as the listener's runs: a process too, on the same clock as the listener
        // (this process's clock runs ahead by the waits its tests skipped; hosts keep theirs together by NTP).
        const cron = await trkProcess(['notify', 'run'], { env });
        expect(cron.code, cron.stderr).toBe(0);
      }
      await until('the listener to go quiet', async () => {
        const before = listener.out.stdout.length;
        await new Promise((r) => setTimeout(r, 500));
        return listener.out.stdout.length === before ? true : undefined;
      });
    } finally {
      listener.child.kill('SIGINT');
    }
    expect(await listener.exited).toBe(0);
    expect(listener.out.stderr).toMatch(/messages? sent by the rules/);
    expect((await trk(['notify', 'run'], { env })).code).toBe(0);
    const changes = JSON.parse((await trk(['changes', '--json'], { env })).stdout) as Change[];
    const expected = new Set(changes.filter(isCustomers).map((c) => `${c.number} ${c.to}`));
    expect(expected.size).toBeGreaterThan(0);
    const got = mail.received.map((m) => `${list[Number(/customer(\d+)@/.exec(m.to[0]!)![1])]} ${m.subject}`);
    expect(got.length).toBe(new Set(got).size);
    expect(got.length).toBe(expected.size);
    await mail.close();
    await emu.close();
  }, 120_000);
});

describe('trk notify, the group', () => {
  const mirror = syncedMirror();
  const COMMANDS = ['list', 'add', 'remove', 'test', 'run', 'help'];

  it('lists its commands in its help, and its examples run them', async () => {
    const help = await groupHelp(['notify', '--help']);
    expect(help.code).toBe(0);
    expect(help.commands).toEqual(COMMANDS);
    expect(help.examples.length).toBeGreaterThan(0);
    for (const example of help.examples) expect(COMMANDS, example).toContain(exampleCommand('notify', example));
  });

  it('typed alone lists the rules, as trk notify list does, its flags too', async () => {
    const add = await trk(['notify', 'add', 'chat', '--when', 'Delivered', '--to', 'https://chat.example/x'], {
      env: mirror.env,
    });
    expect(add.code, add.stderr).toBe(0);
    const alone = await trk(['notify', '--json'], { env: mirror.env });
    expect(alone.code, alone.stderr).toBe(0);
    expect((JSON.parse(alone.stdout) as { name: string }[]).map((r) => r.name)).toEqual(['chat']);
    expect(alone.stdout).toBe((await trk(['notify', 'list', '--json'], { env: mirror.env })).stdout);
  });
});
