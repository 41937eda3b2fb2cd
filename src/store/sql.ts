/**
 * SQL composition through Drizzle: statements are built with Drizzle's `sql` template (identifiers
 * quoted by `sql.identifier`, values always bound as parameters, never spliced into text) and
 * compiled once by Drizzle's SQLite dialect. Per-request values are `sql.placeholder`s, filled in
 * when a cached statement runs, so the request path does no SQL building at all.
 */
import { SQL, type SQLWrapper, fillPlaceholders, sql } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Statement } from "./store.ts";

const dialect = new SQLiteAsyncDialect();

export { sql, SQL, type SQLWrapper };

/** A statement compiled once, whose placeholders are filled per request. */
export interface Compiled {
  sql: string;
  params: unknown[];
}

export const ident = (name: string): SQL => sql`${sql.identifier(name)}`;

/**
 * The schema table references name while `onStoredTables` builds SQL. Access control shadows a
 * table by a common table expression of the same name (src/access/visibility.ts): what a
 * statement reads is the rows the principal may read. The rules' own filters must read the
 * stored rows, so they are built with every table named `main."T"`, which no CTE shadows.
 */
let tableSchema: string | undefined;

/** A table in a FROM clause (or a scalar subquery's): `"T"`, or `main."T"` inside `onStoredTables`. */
export const tableRef = (name: string): SQL => (tableSchema ? sql`${sql.identifier(tableSchema)}.${sql.identifier(name)}` : ident(name));

/**
 * Builds SQL (synchronously: `build` must not await) whose table references name the stored
 * tables themselves, past the access rules' CTEs. Only the rules' filters are built so; nothing
 * built here may be cached for other statements (the query compiler caches no SQL below prepare.ts).
 */
export function onStoredTables<T>(build: () => T): T {
  const prior = tableSchema;
  tableSchema = "main";
  try {
    return build();
  } finally {
    tableSchema = prior;
  }
}
export const qualified = (alias: string, column: string): SQL => sql`${sql.identifier(alias)}.${sql.identifier(column)}`;
export const param = (name: string): SQL => sql`${sql.placeholder(name)}`;

/**
 * A bound value that SQLite must not plan with: `+?`. SQLite reads the value bound to a bare `?`
 * when it plans a LIMIT or a LIKE or GLOB pattern, and then marks the statement to be prepared
 * again whenever a value is bound to it: every run. That cost about as much as preparing it (a
 * query's JSON statement: 268 µs a run with `LIMIT ?`, 11 µs with `LIMIT +?`), and a statement's
 * time limit that fell due while it was being prepared again was lost with the old copy of the
 * statement, so it ran to its end (measured: 2 ms limits under load, runs of seconds). SQLite does
 * not look into an expression: `+` leaves any value as it is. test/support/harness.ts refuses a
 * read with a bare `?` there.
 */
export const unplanned = (value: SQL | string | number): SQL => sql`+${value}`;

/**
 * `text`, or SQLITE_TOOBIG ("string or blob too big", from a zeroblob no engine will make) when its
 * UTF-8 is longer than `limit` bytes: how every answer and list written in SQL is held to its
 * bound. Measured as a blob: `length()` of a text counts its characters one by one, of a blob it
 * reads the size (an extent page of 82 KB: the count was about 15 % of its statement). SQLite
 * computes an aggregate written twice once.
 */
export const boundedText = (text: SQL, limit: SQL): SQL => sql`CASE WHEN length(CAST(${text} AS BLOB)) > ${limit} THEN zeroblob(2147483647) ELSE ${text} END`;

/**
 * `subject` equal to one of `values`: how a discriminator is held to a set of classes. SQLite
 * compares an IN list of up to two values in place, but for a longer one builds a temporary index
 * at every run of the statement and looks each row up in it (sqlite3FindInIndex): a nested
 * collection's class check over three classes was a fifth of a GET's statement (86,000
 * instructions against 67,000 as equalities). An OR of equalities on one column still uses an
 * index on it (SQLite searches it as the IN). Long lists stay an IN: each row would compare them
 * all, and each OR is a level of the expression's depth, which SQLite limits.
 */
export function oneOf(subject: SQL, values: readonly SQL[]): SQL {
  if (values.length <= 2 || values.length > ONE_OF_EQUALITIES) return sql`${subject} IN (${join(values)})`;
  return sql`(${join(
    values.map((v) => sql`${subject} = ${v}`),
    sql` OR `,
  )})`;
}
const ONE_OF_EQUALITIES = 16;

/**
 * Text the model fixes (class and field names in the JSON a select writes) as an SQL string
 * literal, quotes doubled. Never for a request's values: those are always bound. Literals, not
 * parameters, because a JSON select holds dozens of them and D1 binds at most 100 per statement.
 */
export const literal = (text: string): SQL => sql.raw(`'${text.replace(/'/g, "''")}'`);

export function compile(query: SQL): Compiled {
  const q = dialect.sqlToQuery(query);
  return { sql: q.sql, params: q.params };
}

export function bind(compiled: Compiled, values: Record<string, unknown> = {}): Statement {
  return { sql: compiled.sql, params: compiled.params.length ? fillPlaceholders(compiled.params, values) : [] };
}

/**
 * Compiles and binds in one step, for statements run once (the schema, at start-up). The request
 * path never compiles: its statements are compiled once per shape and cached (read plans, JSON
 * selects, queries, delete plans, and write statements by shape in src/write/write-plan.ts).
 */
export function statement(query: SQL): Statement {
  return bind(compile(query));
}

export const join = (parts: readonly SQL[], separator: SQL = sql`, `): SQL => sql.join(parts as SQL[], separator);

/** `(a, b)` for composite keys, `a` for single ones. */
export function tuple(parts: readonly SQL[]): SQL {
  return parts.length === 1 ? parts[0]! : sql`(${join(parts)})`;
}

/**
 * One key as what `… IN (…)` takes: a single column's value itself (SQLite reads `x IN (?)` as
 * `x = ?`), a composite key's values as a one-row `SELECT` (a row value list needs one).
 */
export function oneKeyOperand(parts: readonly SQL[]): SQL {
  return parts.length === 1 ? parts[0]! : sql`SELECT ${join(parts)}`;
}

/**
 * `a AS c0, b AS c1, ...`: result columns with distinct names whatever their expressions, for
 * drivers that return rows as objects keyed by column name (D1's batch) and would otherwise keep
 * only one of two equal names.
 */
export function distinctNames(parts: readonly SQL[], prefix = "c"): SQL {
  return join(parts.map((p, i) => sql`${p} AS ${sql.raw(`${prefix}${i}`)}`));
}
