// `trk find` in the mirror: the records that hold a text in any part of their tracking number, tag, order number or
// e-mail, literally (the text is a parameter, LIKE's wildcards and escape character escaped), letters A to Z in any
// case (SQL's lower(), as every filter of the mirror: other letters as written, on every database alike). In the
// order the mirror first saw the records, so that a text most records hold stops at the limit at once.
//
// Through an index of the three-character sequences (trigrams) of those columns, made by migration 4:
// - SQLite: an FTS5 table with the trigram tokenizer (SQLite 3.34 or later, as libsql's), kept by triggers on
//   records, walked in rowid order; its matches (folded in any Unicode case) are checked again by the LIKEs.
// - PostgreSQL: a GIN index of pg_trgm over lower() of the columns, which the planner picks for the LIKEs, where the
//   extension is there or the user may create it; elsewhere nothing is indexed and the records are read in order.
// A text shorter than a trigram is looked for by reading the records in order until the limit: at once where many
// hold it, every record where none does.

import type { Param } from './sql.js';

/**
 * The columns find looks in, as migration 4 indexed them: never edited (record-fields.ts's customer references
 * and the number; another reference needs a migration of its own).
 */
export const FIND_COLUMNS = ['number', 'tag', 'order_no', 'email'] as const;

/** The fewest characters an index of trigrams holds. */
const TRIGRAM = 3;

const COLUMNS = FIND_COLUMNS.join(', ');
const NEW = FIND_COLUMNS.map((c) => `new.${c}`).join(', ');
const OLD = FIND_COLUMNS.map((c) => `old.${c}`).join(', ');
const ADD = `INSERT INTO records_text (rowid, ${COLUMNS}) VALUES (new.id, ${NEW});`;
// An external content table is told the values it indexed to take them out.
const REMOVE = `INSERT INTO records_text (records_text, rowid, ${COLUMNS}) VALUES ('delete', old.id, ${OLD});`;

/** SQLite: the records' columns as an FTS5 table of trigrams, kept by triggers, filled with what the mirror holds. */
export const SQLITE_FIND_INDEX: readonly string[] = [
  `CREATE VIRTUAL TABLE records_text USING fts5(${COLUMNS}, content='records', content_rowid='id', tokenize='trigram')`,
  `CREATE TRIGGER records_text_added AFTER INSERT ON records BEGIN ${ADD} END`,
  `CREATE TRIGGER records_text_deleted AFTER DELETE ON records BEGIN ${REMOVE} END`,
  // Every upsert sets the columns: only a value that changed costs a new entry.
  `CREATE TRIGGER records_text_changed AFTER UPDATE OF ${COLUMNS} ON records ` +
    `WHEN ${FIND_COLUMNS.map((c) => `old.${c} IS NOT new.${c}`).join(' OR ')} BEGIN ${REMOVE} ${ADD} END`,
  "INSERT INTO records_text (records_text) VALUES ('rebuild')",
];

/** Each column, in lower case, by pg_trgm's operator class (%1$s: the extension's schema, for format()). */
const TRIGRAM_OPERANDS = FIND_COLUMNS.map((c) => `lower(${c}) %1$s.gin_trgm_ops`).join(', ');

/**
 * PostgreSQL: a GIN index of pg_trgm, in whatever schema the extension lives, and the statistics of its expressions,
 * without which the planner takes the index for texts most records hold and leaves it for rare ones (autovacuum
 * keeps them after). Where the server lacks pg_trgm or the user may not create it (or its operator class cannot be
 * found), the block undoes itself and the migration goes on without the index: find reads the records instead
 * (docs/mirror.md).
 */
export const POSTGRES_FIND_INDEX: readonly string[] = [
  `DO $$
DECLARE trgm text;
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
  SELECT extnamespace::regnamespace::text INTO trgm FROM pg_extension WHERE extname = 'pg_trgm';
  EXECUTE format('CREATE INDEX records_text ON records USING gin (${TRIGRAM_OPERANDS})', trgm);
  ANALYZE records;
EXCEPTION WHEN insufficient_privilege OR undefined_file OR undefined_object OR feature_not_supported THEN
  NULL;
END $$`,
];

/** How a database reads its index of trigrams. */
export interface FindDialect {
  /** A table of its own, joined to the records (SQLite's FTS5); else the planner picks the index for the LIKEs. */
  readonly textTable: boolean;
}

export const SQLITE_FIND: FindDialect = { textTable: true };
export const POSTGRES_FIND: FindDialect = { textTable: false };

/** A–Z in lower case, and nothing else: what SQL's lower() does to the mirror's text (SQLite's, and "C"'s). */
export function lowerAToZ(text: string): string {
  return text.replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

/** A LIKE pattern (ESCAPE '\') of any text holding `text`, whatever it is made of. */
function holding(text: string): string {
  return `%${lowerAToZ(text).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** An FTS5 phrase of `text` as it is: inside double quotes every character is itself, a double quote doubled. */
function phrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/** The keys of the first `limit` records holding `text` in a column of find's, in the order the mirror saw them. */
export function findQuery(text: string, limit: number, dialect: FindDialect): { sql: string; params: Param[] } {
  const held = `(${FIND_COLUMNS.map((c) => `lower(r.${c}) LIKE ? ESCAPE '\\'`).join(' OR ')})`;
  const patterns = FIND_COLUMNS.map(() => holding(text));
  // Characters, not UTF-16 units: the tokenizer's trigrams are of code points.
  if (dialect.textTable && [...text].length >= TRIGRAM) {
    return {
      sql:
        'SELECT r.number, r.carrier FROM records_text t JOIN records r ON r.id = t.rowid ' +
        `WHERE records_text MATCH ? AND ${held} ORDER BY t.rowid LIMIT ?`,
      params: [phrase(text), ...patterns, limit],
    };
  }
  return {
    sql: `SELECT r.number, r.carrier FROM records r WHERE ${held} ORDER BY r.id LIMIT ?`,
    params: [...patterns, limit],
  };
}
