// `--header`: piped tables (tab-separated, no header by default, as scripts read them by position) start with a
// line of the column names when asked, as `column -t` users expect; the same names as CSV's header. One global
// flag for every command that prints a table; refused (exit 2) where there are no columns to name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numbers, parseCsv, startEmulator, trk, type Emulator } from './helpers.js';

let emu: Emulator;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  emu = await startEmulator({ speed: 0 });
  env = emu.env;
  const r = await trk(['-q', 'register', ...numbers(3, 'LA'), '--carrier', '3011', '--tag', 'tsv'], { env });
  expect(r.code, r.stderr).toBe(0);
}, 60_000);

afterAll(async () => {
  await emu?.close();
});

const lines = (text: string) => text.split('\n').filter((l) => l !== '');

describe('--header on piped tables', () => {
  it('puts the column names of CSV first, above the rows trk prints without it', async () => {
    const plain = await trk(['list'], { env });
    const headed = await trk(['list', '--header'], { env });
    const csv = await trk(['list', '--csv'], { env });
    expect(headed.code, headed.stderr).toBe(0);
    const [header, ...rows] = lines(headed.stdout);
    expect(header!.split('\t')).toEqual(Object.keys(parseCsv(csv.stdout)[0]!));
    expect(rows).toEqual(lines(plain.stdout));
    expect(lines(plain.stdout)[0]).toMatch(/^LA/);
  });

  it('names the columns asked for, in their order', async () => {
    const r = await trk(['list', '--header', '--columns', 'status,number'], { env });
    expect(lines(r.stdout)[0]).toBe('status\tnumber');
    expect(lines(r.stdout)).toHaveLength(4);
  });

  it('is there for every command that prints a table: a record of fields, runs, profiles', async () => {
    const quota = await trk(['quota', '--header'], { env });
    expect(quota.code, quota.stderr).toBe(0);
    expect(lines(quota.stdout)[0]).toBe('field\tvalue');
    // No rows: the header alone, as CSV writes it.
    const runs = await trk(['runs', '--header'], { env });
    expect(runs.code, runs.stderr).toBe(0);
    expect(lines(runs.stdout)).toEqual(['id\tstate\tcommand\tinput\twhen\tdone\taccount']);
    const config = await trk(['config', 'list', '--header'], { env });
    expect(config.code, config.stderr).toBe(0);
    expect(lines(config.stdout)[0]!.split('\t')[0]).toBe('key');
  });

  it('is refused where there are no columns to name, before anything is sent', async () => {
    const before = emu.requests();
    for (const args of [
      ['list', '--header', '--json'],
      ['list', '--header', '-o', 'ids'],
      ['list', '--header', '--jq', '.[].number'],
      ['api', 'gettracklist', '--header'],
    ]) {
      const r = await trk(args, { env });
      expect(r.code, args.join(' ')).toBe(2);
      // One line (JSON when JSON was asked for) naming the flag and the fix.
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr, args.join(' ')).toMatch(/--header[\s\S]*drop --header/);
    }
    expect(emu.requests()).toBe(before);
  });
});
