/**
 * Start-up schema work: creates missing tables and columns (never drops anything), Extent's own
 * bookkeeping tables, and the sequences of generated keys. Runs once, before the first request.
 */
import { decimalKey } from "../json/decimal.ts";
import { decimalOf } from "../json/exact.ts";
import type { Model } from "../metadata/model.ts";
import { keyFieldColumns } from "./keys.ts";
import { schemaOf, type TableDef } from "./schema.ts";
import { type SQL, ident, join, sql, statement } from "../store/sql.ts";
import type { Statement, StatementResult, Store } from "../store/store.ts";

import { DOOMED_TABLE, GUARD_TABLE, SCHEMA_VIEW, SEQUENCE_TABLE } from "../store/reserved-tables.ts";
/**
 * `missing`: no such object (404); `changed`: a nested object went meanwhile (409); `stale`: a
 * precondition on the version failed (412); `forbidden`: the access rules refuse the write (403);
 * `required`: a deletion would leave a required reference pointing at nothing (409).
 */
export const GUARDS = ["missing", "changed", "stale", "forbidden", "required"] as const;

/**
 * `INSERT INTO extent_guard (missing, changed) SELECT NULL, 0 WHERE <when>`: aborts the batch
 * when `when` holds, naming `guard`. Every other column gets a value, so SQLite (which reports
 * the first NULL column it checks) names the guard that failed and no other.
 */
export function guardInsert(guard: (typeof GUARDS)[number], when: SQL): SQL {
  const values = GUARDS.map((g) => (g === guard ? sql`NULL` : sql`0`));
  return sql`INSERT INTO ${ident(GUARD_TABLE)} (${join(GUARDS.map(ident))}) SELECT ${join(values)} WHERE ${when}`;
}

/**
 * Brings the store's schema up to date with the model: its check (`schemaCheck`) as one batch,
 * then whatever its results call for.
 */
export async function migrate(store: Store, model: Model, autoCreate: boolean): Promise<void> {
  const check = await schemaCheck(model, autoCreate);
  await check.assess(await store.migrate(check.statements)).complete(store);
}

/**
 * How a store's schema is checked against the model: `statements` read, in one batch, the tables'
 * columns and the fingerprint of the schema last brought up to date (a view, so that reading it
 * never fails, even on an empty database). When that is this model's fingerprint, and every table
 * and column is there, there is nothing `toDo`, and the check is all the start-up costs: one
 * round trip (a worker's cold start on D1), or none of its own when it rides with the first read
 * (src/mapping/schema-gate.ts). Otherwise `complete` makes what is missing in one batch and
 * records the new fingerprint (and rewrites an earlier release's decimals).
 */
export interface SchemaCheck {
  readonly statements: readonly Statement[];
  /** What the check's results (of `statements`) call for. */
  assess(results: readonly StatementResult[]): SchemaVerdict;
}

/** The check's verdict: whether anything is to be written, and the writing (nothing when `toDo` is false). */
export interface SchemaVerdict {
  readonly toDo: boolean;
  complete(store: Store): Promise<void>;
}

export async function schemaCheck(model: Model, autoCreate: boolean): Promise<SchemaCheck> {
  const tables = schemaOf(model);
  const expected = autoCreate ? await fingerprintOf(model, tables) : undefined;
  const assess = (results: readonly StatementResult[]): SchemaVerdict => {
    const existing = existingColumns(results[0]!.rows);
    // The columns are looked at too: a table or column dropped behind Extent's back is made again.
    const current =
      expected !== undefined &&
      results[1]!.rows.some(([text]) => String(text).includes(`'${expected}'`)) &&
      [...tables.values()].every((def) => [...def.columns.keys()].every((c) => existing.get(def.name.toLowerCase())?.has(c.toLowerCase())));
    const decimals = autoCreate
      ? [...tables.values()].flatMap((def) =>
          [...def.decimals].map((column) => ({ table: def.name, column, declared: existing.get(def.name.toLowerCase())?.get(column.toLowerCase()) })),
        )
      : [];
    const legacy = decimals.filter((d) => legacyDecimals(d.declared));
    return {
      toDo: !current || legacy.length > 0,
      complete: async (store) => {
        if (!current) {
          const ddl = schemaStatements(model, tables, existing, autoCreate ? () => true : (table) => existing.has(table.toLowerCase()), autoCreate);
          if (expected !== undefined) ddl.push(...recordFingerprint(expected));
          await store.migrate(ddl);
        }
        for (const { table, column } of legacy) await exactDecimals(store, table, column);
      },
    };
  };
  return { statements: [EXISTING_COLUMNS, FINGERPRINT], assess };
}

/** What makes a schema of the model: on an empty database (`existing` empty), every statement; the fingerprint is taken of those. */
function schemaStatements(
  model: Model,
  tables: ReturnType<typeof schemaOf>,
  existing: Map<string, Map<string, string>>,
  present: (table: string) => boolean,
  autoCreate = true,
): Statement[] {
  const ddl: Statement[] = [
    statement(sql`CREATE TABLE IF NOT EXISTS ${ident(SEQUENCE_TABLE)} (name TEXT PRIMARY KEY, next_value INTEGER NOT NULL)`),
    statement(sql.raw(`CREATE TABLE IF NOT EXISTS ${GUARD_TABLE} (${GUARDS.map((g) => `${g} INTEGER NOT NULL`).join(", ")})`)),
    // Keys as JSON arrays: one table serves every hierarchy, whatever its key's columns.
    statement(sql.raw(`CREATE TABLE IF NOT EXISTS ${DOOMED_TABLE} (root TEXT NOT NULL, key TEXT NOT NULL, PRIMARY KEY (root, key)) WITHOUT ROWID`)),
  ];
  // A guard table of an older release lacks the newer guards (the default only satisfies ALTER: every insert names every guard).
  const guardColumns = existing.get(GUARD_TABLE);
  for (const g of GUARDS)
    if (guardColumns && !guardColumns.has(g)) ddl.push(statement(sql.raw(`ALTER TABLE ${GUARD_TABLE} ADD COLUMN ${g} INTEGER NOT NULL DEFAULT 0`)));
  if (autoCreate) {
    for (const def of tables.values()) ddl.push(...createOrAlter(def, existing.get(def.name.toLowerCase())));
  }
  ddl.push(...sequenceRows(model, present));
  return ddl;
}

const FINGERPRINT = statement(sql`SELECT sql FROM sqlite_master WHERE type = 'view' AND name = ${SCHEMA_VIEW}`);

function recordFingerprint(fingerprint: string): Statement[] {
  return [
    statement(sql`DROP VIEW IF EXISTS ${ident(SCHEMA_VIEW)}`),
    statement(sql.raw(`CREATE VIEW ${SCHEMA_VIEW} AS SELECT '${fingerprint}' AS fingerprint`)),
  ];
}

/**
 * Raised whenever the statements made of a schema change (a column type spelled otherwise, a new
 * table of Extent's own, an index named otherwise): databases fingerprinted by an earlier release
 * are then checked in full once.
 */
const SCHEMA_FORMAT = 2;

/**
 * The fingerprint of a schema: the first 16 bytes, in hex, of the SHA-256 of what makes it — every
 * table with its columns and types, key, indexes and decimals (`schemaOf`), the guards, the
 * sequences and SCHEMA_FORMAT — not of the DDL itself, which a cold isolate would spend
 * milliseconds compiling only to hash it (crypto.subtle: native on every runtime). It names a
 * version of the schema; it guards nothing.
 */
async function fingerprintOf(model: Model, tables: ReadonlyMap<string, TableDef>): Promise<string> {
  const sequences = [...model.classes.values()]
    .filter((m) => !m.superclass && !m.embeddedOnly)
    .map((m) => [m.name, m.root, m.primaryTable, keyFieldColumns(m).map((k) => [k.column, k.generation.kind])]);
  const text = JSON.stringify([
    SCHEMA_FORMAT,
    GUARDS,
    [...tables.values()].map((t) => [t.name, [...t.columns], t.primaryKey, t.indexes, [...t.decimals]]),
    sequences,
    [...model.classes.values()].map((c) => [c.name, c.root, c.primaryTable ?? null]),
  ]);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...digest.subarray(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Whether a decimal column, declared `declared` (undefined: no such column yet), may hold an earlier release's doubles (see exactDecimals). */
function legacyDecimals(declared: string | undefined): boolean {
  return declared !== undefined && declared.toUpperCase() !== "TEXT";
}

/**
 * BigDecimals of an earlier release. It declared their columns NUMERIC and stored doubles; they are
 * stored as exact text now (src/json/decimal.ts), which compares and sorts apart from numbers.
 * So at start-up each number still in such a column is rewritten once as the text of the same
 * value (the double it was: nothing is lost that was not lost already); nothing is dropped, and
 * the column keeps its declared type (SQLite cannot change it; text with a space is kept as text
 * there), so it is looked at again at every start-up. A column declared TEXT holds only text.
 * Values are matched by `quote()`, SQLite's exact text of each, in slices of a few hundred.
 */
async function exactDecimals(store: Store, table: string, column: string): Promise<void> {
  const c = ident(column);
  const [found] = await store.migrate([
    statement(
      sql`SELECT DISTINCT quote(${c}), iif(typeof(${c}) = 'integer', CAST(${c} AS TEXT), ${c}) FROM ${ident(table)} WHERE typeof(${c}) IN ('integer', 'real')`,
    ),
  ]);
  const pairs: [unknown, string][] = [];
  for (const [quoted, value] of found!.rows) {
    const d = decimalOf(typeof value === "number" ? String(value) : String(value));
    if (d) pairs.push([quoted, decimalKey(d)]);
  }
  const SLICE = 500;
  const updates: Statement[] = [];
  for (let i = 0; i < pairs.length; i += SLICE) {
    const map = JSON.stringify(pairs.slice(i, i + SLICE));
    updates.push(
      statement(
        sql`UPDATE ${ident(table)} SET ${c} = (SELECT value ->> 1 FROM json_each(${map}) WHERE value ->> 0 = quote(${c})) WHERE typeof(${c}) IN ('integer', 'real') AND quote(${c}) IN (SELECT value ->> 0 FROM json_each(${map}))`,
      ),
    );
  }
  if (updates.length) await store.migrate(updates);
}

// D1 keeps tables of its own (`_cf_METADATA`, `_cf_KV`, any case) whose columns it refuses to show.
const EXISTING_COLUMNS = statement(
  sql`SELECT m.name AS table_name, p.name AS column_name, p.type AS column_type FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table' AND lower(m.name) NOT GLOB '_cf_*' AND m.name NOT GLOB 'sqlite_*'`,
);

/** Existing tables' columns, lower-cased, with their declared types (the rows of EXISTING_COLUMNS). */
function existingColumns(rows: readonly (readonly unknown[])[]): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const [table, column, type] of rows) {
    const key = String(table).toLowerCase();
    if (!out.has(key)) out.set(key, new Map());
    out.get(key)!.set(String(column).toLowerCase(), String(type ?? ""));
  }
  return out;
}

function createOrAlter(def: TableDef, existing: ReadonlyMap<string, string> | undefined): Statement[] {
  const indexes = def.indexes.map((columns) =>
    statement(sql`CREATE INDEX IF NOT EXISTS ${ident(`extent_${def.name}_${columns.join("_")}`)} ON ${ident(def.name)} (${join(columns.map(ident))})`),
  );
  if (!existing) {
    const columns = [...def.columns].map(([name, type]) => sql`${ident(name)} ${sql.raw(type)}`);
    const key = def.primaryKey.length ? sql`, PRIMARY KEY (${join(def.primaryKey.map(ident))})` : sql``;
    return [statement(sql`CREATE TABLE IF NOT EXISTS ${ident(def.name)} (${join(columns)}${key})`), ...indexes];
  }
  const added = [...def.columns]
    .filter(([name]) => !existing.has(name.toLowerCase()))
    .map(([name, type]) => statement(sql`ALTER TABLE ${ident(def.name)} ADD COLUMN ${ident(name)} ${sql.raw(type)}`));
  return [...added, ...indexes];
}

/** One sequence per hierarchy with generated numbers, starting past the largest key already stored. */
function sequenceRows(model: Model, present: (table: string) => boolean): Statement[] {
  const out: Statement[] = [];
  for (const meta of model.classes.values()) {
    if (meta.superclass || meta.embeddedOnly) continue;
    const column = keyFieldColumns(meta).find((k) => k.generation.kind === "sequence")?.column;
    if (!column) continue;
    const primaries = [
      ...new Set([...model.classes.values()].filter((c) => c.root === meta.name && c.primaryTable && present(c.primaryTable)).map((c) => c.primaryTable!)),
    ];
    const maxima = primaries.map((t) => sql`SELECT MAX(${ident(column)}) AS m FROM ${ident(t)}`);
    const source = maxima.length ? sql`(SELECT MAX(m) FROM (${join(maxima, sql` UNION ALL `)}))` : sql`0`;
    out.push(statement(sql`INSERT OR IGNORE INTO ${ident(SEQUENCE_TABLE)} (name, next_value) SELECT ${meta.name}, COALESCE(${source}, 0) + 1`));
  }
  return out;
}
