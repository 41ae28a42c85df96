// trk notify list: the rules the mirror keeps, what each matches and whom it tells, and its ledger's counts (sent,
// failed and due again, bounced, under way).

import type { Context } from '../../context/context.js';
import type { Column } from '../../output/render.js';
import { examples, prints, relativeOption, type Declare } from '../define.js';
import { dbOption } from '../mirror/args.js';

export interface NotifyListOptions {
  db?: string | undefined;
}

export interface RuleListing {
  name: string;
  matches: string;
  to: string;
  digest: boolean;
  template: boolean;
  created_at: string;
  last_run_at: string | null;
  sent: number;
  failed: number;
  bounced: number;
  pending: number;
}

const COLUMNS: readonly Column<RuleListing>[] = [
  { key: 'name', header: 'RULE', value: (r) => r.name },
  { key: 'matches', header: 'MATCHES', value: (r) => r.matches, shrink: 12 },
  { key: 'to', header: 'TO', value: (r) => r.to, shrink: 12 },
  { key: 'digest', header: 'DIGEST', value: (r) => r.digest, display: (r) => (r.digest ? 'yes' : 'no'), wide: 3 },
  {
    key: 'template',
    header: 'TEMPLATE',
    value: (r) => r.template,
    display: (r) => (r.template ? 'own' : '-'),
    wide: 4,
  },
  { key: 'sent', header: 'SENT', value: (r) => r.sent, count: true },
  { key: 'failed', header: 'FAILED', value: (r) => r.failed, count: true },
  { key: 'bounced', header: 'BOUNCED', value: (r) => r.bounced, count: true, wide: 2 },
  { key: 'pending', header: 'UNDER WAY', value: (r) => r.pending, count: true, wide: 2 },
  { key: 'created_at', header: 'ADDED', value: (r) => r.created_at, time: true, wide: 5 },
  { key: 'last_run_at', header: 'LAST RUN', value: (r) => r.last_run_at, time: true, wide: 1 },
];

export const declaration: Declare = (cmd, invoke) => {
  prints(cmd, ['table', 'json', 'ndjson', 'csv'])
    .description("list the rules and their ledger's counts")
    .addOption(relativeOption())
    .addOption(dbOption())
    .addHelpText('after', examples('trk notify list', 'trk notify list --json'))
    .action((o) => invoke(async () => (ctx) => runList(o, ctx), o));
};

export async function runList(opts: NotifyListOptions, ctx: Context): Promise<number> {
  const [setup, { describeRule }, { printRows }, { outputOf }] = await Promise.all([
    import('../../mirror/notify/setup.js'),
    import('../../mirror/notify/rules.js'),
    import('../../output/render.js'),
    import('../common/output.js'),
  ]);
  const store = await setup.openNotifyMirror(ctx, opts.db);
  try {
    const [rules, counts] = await Promise.all([setup.readRules(store), store.ledgerCounts()]);
    const count = (id: number, outcome: string) =>
      counts.find((c) => c.rule_id === id && c.outcome === outcome)?.count ?? 0;
    const rows: RuleListing[] = rules.map((r) => ({
      name: r.name,
      matches: describeRule(r),
      to: r.target.kind === 'http' ? `${new URL(r.target.url).origin}/…` : r.to,
      digest: r.digest === true,
      template: r.template !== undefined,
      created_at: r.createdAt,
      last_run_at: r.lastRunAt,
      sent: count(r.id, 'sent'),
      failed: count(r.id, 'failed'),
      bounced: count(r.id, 'bounced'),
      pending: count(r.id, 'pending'),
    }));
    if (rows.length === 0) ctx.info('no rules: add one with "trk notify add NAME --when STATUS --to TARGET"');
    await printRows(ctx.io, rows, COLUMNS, outputOf(ctx));
    return 0;
  } finally {
    await store.close();
  }
}
