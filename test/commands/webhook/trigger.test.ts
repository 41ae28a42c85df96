// `trk webhook trigger` end to end against trk's own listener (`trk webhook listen --store`, in this process, port 0)
// with a SQLite mirror synced from the emulator: a triggered notification is verified, stored and shows in `trk
// changes` with the tag the mirror knew; one signed with another key is refused and trk says so; --dry-run prints
// the very body it would send, which the listener takes with the sign printed beside it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationProblem } from '@trk/service/webhook-body.js';
import { verifyV1 } from '../../../src/webhook/verify.js';
import { STORE_KINDS } from '../../store/kinds.js';
import { type Emulator, numbers, type RunningTrk, startEmulator, trk, trkRunning } from '../../e2e/helpers.js';
import { mirrorEnv, register, START, sync } from '../../e2e/mirror-helpers.js';

let emu: Emulator;
let env: NodeJS.ProcessEnv;
let listener: RunningTrk;
let url: string;
const [parcel] = numbers(1, 'RT') as [string];

interface Change {
  number: string;
  from: string | null;
  to: string;
  to_sub_status: string | null;
  source: string;
}

const changes = async (): Promise<Change[]> => JSON.parse((await trk(['changes', '--json'], { env })).stdout);

beforeAll(async () => {
  emu = await startEmulator({ speed: 0, start: START });
  env = await mirrorEnv(emu, STORE_KINDS[0]!);
  await register(emu, env, [parcel], 1);
  await sync(env);
  listener = trkRunning(['webhook', 'listen', '--port', '0', '--store'], { env });
  url = (await listener.printed(/Listening on (http:\/\/127\.0\.0\.1:\d+\/hook)/))[1]!;
  await listener.printed(/storing them in the mirror /);
}, 60_000);

afterAll(async () => {
  listener?.interrupt();
  await listener?.done;
  await emu?.close();
});

describe('trk webhook trigger', () => {
  it('sends a signed notification the listener verifies and stores: it shows in trk changes', async () => {
    const r = await trk(['webhook', 'trigger', 'out-for-delivery', '--number', parcel, '--to', url], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`${parcel} is in the mirror`);
    expect(r.stderr).toContain(
      `sent TRACKING_UPDATED OutForDelivery_Other for ${parcel} (v2.1) to ${url}: answered 200`,
    );
    await listener.printed(new RegExp(`TRACKING_UPDATED +${parcel} .* Out for delivery`), 'stdout');
    const triggered = (await changes()).filter((c) => c.source === 'webhook' && c.number === parcel);
    expect(triggered).toMatchObject([{ to: 'OutForDelivery', to_sub_status: 'OutForDelivery_Other' }]);
    const info = await trk(['info', '--offline', parcel, '--json'], { env });
    const item = JSON.parse(info.stdout).accepted[0];
    // The carrier and tag the mirror knew of the number (register's CSV gave it order-0), no flag needed.
    expect(item.tag).toBe('order-0');
    expect(item.track_info.latest_event.description).toBe('Out for delivery');
    expect(item.track_info.latest_event.sub_status).toBe('OutForDelivery_Other');
  });

  it('says the listener refused a notification signed with another key, and nothing is stored', async () => {
    const before = await changes();
    const other = { ...env, TRK_API_KEY: 'not-the-listeners-key' };
    const r = await trk(['webhook', 'trigger', 'Delivered', '--number', parcel, '--carrier', '3011', '--to', url], {
      env: other,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`not taken: the listener at ${url} answered 401: it did not take the signature`);
    // The mirror is the listener's account's: its tag is not read with another key, and it is said why.
    expect(r.stderr).toMatch(/tag and parameter not taken from the mirror: the mirror .* belongs to another account/);
    await listener.printed(/401 bad signature/);
    expect(await changes()).toEqual(before);
  });

  it('says so when no listener is there', async () => {
    const dead = 'http://127.0.0.1:1/hook';
    const r = await trk(['webhook', 'trigger', 'Delivered', '--number', parcel, '--to', dead], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`not taken: no listener at ${dead} (connection refused)`);
  });

  it('--dry-run prints of the documented shape, taken by the listener with its sign', async () => {
    const args = ['webhook', 'trigger', 'DeliveryFailure_InvalidAddress', '--number', parcel, '--dry-run'];
    const r = await trk(args, { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.endsWith('}\n')).toBe(true);
    const body = r.stdout.slice(0, -1);
    expect(notificationProblem(JSON.parse(body), 'v2')).toBeUndefined();
    expect(JSON.parse(body).data.track_info.latest_status).toEqual({
      status: 'DeliveryFailure',
      sub_status: 'DeliveryFailure_InvalidAddress',
      sub_status_descr: 'Delivery attempted: address could not be found',
    });
    const sign = /^sign: ([0-9a-f]{64})$/m.exec(r.stderr)![1]!;
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', sign }, body });
    expect(res.status).toBe(200);
    await listener.printed(/DeliveryFailure_InvalidAddress/, 'stdout');
    const latest = (await changes()).filter((c) => c.number === parcel).at(-1);
    expect(latest).toMatchObject({ from: 'OutForDelivery', to: 'DeliveryFailure' });
  });

  it('v1: the sign in the body, a track the listener stores', async () => {
    const dry = await trk(['--api-version', 'v1', 'webhook', 'trigger', 'Delivered', '--number', parcel, '--dry-run'], {
      env,
    });
    expect(dry.code, dry.stderr).toBe(0);
    const body = JSON.parse(dry.stdout);
    expect(Object.keys(body)).toEqual(['event', 'sign', 'data']);
    expect(notificationProblem(body, 'v1')).toBeUndefined();
    expect(verifyV1(dry.stdout.trim(), String(emu.env.TRK_API_KEY))).toBe(true);
    expect(body.data.track).toMatchObject({ e: 40, z0: { z: 'Delivered' } });
    const sent = await trk(
      ['--api-version', 'v1', 'webhook', 'trigger', 'Delivered', '--number', parcel, '--to', url],
      {
        env,
      },
    );
    expect(sent.code, sent.stderr).toBe(0);
  });

  it('refuses an unknown status with the list, and a sub-status of another status, exit 2, nothing sent', async () => {
    const unknown = await trk(['webhook', 'trigger', 'Lost', '--number', parcel, '--to', url], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'trk: unknown status "Lost": give one of NotFound, InfoReceived, InTransit, Expired, AvailableForPickup, ' +
        'OutForDelivery, DeliveryFailure, Delivered, Exception, or a sub-status\n',
    );
    const mismatch = await trk(
      ['webhook', 'trigger', 'Delivered', '--sub-status', 'Exception_Lost', '--number', parcel],
      {
        env,
      },
    );
    expect(mismatch.code).toBe(2);
    expect(mismatch.stderr).toMatch(/^trk: Exception_Lost is not a sub-status of Delivered in v2\.1: give one of/);
  });
});
