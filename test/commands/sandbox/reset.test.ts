// trk sandbox reset: the state file removed, never while a sandbox runs on it.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSandboxReset } from '../../../src/commands/sandbox/emulator.js';
import { TrkError } from '../../../src/core/errors.js';
import { startSandbox } from '@trk/sandbox';
import { createTestIO } from '../../test-io.js';
import { sandboxStateDir } from './state-dir.js';

const state = sandboxStateDir();
describe('runSandboxReset', () => {
  it('reset refuses while a sandbox runs on the state file (its next save would undo it)', async () => {
    const server = await startSandbox({ stateFile: path.join(state.dir(), 'sandbox.json'), speed: 0 });
    try {
      const err = await runSandboxReset({}, state.context(createTestIO(), new AbortController().signal)).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(TrkError);
      expect((err as TrkError).message).toBe(
        `a sandbox server at ${server.url} (pid ${process.pid}) is using ${path.join(state.dir(), 'sandbox.json')}`,
      );
    } finally {
      await server.close();
    }
    expect((await stat(path.join(state.dir(), 'sandbox.json'))).isFile()).toBe(true);
    await runSandboxReset({}, state.context(createTestIO(), new AbortController().signal));
    await expect(stat(path.join(state.dir(), 'sandbox.json'))).rejects.toThrow();
  });
});
