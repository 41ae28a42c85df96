// Shop exports through the engine, against the emulator: repeated rows, numbers as people print them, carrier
// cells that name no carrier, and codes the carrier list does not have.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { RepeatFinder, sortInPlace } from '../../src/items/repeats.js';
import { scanInput } from '../../src/items/scan.js';
import { show } from '../../src/output/sanitize.js';
import {
  bulkSandbox,
  registrations,
  runEngine,
  s10,
  tempDir,
  testContext,
  textSource,
  writeInput,
  type BulkSandbox,
} from './helpers.js';

let env: BulkSandbox | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function setup() {
  env = await bulkSandbox();
  const dir = tempDir();
  const ctx = testContext({
    stateDir: path.join(dir, 'state'),
    settings: { baseUrl: env.sandbox.url, apiKey: env.sandbox.key },
  });
  return { env, dir, ctx };
}

describe('repeated rows', () => {
  it(
    'identical rows are one intent: sent once, counted, exit 0 (a Shopify export has a row per ' + 'line item)',
    async () => {
      const { env: e, dir, ctx } = await setup();
      const rows = ['Name,Tracking Number,Tracking Company,Lineitem name'];
      for (let i = 1; i <= 3; i++)
        rows.push(`#100${i},${s10(i)},China Post,Mug`, `#100${i},${s10(i)},China Post,Socks`);
      rows.push(`#1004,${s10(4)},China Post,Mug`, `#1004,${s10(4)},China Post,Mug`, `#1004,${s10(4)},China Post,Mug`);
      const file = writeInput(dir, 'orders.csv', `${rows.join('\n')}\n`);
      const report = await runEngine(ctx, {
        operation: 'register',
        file,
        resolveCarrier: (t) => (t === 'China Post' ? 3011 : undefined),
      });
      expect(report.exitCode).toBe(0);
      expect(report.summary?.accepted).toBe(4);
      expect([...registrations(e.sandbox).entries()].sort()).toEqual([1, 2, 3, 4].map((i) => [`${s10(i)}/3011`, 1]));
      expect(e.sandbox.account.quota.used).toBe(4);
      expect(ctx.io.stderrText()).toMatch(/^5 repeated rows sent once$/m);
    },
  );

  it('the same number and carrier with another tag is still an error naming both lines; nothing is sent', async () => {
    const { env: e, dir, ctx } = await setup();
    const file = writeInput(
      dir,
      'in.csv',
      `number,carrier,tag\n${s10(1)},3011,a\n${s10(2)},3011,b\n${s10(1)},3011,a\n${s10(1)},3011,c\n`,
    );
    const err = await runEngine(ctx, { operation: 'register', file }).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toBe(
      `${file} line 5: same number and carrier as line 2, with tag "c" where it has "a" (keep one of the two rows)`,
    );
    expect(e.sandbox.account.quota.used).toBe(0);
  });

  it(
    '--skip-invalid sends the first of two conflicting rows and sets the other aside, in both ' + 'passes alike',
    async () => {
      const { env: e, dir, ctx } = await setup();
      const file = writeInput(
        dir,
        'in.csv',
        `number,carrier,tag\n${s10(1)},3011,a\n${s10(1)},3011,b\n${s10(2)},3011,x\n${s10(2)},3011,x\n`,
      );
      const report = await runEngine(ctx, { operation: 'register', file, skipInvalid: true });
      expect(report.summary?.accepted).toBe(2);
      expect(report.summary?.invalid).toBe(1);
      expect([...e.sandbox.account.store.values()].map((r) => `${r.number}:${r.tag}`).sort()).toEqual([
        `${s10(1)}:a`,
        `${s10(2)}:x`,
      ]);
    },
  );

  it('decides the same over partitions written to disk as in memory (memory flat in the row count)', () => {
    const finder = new RepeatFinder({ dir: tempDir() });
    const rows = 300_000;
    for (let line = 1; line <= rows; line++) {
      const n = `N${line % 150_000}`; // every number twice: the second identical, but every 7th conflicting
      const content = line > 150_000 && line % 7 === 0 ? 'other' : 'same';
      finder.add(line, n, `${n}/3011`, content, 1);
    }
    const plan = finder.finish();
    const conflicts = [...plan.conflicts.keys()].length;
    expect(conflicts).toBe(Math.floor(rows / 7) - Math.floor(150_000 / 7));
    expect(plan.repeats).toBe(150_000 - conflicts);
    expect(plan.decision(1)).toBe('keep');
    expect(plan.decision(150_001)).toBe('repeat');
    expect(plan.decision(150_003)).toBe('conflict');
    expect(plan.conflicts.get(150_003)).toBe(3);
    const { chunkItems, chunkUnits } = plan.chunks(40);
    expect(chunkItems.reduce((a, b) => a + b, 0)).toBe(150_000);
    expect(chunkUnits.reduce((a, b) => a + b, 0)).toBe(150_000);
  });

  it('counts every request of a number under many carriers, one a request', () => {
    const finder = new RepeatFinder({ dir: tempDir() });
    for (let line = 1; line <= 10; line++) finder.add(line, 'X1', `X1/${line}`, 'same', 2);
    finder.add(11, 'X2', 'X2/3011', 'same', 1);
    const { chunkItems, chunkUnits } = finder.finish().chunks(40);
    expect([...chunkItems]).toEqual([2, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect([...chunkUnits]).toEqual([3, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
  });

  it('sorts in place as Array.prototype.sort does', () => {
    const random = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 1e9));
    const inputs = [[], [5], [2, 1], random(17), random(1000), random(100_000)];
    const ascending = Array.from({ length: 5000 }, (_, i) => i);
    for (const values of [...inputs, ascending, [...ascending].reverse(), Array(300).fill(7)]) {
      const order = Uint32Array.from(values.keys());
      sortInPlace(order, (a, b) => values[a]! - values[b]! || a - b);
      expect([...order].map((i) => values[i])).toEqual([...values].sort((a, b) => a - b));
    }
  });

  it('keeps a number under two carriers out of one request, as the chunker does', async () => {
    const text = `number,carrier\n${s10(1)},3011\n${s10(1)},21051\n${s10(2)},3011\n`;
    const scan = await scanInput(textSource(text), { operation: 'register', version: 'v2' });
    expect(scan.items).toBe(3);
    expect(scan.problems.count).toBe(0);
  });
});

describe('numbers as people print them', () => {
  it('drops spaces, no-break spaces and dots inside numbers, with one note', async () => {
    const text =
      'number\n1Z 999 AA1 01 2345 6784\nRR\u00a0123\u00a0456\u00a0789\u00a0CN\nRR.123.456.785.CN\nRR123456786CN\n';
    const scan = await scanInput(textSource(text), { operation: 'register', version: 'v2' });
    expect(scan.problems.count).toBe(0);
    expect(scan.items).toBe(4);
    expect(scan.notes).toEqual([
      '3 numbers written with spaces or dots read without them ("1Z 999 AA1 01 2345 6784" as 1Z999AA10123456784)',
    ]);
  });

  it('still refuses other characters, an invisible one shown escaped', async () => {
    const text = 'number\nRR123\u200b456789CN\nRR123,456789CN\n';
    const scan = await scanInput(textSource(text), { operation: 'register', version: 'v2', delimiter: ';' });
    expect(scan.problems.lines()).toEqual([
      'line 2: number "RR123\\u200b456789CN" is not 5 to 50 letters, digits or hyphens',
      'line 3: number "RR123,456789CN" is not 5 to 50 letters, digits or hyphens',
    ]);
    expect(show('a\ufeffb\u2060c\u{e0041}')).toBe('"a\\ufeffb\\u2060c\\u{e0041}"');
  });
});

describe('carrier cells', () => {
  it('Other, Unknown, -, N/A and empty cells send no carrier, said once; a --carrier default fills them', async () => {
    const text = `number,carrier\n${s10(1)},Other\n${s10(2)},-\n${s10(3)},\n${s10(4)},N/A\n${s10(5)},3011\n`;
    const scan = await scanInput(textSource(text), { operation: 'register', version: 'v2' });
    expect(scan.problems.count).toBe(0);
    expect(scan.notes).toEqual([
      '4 rows named no carrier ("Other", "-", empty, "N/A"): sent without one, for the service to detect',
    ]);
    const { env: e, dir, ctx } = await setup();
    const file = writeInput(dir, 'in.csv', text);
    expect((await runEngine(ctx, { operation: 'register', file, defaults: { carrier: '21051' } })).exitCode).toBe(0);
    expect([...registrations(e.sandbox).keys()].sort()).toEqual(
      [1, 2, 3, 4, 5].map((i) => `${s10(i)}/${i === 5 ? 3011 : 21051}`),
    );
  });

  it('a code the carrier list lacks is refused in a file as in a flag; -1 without fetching the list', async () => {
    const known = new Set([3011, 21051]);
    const resolveCarrier = (t: string) => {
      if (/^-/.test(t)) throw new UsageError(`carrier "${t}" is not a carrier code`);
      if (!known.has(Number(t))) throw new UsageError(`unknown carrier code ${t}`);
      return Number(t);
    };
    const text = `number,carrier\n${s10(1)},3011\n${s10(2)},99999999\n${s10(3)},-1\n`;
    const scan = await scanInput(textSource(text), { operation: 'register', version: 'v2', resolveCarrier });
    expect(scan.problems.lines()).toEqual([
      'line 3: carrier: unknown carrier code 99999999',
      'line 4: carrier: carrier "-1" is not a carrier code',
    ]);
  });
});
