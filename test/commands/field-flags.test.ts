// Every field flag an item command declares reaches the wire: each command is parsed through its declaration (the
// real command tree) with all its field flags given, run against the commands' fake context, and every value is
// looked for in what was sent, under the field's wire name. A flag declared but never passed on fails here.

import { describe, expect, it } from 'vitest';
import { fieldSpec, wireName, type ItemField } from '@trk/service/fields.js';
import { commandName, flagFields, ITEM_OPERATIONS } from '@trk/service/operations/index.js';
import { createFake } from '../fake-context.js';
import { runProgram } from './run-program.js';

const VERSION = 'v2.1';

/** A distinct value for each field: what its flag is given, and what the wire must carry. */
function flagValue(field: ItemField, i: number): { argv: string[]; wire: unknown } {
  const spec = fieldSpec(field);
  const flag = spec.flag?.split(' ')[0] as string;
  if (spec.kind === 'switch') return { argv: [flag], wire: false };
  if (spec.kind === 'carrier') return { argv: [flag, String(3000 + i)], wire: 3000 + i };
  if (spec.kind === 'language') return { argv: [flag, 'de'], wire: 'de' };
  return { argv: [flag, `${field}-${i}`], wire: `${field}-${i}` };
}

/** Every value under `key` anywhere in `body`. */
function valuesAt(body: unknown, key: string): unknown[] {
  if (Array.isArray(body)) return body.flatMap((b) => valuesAt(b, key));
  if (typeof body !== 'object' || body === null) return [];
  return Object.entries(body).flatMap(([k, v]) => [...(k === key ? [v] : []), ...valuesAt(v, key)]);
}

const COMMANDS = ITEM_OPERATIONS.filter((op) => flagFields(op).length > 0);

describe('field flags of the item commands', () => {
  it('are declared by every item command but list', () => {
    expect(COMMANDS.map(commandName).sort()).toEqual([
      'change-carrier',
      'delete',
      'info',
      'push',
      'register',
      'retrack',
      'stop',
      'update',
    ]);
  });

  it.each(COMMANDS.map((op) => [commandName(op), op] as const))(
    'trk %s: every declared field flag reaches the wire',
    async (command, op) => {
      const fields = flagFields(op).filter((f) => f !== 'number');
      const values = fields.map((f, i) => [f, flagValue(f, i)] as const);
      const fake = createFake({ version: VERSION });
      const argv = ['--yes', command, 'AB12345', ...values.flatMap(([, v]) => v.argv)];
      const { code, error } = await runProgram(fake, argv);
      expect(error, argv.join(' ')).toBeUndefined();
      expect(code).toBe(0);
      const sent = fake.sent(op);
      expect(sent.length, `${op} was sent`).toBeGreaterThan(0);
      for (const [field, value] of values) {
        expect(valuesAt(sent, wireName(field, VERSION)), `${command} ${value.argv[0]} → ${field}`).toContain(
          value.wire,
        );
      }
    },
  );
});
