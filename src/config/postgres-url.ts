// A PostgreSQL address for the mirror (`--db postgres://...`, TRK_DB, the profile's db), read as libpq reads one:
// `postgres[ql]://[user[:password]@][host[:port][,host[:port]...]][/database][?param=value&...]`, with sslmode,
// sslrootcert, sslcert, sslkey, connect_timeout, application_name and password among the parameters, and any other
// parameter passed to the server as a setting (search_path=trk, options=-c...). Pure and light, a setting's value:
// the settings read it to check a value, and the store (src/store/postgres.ts) to connect.
//
// The password is never shown: messages quote `shown`, in which it is `***`, and never the address as given.

import { UsageError } from '../core/errors.js';

export type SslMode = 'disable' | 'allow' | 'prefer' | 'require' | 'verify-ca' | 'verify-full';
const SSL_MODES: readonly SslMode[] = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'];

/** Parameters of libpq that are the client's own and that trk does not support: refused rather than sent on. */
const UNSUPPORTED = new Set([
  'passfile',
  'channel_binding',
  'gssencmode',
  'gsslib',
  'krbsrvname',
  'service',
  'hostaddr',
  'sslpassword',
  'sslcrl',
  'sslcrldir',
  'sslcompression',
  'sslsni',
  'sslnegotiation',
  'sslkeylogfile',
  'ssl_min_protocol_version',
  'ssl_max_protocol_version',
  'requirepeer',
  'require_auth',
  'keepalives',
  'keepalives_idle',
  'keepalives_interval',
  'keepalives_count',
  'tcp_user_timeout',
  'replication',
  'load_balance_hosts',
]);

/** The client's own parameters trk reads; every other one is a setting for the server. */
const CLIENT_PARAMS = new Set([
  'sslmode',
  'sslrootcert',
  'sslcert',
  'sslkey',
  'connect_timeout',
  'application_name',
  'password',
  'user',
  'dbname',
  'host',
  'port',
  'target_session_attrs',
]);

export interface PostgresTarget {
  hosts: string[];
  ports: number[];
  /** Undefined: libpq's default (PGDATABASE, else the user's name). */
  database: string | undefined;
  /** Undefined: PGUSER, else the login name. */
  user: string | undefined;
  /** Undefined: PGPASSWORD, else none. */
  password: string | undefined;
  /** libpq's default is prefer: TLS when the server offers it. */
  sslmode: SslMode;
  /** A file of CA certificates, or `system` (the machine's). */
  sslrootcert: string | undefined;
  sslcert: string | undefined;
  sslkey: string | undefined;
  /** Seconds to wait for a connection. */
  connectTimeout: number;
  applicationName: string;
  targetSessionAttrs: string | undefined;
  /** Settings for the server's session (search_path, options, statement_timeout...). */
  serverSettings: Record<string, string>;
  /** The address with its password as `***`: what messages and --verbose show. */
  shown: string;
}

/** Whether a mirror's location names a PostgreSQL database rather than a file. */
export function isPostgresLocation(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location.trim());
}

const ADDRESS = /^(postgres(?:ql)?):\/\/(?:([^@/?#]*)@)?([^/?#]*)(?:\/([^?#]*))?(?:\?([^#]*))?$/i;

function decode(text: string, what: string, source: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new UsageError(
      `${source}: the ${what} of the PostgreSQL address is not percent-encoded properly`,
      'encode characters such as @ : / ? # % in it (%40 for @)',
    );
  }
}

const EXAMPLE = 'give an address such as postgres://trk@db.internal:5432/trk?sslmode=verify-full';

/** The hosts and ports of `host[:port],...` (a [v6] address in brackets). */
function hostsOf(text: string, source: string): { hosts: string[]; ports: number[] } {
  const hosts: string[] = [];
  const ports: number[] = [];
  for (const part of text === '' ? [] : text.split(',')) {
    const m = /^(\[[^\]]+\]|[^:]*)(?::(\d*))?$/.exec(part);
    if (!m) throw new UsageError(`${source}: a host of the PostgreSQL address is not host:port`, EXAMPLE);
    const port = m[2] ? Number(m[2]) : 5432;
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      throw new UsageError(`${source}: the PostgreSQL address has port ${m[2]}, not one of 1-65535`, EXAMPLE);
    hosts.push(decode(m[1]!.replace(/^\[|\]$/g, ''), 'host', source));
    ports.push(port);
  }
  return { hosts, ports };
}

function paramsOf(query: string, source: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const pair of query === '' ? [] : query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decode((eq < 0 ? pair : pair.slice(0, eq)).replaceAll('+', ' '), 'parameter names', source);
    const value = decode((eq < 0 ? '' : pair.slice(eq + 1)).replaceAll('+', ' '), `value of ${name}`, source);
    if (UNSUPPORTED.has(name)) {
      throw new UsageError(
        `${source}: trk does not support the PostgreSQL parameter "${name}"`,
        'remove it; trk reads sslmode, sslrootcert, sslcert, sslkey, connect_timeout and application_name',
      );
    }
    params.set(name, value);
  }
  return params;
}

function sslModeOf(params: Map<string, string>, source: string): SslMode {
  const mode = params.get('sslmode') ?? 'prefer';
  if ((SSL_MODES as readonly string[]).includes(mode)) return mode as SslMode;
  throw new UsageError(
    `${source}: sslmode "${mode}" is not one of ${SSL_MODES.join(', ')}`,
    "e.g. sslmode=verify-full to check the server's certificate",
  );
}

function timeoutOf(params: Map<string, string>, source: string): number {
  const text = params.get('connect_timeout');
  if (text === undefined) return 10;
  const seconds = Number(text);
  if (!/^\d+$/.test(text) || seconds < 1)
    throw new UsageError(`${source}: connect_timeout "${text}" is not a number of seconds`, 'e.g. connect_timeout=10');
  return seconds;
}

/** The address with the password, wherever it was given, shown as `***`. */
function shownAddress(m: RegExpExecArray, params: Map<string, string>): string {
  const [, scheme, userinfo, hosts, database] = m;
  const user = userinfo === undefined ? '' : `${userinfo.split(':')[0]}${userinfo.includes(':') ? ':***' : ''}@`;
  const query = [...params]
    .map(([k, v]) => `${encodeURIComponent(k)}=${k === 'password' ? '***' : encodeURIComponent(v)}`)
    .join('&');
  const path = database === undefined ? '' : `/${database}`;
  return `${scheme!.toLowerCase()}://${user}${hosts}${path}${query ? `?${query}` : ''}`;
}

/** Reads a PostgreSQL address; `source` names where it came from (--db, TRK_DB...), for messages. */
export function parsePostgresUrl(text: string, source: string): PostgresTarget {
  const m = ADDRESS.exec(text.trim());
  // Not quoted: the address may carry a password.
  if (!m) throw new UsageError(`${source} is not a PostgreSQL address`, EXAMPLE);
  const params = paramsOf(m[5] ?? '', source);
  const userinfo = m[2];
  const colon = userinfo?.indexOf(':') ?? -1;
  const fromUser =
    userinfo === undefined ? undefined : decode(colon < 0 ? userinfo : userinfo.slice(0, colon), 'user', source);
  const fromPassword =
    userinfo === undefined || colon < 0 ? undefined : decode(userinfo.slice(colon + 1), 'password', source);
  const { hosts, ports } = hostsOf(params.get('host') === undefined ? m[3]! : params.get('host')!, source);
  if (params.has('port') && hosts.length === 1) ports[0] = hostsOf(`x:${params.get('port')}`, source).ports[0]!;
  const database = params.get('dbname') ?? (m[4] ? decode(m[4], 'database name', source) : undefined);
  return {
    hosts: hosts.length > 0 ? hosts : ['localhost'],
    ports: ports.length > 0 ? ports : [5432],
    database: database === '' ? undefined : database,
    user: params.get('user') ?? (fromUser === '' ? undefined : fromUser),
    password: params.get('password') ?? fromPassword,
    sslmode: sslModeOf(params, source),
    sslrootcert: params.get('sslrootcert'),
    sslcert: params.get('sslcert'),
    sslkey: params.get('sslkey'),
    connectTimeout: timeoutOf(params, source),
    applicationName: params.get('application_name') ?? 'trk',
    targetSessionAttrs: params.get('target_session_attrs'),
    serverSettings: Object.fromEntries([...params].filter(([k]) => !CLIENT_PARAMS.has(k))),
    shown: shownAddress(m, params),
  };
}

/** `text` with the target's password (should a message ever quote it) as `***`. */
export function withoutPassword(target: Pick<PostgresTarget, 'password'>, text: string): string {
  const p = target.password;
  if (!p) return text;
  return [p, encodeURIComponent(p)].reduce((t, secret) => t.split(secret).join('***'), text);
}

/** A location as messages may show it: a PostgreSQL address without its password, a path as it is. */
export function shownLocation(location: string): string {
  if (!isPostgresLocation(location)) return location;
  try {
    return parsePostgresUrl(location, 'the address').shown;
  } catch {
    return 'a PostgreSQL address that cannot be read';
  }
}
