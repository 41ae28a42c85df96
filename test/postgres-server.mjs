// A throw-away PostgreSQL server for the tests and benchmarks of the mirror on PostgreSQL: initdb and pg_ctl (found on
// PATH or in /usr/lib/postgresql/*/bin, as Debian's postgresql package installs them; .ci/run installs it) make a
// cluster in a temporary folder, listening on 127.0.0.1 only, on a free port, with a password (scram-sha-256), and
// remove it at the end. initdb refuses to run as root: as root the server runs as the user "postgres" (Debian's
// package makes it), else as a user made for it, through runuser. Where the programs are missing, startPostgres()
// resolves to undefined and the callers skip, saying so.

import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';

/** The folder holding initdb and pg_ctl, or undefined. */
export function postgresBin() {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath && existsSync(path.join(path.dirname(onPath), 'pg_ctl'))) return path.dirname(onPath);
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')) && existsSync(path.join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(root, versions[0], 'bin');
}

/** Why the tests of the mirror on PostgreSQL are skipped, or undefined when they can run. */
export function postgresMissing() {
  return postgresBin() === undefined
    ? 'initdb and pg_ctl are not installed: the tests of the mirror on PostgreSQL are skipped ' +
        '(apt-get install postgresql)'
    : undefined;
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** The user the server runs as when this process is root: postgres, else one made for it. */
function serverUser() {
  for (const name of ['postgres', 'trk-pgtest']) {
    if (spawnSync('id', ['-u', name]).status === 0) return name;
  }
  execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', 'trk-pgtest']);
  return 'trk-pgtest';
}

function ids(user) {
  const id = (flag) => Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** A self-signed certificate for localhost and 127.0.0.1 in `dir` (openssl), or undefined without openssl. */
function makeCertificate(dir) {
  const cert = path.join(dir, 'server.crt');
  const key = path.join(dir, 'server.key');
  const r = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { encoding: 'utf8' },
  );
  return r.status === 0 ? { cert, key } : undefined;
}

/**
 * Starts a cluster. Resolves to undefined where the server programs are missing. `url(database)` is the address of
 * a database as trk takes it (user trk, the password, 127.0.0.1, the port, sslmode=disable unless `tls`);
 * `createDatabase()` makes a new empty one and gives its address. With `tls`, the server takes TLS connections too,
 * with a self-signed certificate (`certificate`: its file) where openssl can make one.
 */
export async function startPostgres({ tls = false } = {}) {
  const bin = postgresBin();
  if (bin === undefined) return undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'trk-pg-'));
  const data = path.join(dir, 'data');
  const password = `pw-${randomBytes(12).toString('hex')}`;
  const user = isRoot() ? serverUser() : undefined;
  const owned = (file) => {
    if (user) {
      const { uid, gid } = ids(user);
      chownSync(file, uid, gid);
    }
    return file;
  };
  owned(dir);
  const pwfile = path.join(dir, 'password');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  owned(pwfile);
  const run = (program, args) => {
    const cmd = user
      ? ['runuser', '-u', user, '--', path.join(bin, program), ...args]
      : [path.join(bin, program), ...args];
    const r = spawnSync(cmd[0], cmd.slice(1), { encoding: 'utf8', cwd: dir });
    if (r.status !== 0) throw new Error(`${program} failed (${r.status}): ${r.stderr || r.stdout}`);
  };
  run('initdb', [
    '-D',
    data,
    '-U',
    'trk',
    `--pwfile=${pwfile}`,
    '-A',
    'scram-sha-256',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
    '--no-instructions',
  ]);
  const port = await freePort();
  const certificate = tls ? makeCertificate(dir) : undefined;
  if (certificate) {
    owned(certificate.key);
    owned(certificate.cert);
  }
  const ssl = certificate
    ? ['ssl = on', `ssl_cert_file = '${certificate.cert}'`, `ssl_key_file = '${certificate.key}'`]
    : [];
  appendFileSync(
    path.join(data, 'postgresql.conf'),
    [
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      "unix_socket_directories = ''",
      'fsync = off',
      'full_page_writes = off',
      'max_connections = 200',
      ...ssl,
      '',
    ].join('\n'),
  );
  run('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-w', '-t', '120', 'start']);
  const stop = () => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // stopped already
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // A test process that ends without its afterAll leaves no server running.
  process.once('exit', stop);
  const url = (database = 'postgres') =>
    `postgres://trk:${password}@127.0.0.1:${port}/${database}${tls ? '' : '?sslmode=disable'}`;
  const admin = postgres(url(), { onnotice: () => {}, max: 1 });
  let made = 0;
  return {
    port,
    password,
    certificate: certificate?.cert,
    url,
    /** A new empty database; sorting by a language's rules (ICU's en-US) where the server can, as many do. */
    async createDatabase() {
      const name = `trk_${process.pid}_${++made}`;
      try {
        await admin.unsafe(
          `CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' ` +
            "LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C'",
        );
      } catch {
        await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8'`);
      }
      return url(name);
    },
    async stop() {
      await admin.end({ timeout: 1 });
      process.removeListener('exit', stop);
      stop();
    },
  };
}
