// Types of postgres-server.mjs (plain JavaScript, so that bench/ can start a server as the tests do).

export interface PostgresServer {
  port: number;
  password: string;
  /** The server's self-signed certificate (a server started with tls, where openssl is installed). */
  certificate: string | undefined;
  /** The address of a database of the cluster (default: postgres). */
  url(database?: string): string;
  /** A new empty database's address. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

export function postgresBin(): string | undefined;
export function postgresMissing(): string | undefined;
export function startPostgres(opts?: { tls?: boolean }): Promise<PostgresServer | undefined>;
