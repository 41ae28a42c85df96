// trk update: the changes under items, and v1's one item per request.
import { describe, expect, it } from 'vitest';
import { runUpdate } from '../../../src/commands/items/update.js';
import { createFake } from '../../fake-context.js';
import { sentTo } from '../sent-to.js';
import { runLine } from '../run-program.js';

describe('runUpdate', () => {
  it('sends the changes under items', async () => {
    const fake = createFake();
    await runUpdate({ numbers: ['AAA11111'], fields: { carrier: 7, tag: 'x', lang: 'de' } }, fake.ctx);
    expect(sentTo(fake, 'changeinfo')).toEqual([[{ number: 'AAA11111', carrier: 7, items: { tag: 'x', lang: 'de' } }]]);
  });

  it('needs something to change', async () => {
    const fake = createFake();
    await expect(runUpdate({ numbers: ['AAA11111'] }, fake.ctx)).rejects.toThrow(/nothing to change/);
    expect(fake.calls).toHaveLength(0);
  });

  it('v1: one item per request, and only the tag', async () => {
    const fake = createFake({
      version: 'v1',
      handler: (_op, body) => ({
        code: 0,
        data: { accepted: [{ number: (body as { number: string }).number, carrier: 1 }], rejected: [] },
      }),
    });
    await runUpdate({ numbers: ['AAA11111', 'BBB22222'], fields: { tag: 't' } }, fake.ctx);
    expect(sentTo(fake, 'changeinfo')).toEqual([
      { number: 'AAA11111', items: { tag: 't' } },
      { number: 'BBB22222', items: { tag: 't' } },
    ]);
    const refused = createFake({ version: 'v1' });
    await expect(runUpdate({ numbers: ['AAA11111'], fields: { lang: 'de' } }, refused.ctx)).rejects.toThrow(
      /the v1 API cannot send --lang/,
    );
    expect(refused.calls).toHaveLength(0);
  });
});

describe('trk update: the command line', () => {
  it('--tag, --param, --lang, --carrier', async () => {
    const up = await runLine(['update', 'AAA11111', '--tag', 't', '--param', 'p', '--lang', 'fr', '--carrier', '9']);
    expect(up.calls[0]!.body).toEqual([
      { number: 'AAA11111', carrier: 9, items: { tag: 't', param: 'p', lang: 'fr' } },
    ]);
  });
});
