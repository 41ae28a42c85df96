// Notifications hold customers' data: saved (--save) and queued (--forward-to) files are 0600 in 0700 folders,
// whatever the umask (0 here: anything not set exactly would be open to all). A --save folder the user had already
// is left as it is; the forward queue's folder is trk's own, set to 0700 with a warning when found open.
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { modeOf, underOpenUmask } from '../open-umask.js';
import { createTestIO } from '../test-io.js';
import { startListener, type ListenerOptions } from '../../src/webhook/listen.js';
import { afterTest, app, signed, stopped, tempDir } from './app.js';

const KEY = 'private-files-key';
underOpenUmask();

async function listenAndPost(opts: Partial<ListenerOptions>) {
  const io = createTestIO();
  const listener = await startListener({ io, key: KEY, ...opts });
  afterTest(() => listener.close());
  const body = stopped('RR123456789CN');
  const res = await request(listener.url, { method: 'POST', body, headers: signed(body, KEY) });
  await res.body.dump();
  expect(res.statusCode).toBe(200);
  await listener.waitFor(1);
  await listener.close();
  return io;
}

/** The modes of every file in `dir`. */
const fileModes = (dir: string) => readdirSync(dir).map((f) => modeOf(path.join(dir, f)));

describe.skipIf(process.platform === 'win32')('webhook listen', () => {
  it('--save into a folder it makes: the folder (its parents too) 0700, the files 0600', async () => {
    const dir = path.join(await tempDir(), 'hooks', 'today');
    const io = await listenAndPost({ saveDir: dir });
    expect([modeOf(dir), modeOf(path.dirname(dir))]).toEqual([0o700, 0o700]);
    expect(fileModes(dir)).toEqual([0o600, 0o600]);
    expect(io.stderrText()).not.toMatch(/warning/);
  });

  it("--save into the user's own folder: the folder left as it is, without a word; the files 0600", async () => {
    const dir = path.join(await tempDir(), 'Desktop');
    mkdirSync(dir, { mode: 0o755 });
    const io = await listenAndPost({ saveDir: dir });
    expect(modeOf(dir)).toBe(0o755);
    expect(fileModes(dir)).toEqual([0o600, 0o600]);
    expect(io.stderrText()).not.toMatch(/warning/);
  });

  it('--forward-to: queued files 0600 in 0700 folders; a queue folder found open set to 0700, saying so', async () => {
    const root = path.join(await tempDir(), 'webhook-queue');
    mkdirSync(root, { mode: 0o755 });
    // The app refuses, and the next attempt is far off: the notification stays queued past the stop.
    const target = await app([500]);
    const io = await listenAndPost({ forwardTo: target.url, queueRoot: root, queue: { firstDelayMs: 3_600_000 } });
    expect(modeOf(root)).toBe(0o700);
    const [folder, ...more] = readdirSync(root);
    expect(more).toEqual([]);
    expect(modeOf(path.join(root, folder!))).toBe(0o700);
    expect(fileModes(path.join(root, folder!))).toEqual([0o600, 0o600]);
    expect(io.stderrText()).toContain(
      `warning: the forward queue folder ${root} could be read by others (mode 0755), and it holds customers' ` +
        'data: set to 0700\n',
    );
    expect(io.stderrText().match(/warning/g)).toHaveLength(1);
  });
});
