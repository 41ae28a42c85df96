// `trk webhook listen --store` killed with SIGKILL while signed notifications arrive, at several points: every
// notification it answered 200 before the kill is in the mirror afterwards, and the ones the service sends again
// (those not answered, some of which were committed before the kill) are kept once. The listener is the built CLI,
// a process of its own, as the kill is the subject; the mirror in a SQLite file and in PostgreSQL.

import { describe, expect, it } from 'vitest';
import { signV2 } from '../../src/webhook/verify.js';
import { STORE_KINDS } from '../store/kinds.js';
import { numbers, startEmulator, trk } from './helpers.js';
import { HOUR, mirrorEnv, onlineJson, register, spawnTrk, START, until } from './mirror-helpers.js';

/** A listener storing into the mirror of `env`, once it listens and says it stores: its URL and process. */
async function startListener(env: NodeJS.ProcessEnv) {
  const listener = spawnTrk(['webhook', 'listen', '--port', '0', '--store'], env);
  const url = await until(
    'the listening line',
    () => /Listening on (http:\/\/\S+\/hook)/.exec(listener.out.stderr)?.[1],
  );
  await until('the line of what it does', () => /storing them in the mirror/.test(listener.out.stderr) || undefined);
  return { ...listener, url };
}

/** The numbers the mirror holds details of, read by trk offline. */
async function stored(env: NodeJS.ProcessEnv, asked: readonly string[]): Promise<string[]> {
  const r = await trk(['info', '--offline', ...asked, '--json'], { env });
  // 3: some asked for are not in the mirror.
  expect([0, 3], r.stderr).toContain(r.code);
  return (JSON.parse(r.stdout).accepted as { number: string }[]).map((d) => d.number).sort();
}

describe.each(STORE_KINDS)('trk webhook listen --store killed with SIGKILL ($name)', (kind) => {
  if (kind.missing) return void it.skip(kind.missing, () => {});
  it('loses no notification it answered 200, and keeps each once when the service sends it again', async () => {
    const emu = await startEmulator({ speed: 0, start: START });
    try {
      const env = await mirrorEnv(emu, kind);
      const list = numbers(24, 'RX');
      await register(emu, env, list, 24);
      await emu.sandbox.advance(2 * 24 * HOUR);
      const info = (await onlineJson(env, ['info', ...list])) as { accepted: { number: string }[] };
      expect(info.accepted).toHaveLength(24);
      const bodies = new Map(
        info.accepted.map((data) => [data.number, JSON.stringify({ event: 'TRACKING_UPDATED', data })]),
      );
      const key = String(env.TRK_API_KEY);
      const post = (url: string, number: string) => {
        const body = bodies.get(number)!;
        const headers = { 'content-type': 'application/json', sign: signV2(body, key) };
        return fetch(url, { method: 'POST', headers, body }).then(
          (res) => res.status,
          () => 0,
        );
      };

      const answered = new Set<string>();
      let unanswered: string[] = [];
      // Each round: 8 new notifications and those not answered before, all at once; the listener is killed once
      // `killAfter` of them were answered, while the others are on their way, being written or being answered.
      for (const [round, killAfter] of [1, 4, 7].entries()) {
        const listener = await startListener(env);
        const sent = [...unanswered, ...list.slice(round * 8, round * 8 + 8)];
        let ok = 0;
        const statuses = await Promise.all(
          sent.map((n) =>
            post(listener.url, n).then((status) => {
              if (status === 200 && ++ok === killAfter) listener.child.kill('SIGKILL');
              return status;
            }),
          ),
        );
        if (listener.child.exitCode === null && listener.child.signalCode === null) listener.child.kill('SIGKILL');
        expect(await listener.exited).toBeNull();
        expect(listener.child.signalCode).toBe('SIGKILL');
        for (const [i, n] of sent.entries()) if (statuses[i] === 200) answered.add(n);
        unanswered = sent.filter((n) => !answered.has(n));
        // Every notification answered 200 is in the mirror after the kill.
        const held = await stored(env, list);
        expect(held, `round ${round}`).toEqual(expect.arrayContaining([...answered]));
      }

      // The service sends again what was not answered, until it is: a listener that lives takes every one.
      const last = await startListener(env);
      for (let attempt = 0; attempt < 5 && unanswered.length > 0; attempt++) {
        const statuses = await Promise.all(unanswered.map((n) => post(last.url, n)));
        unanswered = unanswered.filter((_, i) => statuses[i] !== 200);
      }
      expect(unanswered).toEqual([]);
      last.child.kill('SIGINT');
      expect(await last.exited).toBe(0);
      expect(await stored(env, list)).toEqual([...list].sort());

      // Each notification kept once: one record each, and one status change each (from nothing), whichever
      // listener wrote it and however many times it came.
      const records = JSON.parse((await trk(['list', '--offline', '--json'], { env })).stdout) as { number: string }[];
      expect(records.map((r) => r.number).sort()).toEqual([...list].sort());
      const changes = JSON.parse((await trk(['changes', '--json'], { env })).stdout) as {
        number: string;
        from: string | null;
        source: string;
      }[];
      expect(changes.map((c) => c.number).sort()).toEqual([...list].sort());
      expect(changes.every((c) => c.source === 'webhook' && c.from === null)).toBe(true);
    } finally {
      await emu.close();
    }
  }, 120_000);
});
