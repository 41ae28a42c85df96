import { describe, expect, it, vi } from 'vitest';
import { parseDbLocation } from '../../src/config/keys.js';
import type { TrkError } from '../../src/core/errors.js';
import { isPostgresLocation, parsePostgresUrl, shownLocation, withoutPassword } from '../../src/config/postgres-url.js';

/** The message and hint of what `fn` throws. */
function thrown(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return (err as TrkError).toLine();
  }
  throw new Error('nothing thrown');
}

describe('a PostgreSQL address for the mirror', () => {
  it('is told from a file path by its scheme', () => {
    expect(isPostgresLocation('postgres://db/trk')).toBe(true);
    expect(isPostgresLocation(' PostgreSQL://db/trk')).toBe(true);
    expect(isPostgresLocation('/var/lib/trk/postgres.db')).toBe(false);
    expect(isPostgresLocation('postgres.db')).toBe(false);
  });

  it('is read as libpq reads it: user, password, hosts, database, sslmode and the rest for the server', () => {
    const t = parsePostgresUrl(
      'postgres://trk:p%40ss:w@db1:6432,[::1]/shop?sslmode=verify-full&sslrootcert=/etc/ca.pem&search_path=mirror',
      '--db',
    );
    expect(t).toMatchObject({
      user: 'trk',
      password: 'p@ss:w',
      hosts: ['db1', '::1'],
      ports: [6432, 5432],
      database: 'shop',
      sslmode: 'verify-full',
      sslrootcert: '/etc/ca.pem',
      connectTimeout: 10,
      applicationName: 'trk',
      serverSettings: { search_path: 'mirror' },
    });
    expect(parsePostgresUrl('postgresql:///trk?host=/var/run/postgresql&user=ops', 'TRK_DB')).toMatchObject({
      hosts: ['/var/run/postgresql'],
      user: 'ops',
      password: undefined,
      database: 'trk',
      // libpq's default: TLS when the server offers it.
      sslmode: 'prefer',
    });
  });

  it('names a Unix socket by its folder, in the host part percent-encoded or as host=', () => {
    for (const address of [
      'postgres://%2Fvar%2Frun%2Fpostgresql:5433/trk',
      'postgres:///trk?host=%2Fvar%2Frun%2Fpostgresql&port=5433',
    ]) {
      expect(parsePostgresUrl(address, '--db'), address).toMatchObject({
        hosts: ['/var/run/postgresql'],
        ports: [5433],
        database: 'trk',
      });
    }
  });

  it('is read without reading its certificate files or warning about its sslmode', () => {
    // The settings check an address where the files may not be (`trk config set db` on another host): they are
    // read when a connection is made (src/store/postgres.ts), with a message of trk's own.
    const emitWarning = vi.spyOn(process, 'emitWarning');
    try {
      for (const sslmode of ['prefer', 'require', 'verify-ca'] as const) {
        const t = parsePostgresUrl(
          `postgres://trk@db/shop?sslmode=${sslmode}&sslrootcert=/nowhere/ca.pem` +
            '&sslcert=/nowhere/c.pem&sslkey=/nowhere/k',
          '--db',
        );
        expect(t).toMatchObject({
          sslmode,
          sslrootcert: '/nowhere/ca.pem',
          sslcert: '/nowhere/c.pem',
          sslkey: '/nowhere/k',
        });
      }
      expect(parsePostgresUrl('postgres://db/shop?sslrootcert=system', '--db').sslrootcert).toBe('system');
      expect(emitWarning).not.toHaveBeenCalled();
    } finally {
      emitWarning.mockRestore();
    }
  });

  it('is shown without its password, wherever the address carries it', () => {
    const t = parsePostgresUrl('postgres://trk:s3cret-pw@db:5432/shop?sslmode=require', '--db');
    expect(t.shown).toBe('postgres://trk:***@db:5432/shop?sslmode=require');
    expect(parsePostgresUrl('postgres://db/shop?user=trk&password=s3cret-pw', '--db').shown).toBe(
      'postgres://db/shop?user=trk&password=***',
    );
    expect(withoutPassword(t, 'auth failed for s3cret-pw (s3cret-pw)')).toBe('auth failed for *** (***)');
    expect(shownLocation('postgres://trk:s3cret-pw@db/shop')).toBe('postgres://trk:***@db/shop');
    expect(shownLocation('/home/ops/trk.db')).toBe('/home/ops/trk.db');
  });

  it('refuses what it cannot use in one line that never quotes the address', () => {
    const cases: [string, RegExp][] = [
      [
        'postgres://trk:s3cret-pw@db/shop?sslmode=verify',
        /TRK_DB: sslmode "verify" is not one of disable, allow, prefer, require, verify-ca, verify-full/,
      ],
      ['postgres://trk:s3cret-pw@db:99999/shop', /port 99999/],
      [
        'postgres://trk:s3cret-pw@db/shop?gssencmode=disable',
        /does not support the PostgreSQL parameter "gssencmode": remove it/,
      ],
      ['postgres://trk:s3cret-pw@db/shop?connect_timeout=soon', /connect_timeout "soon" is not a number of seconds/],
      ['postgres://trk:s3cret%pw@db/shop', /the password of the PostgreSQL address is not percent-encoded/],
      ['postgres://trk:s3cret-pw@db/shop#x', /TRK_DB is not a PostgreSQL address/],
    ];
    for (const [url, message] of cases) {
      const line = thrown(() => parseDbLocation(url, 'TRK_DB'));
      expect(line).toMatch(message);
      expect(line).not.toMatch(/s3cret/);
    }
    expect(parseDbLocation(' ~/trk/shop.db ', 'TRK_DB')).toBe('~/trk/shop.db');
  });
});
