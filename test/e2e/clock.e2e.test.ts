// Ages count from the service's clock: against the sandbox, its simulated time, which runs ahead of the real one.
// The emulator says its time in each answer's Date header, as any HTTP server says its own; trk takes the
// service's clock from there when it is off the machine's by a minute or more.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ago } from '../../src/output/times.js';
import { startEmulator, trk, type Emulator } from './helpers.js';

let emu: Emulator;
const NUMBER = 'RR300000025CN';
const DAY = 86_400_000;

beforeAll(async () => {
  emu = await startEmulator({ speed: 0 });
  const r = await trk(['register', NUMBER, '--carrier', '3011', '-q'], { env: emu.env });
  expect(r.code, r.stderr).toBe(0);
  // Ten simulated days on: the shipment moves, and the service's "now" is ten days past the machine's.
  await emu.sandbox.advance(10 * DAY);
});

afterAll(async () => {
  await emu?.close();
});

/** The latest event's instant, as the service sent it. */
async function latestEventAt(): Promise<number> {
  const r = await trk(['info', NUMBER, '--json'], { env: emu.env });
  const item = (JSON.parse(r.stdout) as { accepted: { track_info: { latest_event: { time_utc: string } } }[] })
    .accepted[0]!;
  return Date.parse(item.track_info.latest_event.time_utc);
}

describe("ages on the service's clock", () => {
  it('the AGE of the details table counts from the simulated time, never "in 6d" for a past event', async () => {
    const at = await latestEventAt();
    // After the machine's "now": the real clock would call it the future.
    expect(at).toBeGreaterThan(Date.now());
    const r = await trk(['info', NUMBER, '-o', 'table'], { env: emu.env });
    expect(r.code, r.stderr).toBe(0);
    const row = r.stdout.split('\n').find((l) => l.startsWith(NUMBER))!;
    expect(row).not.toMatch(/\bin \d+[mhd]\b/);
    expect(row.trimEnd().endsWith(ago(at, emu.sandbox.clock.now()))).toBe(true);
  });

  it('list --relative: times tracked are ages on the simulated clock', async () => {
    const r = await trk(['list', '-o', 'table', '--relative'], { env: emu.env });
    expect(r.code, r.stderr).toBe(0);
    const row = r.stdout.split('\n').find((l) => l.startsWith(NUMBER))!;
    expect(row).toMatch(/\d+[mhd] ago|just now/);
    expect(row).not.toMatch(/\bin \d+[mhd]\b/);
  });

  it('the tracking page says how long ago the last update was on the simulated clock', async () => {
    const at = await latestEventAt();
    const r = await trk(['info', NUMBER, '--page', '-o', 'table'], { env: emu.env });
    expect(r.code, r.stderr).toBe(0);
    const hours = Math.floor((emu.sandbox.clock.now() - at) / 3_600_000);
    // humanDuration: minutes under an hour, hours under two days, days after.
    const expected =
      hours < 1
        ? /last update \d+ min ago/
        : hours < 48
          ? new RegExp(`last update ${hours} h ago`)
          : /last update \d+ days ago/;
    expect(r.stdout).toMatch(expected);
  });
});
