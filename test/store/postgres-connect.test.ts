// Connecting to the mirror's PostgreSQL server: TLS as the address's sslmode says (against a server with a
// self-signed certificate), and failures said in one line that never carries the password.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrkError } from '../../src/core/errors.js';
import { PostgresStore } from '../../src/store/postgres.js';
import { postgresMissing, startPostgres, type PostgresServer } from '../postgres-server.mjs';

const missing = postgresMissing();

/** The line the user would see for what opening `url` throws. */
async function refusal(url: string): Promise<string> {
  try {
    await (await PostgresStore.open(url)).close();
  } catch (err) {
    expect(err).toBeInstanceOf(TrkError);
    return (err as TrkError).toLine();
  }
  throw new Error(`opened ${url}`);
}

/** The --verbose line of a store opened at `url`. */
async function described(url: string): Promise<string> {
  const lines: string[] = [];
  const store = await PostgresStore.open(url, { log: (line) => lines.push(line) });
  await store.close();
  return lines.join('\n');
}

describe.skipIf(missing !== undefined)('connecting to the mirror on PostgreSQL', () => {
  let server: PostgresServer;
  let db: string;

  beforeAll(async () => {
    server = (await startPostgres({ tls: true }))!;
    db = await server.createDatabase();
  }, 120_000);
  afterAll(() => server?.stop());

  it('uses TLS as sslmode says, and checks the certificate where it is asked to', async (t) => {
    if (!server.certificate) return t.skip('openssl is not installed: no certificate for the server');
    expect(await described(`${db}?sslmode=disable`)).toMatch(/not encrypted\)$/);
    expect(await described(db)).toMatch(/, TLS\)$/);
    expect(await described(`${db}?sslmode=require`)).toMatch(/, TLS\)$/);
    // Self-signed: not among the machine's authorities.
    const unchecked = await refusal(`${db}?sslmode=verify-full`);
    expect(unchecked).toMatch(
      /^no secure connection to the mirror's database at 127\.0\.0\.1:\d+ \(.*\): give the server's CA with /,
    );
    expect(await described(`${db}?sslmode=verify-full&sslrootcert=${encodeURIComponent(server.certificate)}`)).toMatch(
      /, TLS\)$/,
    );
    expect(await described(`${db}?sslmode=verify-ca&sslrootcert=${encodeURIComponent(server.certificate)}`)).toMatch(
      /, TLS\)$/,
    );
    // The certificate names localhost and 127.0.0.1, not this name.
    const otherName = db.replace('127.0.0.1', 'localhost.localdomain');
    const line = await refusal(
      `${otherName}?sslmode=verify-full&sslrootcert=${encodeURIComponent(server.certificate)}&connect_timeout=3`,
    );
    expect(line).toMatch(/no secure connection|cannot reach/);
  });

  it('names the server and never the password in --verbose and in every failure', async () => {
    const pw = server.password;
    const verbose = await described(db);
    expect(verbose).toMatch(
      /^mirror: PostgreSQL \d+.* at postgres:\/\/trk:\*\*\*@127\.0\.0\.1:\d+\/trk_\d+_\d+ \(database trk_\d+_\d+, /,
    );
    expect(verbose).not.toContain(pw);
    const wrong = await refusal(db.replace(pw, `${pw}-wrong`));
    expect(wrong).toMatch(
      /^the mirror's database at 127\.0\.0\.1:\d+ refused the login \(password authentication failed for user "trk"\)/,
    );
    expect(wrong).toMatch(/: check the user and password in the address \(or PGPASSWORD\)$/);
    expect(wrong).not.toContain(pw);
    const closed = await refusal(db.replace(`:${server.port}/`, ':9/'));
    expect(closed).toMatch(
      /^cannot reach the mirror's database at 127\.0\.0\.1:9 \(.*ECONNREFUSED.*\): check the address in --db, TRK_DB/,
    );
    expect(closed).not.toContain(pw);
    const noDatabase = await refusal(db.replace(/trk_\d+_\d+/, 'no_such_db'));
    expect(noDatabase).toMatch(/database "no_such_db" does not exist: create it \(createdb NAME\)/);
    expect(noDatabase).not.toContain(pw);
    // A server setting it refuses: the server's own words.
    const setting = await refusal(`${db}?statement_timeout=soon`);
    expect(setting).toMatch(/invalid value for parameter "statement_timeout"/);
    expect(setting).not.toContain(pw);
  });
});
