// A mirror synced twice from the emulator (the second sync learning changes), of twelve numbers registered with
// their customers' references: what trk changes and trk find read, with carriers named from the list shipped with
// trk (no cached list, and the lists' address is a closed port).
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { numbers, startEmulator, type Emulator } from '../../e2e/helpers.js';
import { HOUR, START, register, sync } from '../../e2e/mirror-helpers.js';

/** Registers the hooks that make the mirror; `env` runs trk on it once they have run. */
export function syncedMirror() {
  let emu: Emulator | undefined;
  const list = numbers(12, 'LA');
  const mirror = {
    env: {} as NodeJS.ProcessEnv,
    list,
    /** The references register() gave a number of the list. */
    references: (number: string) => {
      const i = list.indexOf(number);
      return { tag: `order-${i}`, order_no: `#${10000 + i}`, email: `customer${i}@example.com` };
    },
    /** The emulator's clock moved by `days` and the mirror synced: the changes the sync recorded. */
    async later(days: number): Promise<number> {
      await emu!.sandbox.advance(days * 24 * HOUR);
      return (await sync(mirror.env)).changes;
    },
  };
  beforeAll(async () => {
    emu = await startEmulator({ speed: 0, start: START });
    const env = {
      ...emu.env,
      TRK_DATA_DIR: path.join(String(emu.env.HOME), 'data'),
      TRK_API_VERSION: 'v2.1',
      TZ: 'UTC',
    };
    mirror.env = env;
    await register(emu, env, list, 6);
    await emu.sandbox.advance(3 * 24 * HOUR);
    await sync(env);
    await emu.sandbox.advance(4 * 24 * HOUR);
    expect((await sync(env)).changes).toBeGreaterThan(0);
  }, 120_000);
  afterAll(async () => {
    await emu?.close();
  });
  return mirror;
}
