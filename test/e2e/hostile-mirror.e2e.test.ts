// The mirror's texts written by someone hostile (test/e2e/hostile-mirror.ts: markup, SQL, LIKE's wildcards and
// terminal escape sequences in tags, order numbers, e-mails, remarks, carrier names and a stored notification's
// texts), read back: on a terminal every escape sequence is taken out of what the offline reads print, and
// `trk find` and `list --offline --search` match those texts as they are written. The page of `trk report --html`
// is opened in Chromium in test/browser/hostile-report.test.ts. The mirror in a SQLite file and in PostgreSQL.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { createTestIO } from '../test-io.js';
import { STORE_KINDS } from '../store/kinds.js';
import { trk } from './helpers.js';
import { CONTROLS, ESCAPES, hostileMirror, SQL, type HostileMirror } from './hostile-mirror.js';
import { count } from './mirror-helpers.js';

/** A trk command line with stdout and stderr on a terminal (no pager): what a person at it would see. */
async function onTerminal(args: readonly string[], env: NodeJS.ProcessEnv) {
  const io = createTestIO({ tty: true, columns: 160 });
  const code = await runCli([...args], { io, env });
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

describe.each(STORE_KINDS)('a mirror of hostile texts ($name)', (kind) => {
  if (kind.missing) return void it.skip(kind.missing, () => {});
  let m: HostileMirror;

  beforeAll(async () => {
    m = await hostileMirror(kind, 'http://127.0.0.1:9/beacon');
  }, 60_000);
  afterAll(() => m?.close());

  /** Each parcel's references (number, tag, order number, e-mail), the notified one's too. */
  const references = () => [
    ...m.parcels.map((p) => ({ number: p.number, texts: [p.number, p.tag, p.order_no, p.email] })),
    { number: m.notified, texts: [m.notified, m.notifiedTexts.tag!] },
  ];

  it('keeps every text as it was written', async () => {
    const r = await trk(['list', '--offline', '--json'], { env: m.env });
    expect(r.code, r.stderr).toBe(0);
    const records = new Map((JSON.parse(r.stdout) as { number: string }[]).map((x) => [x.number, x]));
    for (const p of m.parcels) expect(records.get(p.number)).toMatchObject(p);
    expect(records.get(m.notified)).toMatchObject({ tag: m.notifiedTexts.tag });
    const info = await trk(['info', '--offline', m.notified, '--json'], { env: m.env });
    const [details] = JSON.parse(info.stdout).accepted;
    expect(details.track_info.latest_status.sub_status).toBe(m.notifiedTexts['sub-status']);
    expect(details.track_info.latest_event.description).toBe(m.notifiedTexts.description);
    expect(details.track_info.tracking.providers[0].provider.name).toBe(m.notifiedTexts.provider);
  });

  it('prints no escape sequence of them on a terminal: list, info, find, changes, report', async () => {
    const shown = (text: string) =>
      text.replace(/\u001b[^\u0007]*(\u0007|\u001b\\)|\u001b\[[0-9;]*[A-Za-z]|\u009b31m/g, '');
    const runs: [string[], string[]][] = [
      [
        ['list', '--offline'],
        ['RH000000001CN', 'China Post <img src=http://127.0.0.1:9/beacon?img>'],
      ],
      [
        ['list', '--offline', '-o', 'wide'],
        ['remark one', 'tag three', '#3', SQL, `"><svg onload=fetch('http://127.0.0.1:9/beacon?svg')>@example.com`],
      ],
      [
        ['info', '--offline', m.notified],
        [shown(m.notifiedTexts.description!), shown(m.notifiedTexts.location!)],
      ],
      [
        ['info', '--offline', 'RH000000001CN', 'RH000000003CN', m.notified],
        ['RH000000003CN', 'InTransit'],
      ],
      [['find', 'RH'], ['tag three']],
      [['find', ESCAPES[1]!], ['RH000000003CN']],
      [['find', `${ESCAPES[0]}nowhere`], []],
      // Every column: the terminal's table leaves out a sub-status this long for the carrier's name and customer.
      [['changes', '-o', 'wide'], [shown(m.notifiedTexts['sub-status']!)]],
      [['report'], ['RZ000000006CN']],
    ];
    for (const [args, visible] of runs) {
      const r = await onTerminal(args, m.env);
      const what = args.join(' ');
      expect(r.code, `${what}: ${r.stderr}`).toBe(args[1] === `${ESCAPES[0]}nowhere` ? 1 : 0);
      expect(r.stdout, what).not.toMatch(CONTROLS);
      expect(r.stderr, what).not.toMatch(CONTROLS);
      for (const text of visible) expect(r.stdout, what).toContain(text);
    }
  });

  it('finds them as they are written: the SQL finds itself, % and _ only texts that have them', async () => {
    const find = async (text: string) => {
      const r = await trk(['find', text, '--json'], { env: m.env });
      expect([0, 1], r.stderr).toContain(r.code);
      return r.code === 0 ? (JSON.parse(r.stdout).accepted as { number: string }[]).map((d) => d.number).sort() : [];
    };
    // The parcels whose order number, e-mail or tag is the text, else those that have it in any part of one.
    const holders = (text: string) => {
      const refs = references();
      const exact = refs.filter((p) => p.texts.slice(1).some((t) => t.toLowerCase() === text.toLowerCase()));
      const any = refs.filter((p) => p.texts.some((t) => t.toLowerCase().includes(text.toLowerCase())));
      return (exact.length > 0 ? exact : any).map((p) => p.number).sort();
    };
    expect(holders(SQL)).toEqual(['RH000000001CN']);
    expect(holders("'; drop")).toEqual(['RH000000001CN', m.notified]);
    expect(holders('%')).toEqual(['RH000000002CN', m.notified]);
    expect(holders('_')).toEqual(['RH000000002CN', 'RH000000003CN']);
    for (const text of [
      SQL,
      '%',
      '_',
      '%20',
      'first_last',
      '<script>',
      '"><svg',
      ESCAPES[1]!,
      ESCAPES[2]!,
      "'; drop",
    ]) {
      expect(await find(text), JSON.stringify(text)).toEqual(holders(text));
    }
    // Wildcards match nothing they do not spell out.
    expect(await find('%2_ off')).toEqual([]);
    expect(await find('first%last')).toEqual([]);
    expect(await count(m.env, 'records')).toBe(6);

    const search = async (text: string) => {
      const r = await trk(['list', '--offline', '--search', text, '--json'], { env: m.env });
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { number: string }[]).map((d) => d.number).sort();
    };
    const starting = (text: string) =>
      references()
        .filter((p) => p.texts.some((t) => t.toLowerCase().startsWith(text.toLowerCase())))
        .map((p) => p.number)
        .sort();
    expect(starting('%')).toEqual(['RH000000002CN']);
    expect(starting('_')).toEqual(['RH000000003CN']);
    for (const text of [SQL, '%', '_', '%20 off', '<img', '"><svg', ESCAPES[1]!, 'tag <script>']) {
      expect(await search(text), JSON.stringify(text)).toEqual(starting(text));
    }
    expect(await search('%2_')).toEqual([]);
    expect(await count(m.env, 'records')).toBe(6);
  });
});
