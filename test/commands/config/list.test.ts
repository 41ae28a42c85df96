// trk config list: every setting with its value and source.
import { describe, expect, it } from 'vitest';
import { runConfigList } from '../../../src/commands/config/list.js';
import { createFake } from '../../fake-context.js';

describe('trk config list', () => {
  it('prints key, value and source in CSV', async () => {
    const list = createFake({ global: { output: 'csv' } });
    await runConfigList({}, list.ctx);
    expect(list.io.stdoutText().split(/\r?\n/)[0]).toBe('key,value,source');
  });
});
