// trk auth login: what it refuses before any request.
import { describe, expect, it } from 'vitest';
import { runAuthLogin } from '../../../src/commands/auth/login.js';
import { createFake } from '../../fake-context.js';
import { tempEnv } from '../temp-config.js';

describe('trk auth login', () => {
  it('login without a terminal and without --with-key-stdin is a usage error', async () => {
    const fake = createFake({ env: tempEnv() });
    await expect(runAuthLogin({ withKeyStdin: false }, fake.ctx)).rejects.toMatchObject({ exitCode: 2 });
  });

  it('login refuses an empty key on stdin before any request', async () => {
    const fake = createFake({ env: tempEnv(), stdin: '\n' });
    await expect(runAuthLogin({ withKeyStdin: true }, fake.ctx)).rejects.toThrow(/the key on stdin is empty/);
  });
});
