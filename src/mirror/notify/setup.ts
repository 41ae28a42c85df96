// What every `trk notify` command and the listener's --notify need from the settings: the mirror (this account's,
// synced once), the rules read from it, mail settings checked before anything is sent, carriers by name.

import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import type { Store } from '../../store/types.js';
import { openMirrorToRead } from '../open.js';
import type { MessageContext } from './messages.js';
import { ruleOf, type Rule } from './rules.js';
import { Senders, type MailSettings } from './targets.js';

export async function openNotifyMirror(ctx: Context, db: string | undefined): Promise<Store> {
  return openMirrorToRead(ctx, { db });
}

export async function readRules(store: Store, only?: readonly string[]): Promise<Rule[]> {
  const rules = (await store.rules()).map(ruleOf);
  if (!only?.length) return rules;
  const missing = only.filter((name) => !rules.some((r) => r.name === name));
  if (missing.length) throw noSuchRule(missing[0]!, rules);
  return rules.filter((r) => only.includes(r.name));
}

export function noSuchRule(name: string, rules: readonly Pick<Rule, 'name'>[]): UsageError {
  return new UsageError(
    `there is no rule ${JSON.stringify(name)}`,
    rules.length ? `the rules are ${rules.map((r) => r.name).join(', ')}` : 'add one with "trk notify add"',
  );
}

/** Whether a rule's messages are mail. */
export const sendsMail = (r: Rule): boolean => r.target.kind === 'mailto' || r.target.kind === 'customer';

/** The mail settings, refused (exit 2, nothing sent) when a rule sends mail without them. */
export async function mailSettings(ctx: Context, rules: readonly Rule[]): Promise<MailSettings | undefined> {
  const s = await ctx.settings();
  const mailing = rules.filter(sendsMail);
  if (mailing.length === 0) return undefined;
  const rule = mailing[0]!.name;
  if (s.smtpUrl === undefined) {
    throw new UsageError(
      `rule ${rule} sends mail, and no mail server is set`,
      'set one: trk config set smtp-url smtp://user:password@mail.example.com:587 (or TRK_SMTP_URL)',
    );
  }
  if (s.smtpFrom === undefined) {
    throw new UsageError(
      `rule ${rule} sends mail, and no sender is set`,
      'set one: trk config set smtp-from "Shop <shop@example.com>" (or TRK_SMTP_FROM)',
    );
  }
  return { url: s.smtpUrl, from: s.smtpFrom };
}

/** Carrier code → name: the carrier list (fetched when not cached), else the cached one, else the code. */
async function carrierNamer(ctx: Context): Promise<(code: number) => string> {
  const { carrierNames, loadCarriers } = await import('../../carriers/lookup.js');
  let names: (code: number) => string | undefined;
  try {
    const { carriers } = await loadCarriers(ctx);
    const byCode = new Map(carriers.map((c) => [c.key, c.name]));
    names = (code) => byCode.get(code);
  } catch {
    names = await carrierNames(ctx);
  }
  return (code) => (code === 0 ? 'the carrier' : (names(code) ?? `carrier ${code}`));
}

export async function messageContext(ctx: Context): Promise<Omit<MessageContext, 'now'>> {
  const [s, carrierName] = await Promise.all([ctx.settings(), carrierNamer(ctx)]);
  return { carrierName, trackingUrl: s.trackingUrl };
}

export function senders(ctx: Context, mail: MailSettings | undefined): Senders {
  return new Senders(mail, (line) => ctx.io.err(line));
}
