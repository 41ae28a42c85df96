// --sandbox with carrier names: the carrier and country lists of the embedded emulator's world, with no res URL
// reachable (baseEnv points it at a closed port) and nothing written to the lists' cache.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { baseEnv, trk } from './helpers.js';

const cacheEntries = (env: NodeJS.ProcessEnv): string[] => {
  try {
    return readdirSync(env.TRK_CACHE_DIR!).filter((f) => /^(apicarrier|country)\.all\./.test(f));
  } catch {
    return [];
  }
};

describe('--sandbox carrier and country lists', () => {
  it('registers by carrier name, searches the carriers and names them in tables', async () => {
    const env = baseEnv();
    const reg = await trk(['--sandbox', 'register', 'RR123456789CN', '--carrier', 'China Post', '--json'], { env });
    expect(reg.code, reg.stderr).toBe(0);
    expect(reg.stdout).toMatch(/"carrier":\s*3011/);

    const carriers = await trk(['--sandbox', 'carriers', 'china'], { env });
    expect(carriers.code, carriers.stderr).toBe(0);
    expect(carriers.stdout).toMatch(/^3011\tChina Post\tCN\t/m);
    expect(carriers.stderr).toMatch(/the sandbox's simulated world/);

    const countries = await trk(['--sandbox', 'countries', 'CN'], { env });
    expect(countries.code, countries.stderr).toBe(0);
    expect(countries.stdout).toMatch(/^301\tCN\tChina$/m);

    const table = await trk(['--sandbox', 'list', '-o', 'table'], { env });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/RR123456789CN/);
    expect(table.stdout).toMatch(/China Post/);

    expect(cacheEntries(env)).toEqual([]);
  });
});
