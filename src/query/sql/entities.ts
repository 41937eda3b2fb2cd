/**
 * Persistent objects inside generated SQL. An object is either a row in the FROM clause (the
 * candidate, a variable: its columns are read directly) or only a key (reached by navigation:
 * its fields are read by a scalar subquery on that key, which is NULL when the key is NULL, so
 * navigation through null gives null, as JDOQL wants).
 */
import { type ClassMeta, type FieldMeta, type Model, classOf, subtree } from "../../metadata/model.ts";
import { relationStorage } from "../../mapping/relation-storage.ts";
import { type GroupLayout, alias, discriminatorFilter, groupsOf, primaryOf, subclassJoins } from "../../read/row-layout.ts";
import { type SQL, type SQLWrapper, ident, join, qualified, sql, tuple, tableRef } from "../../store/sql.ts";
import { fail, internal } from "../shared/errors.ts";
import type { Pos } from "../shared/model.ts";

export type EntityRef =
  /**
   * A row of the FROM clause: `prefix0` is its primary table, `prefix1`... the joined tables, of
   * which `read` holds those the statement reads a column of (rowInFrom).
   */
  | { kind: "row"; meta: ClassMeta; group: GroupLayout; prefix: string; guard?: SQL; read: Set<number> }
  /** Only the key is known (SQL expressions, NULL for no object). */
  | { kind: "key"; meta: ClassMeta; key: SQL[] };

/**
 * A row of a table group in a FROM clause: the ref the query reads it by, and the tables to join
 * after its primary table. Those are the group's other tables (subclass tables, a LEFT JOIN on the
 * key each) that the statement reads a column of, decided as the statement is compiled, when every
 * expression over the row is built: SQLite keeps an unread LEFT JOIN in an aggregate query, a key
 * search per row (a JPQL join over Items searched each Item's Book row).
 */
export function rowInFrom(meta: ClassMeta, group: GroupLayout, prefix: string): { ref: EntityRef & { kind: "row" }; joins: SQL } {
  const read = new Set<number>();
  const joins: SQLWrapper = { getSQL: () => subclassJoins(group, prefix, read), shouldOmitSQLParens: () => true };
  return { ref: { kind: "row", meta, group, prefix, read }, joins: sql`${joins}` };
}

/** The FROM item of a row (rowInFrom): its primary table and the tables joined to it. */
export const fromItem = (row: { ref: EntityRef & { kind: "row" }; joins: SQL }): SQL => sql`${primaryOf(row.ref.group, row.ref.prefix)}${row.joins}`;

/** The one table group of a class: queries over complete-table hierarchies spread over several tables are refused. */
export function singleGroup(model: Model, meta: ClassMeta, pos?: Pos): GroupLayout {
  const groups = groupsOf(model, meta);
  if (groups.length !== 1) fail(`${meta.name} is stored in ${groups.length} tables (complete-table): queries over it are not supported yet`, pos);
  return groups[0]!;
}

export function keyOf(e: EntityRef): SQL[] {
  if (e.kind === "key") return e.key;
  const refs = e.group.keyColumns.map((k) => qualified(alias(0, e.prefix), k));
  return e.guard ? refs.map((r) => sql`CASE WHEN ${e.guard} THEN ${r} END`) : refs;
}

/** The column of a field stored in the object's row(s). */
export function columnOf(model: Model, e: EntityRef, field: FieldMeta, column: string): SQL {
  // In a row, the field's table is the one its group holds (complete-table subclasses repeat fields).
  const table =
    (e.kind === "row" ? e.group.classes.map((c) => c.fieldTables.get(field.name)).find((t) => t && e.group.tables.includes(t)) : undefined) ??
    e.meta.fieldTables.get(field.name);
  if (!table) internal(`field ${field.name} has no column in ${e.meta.name}`);
  if (e.kind === "row") {
    const index = e.group.tables.indexOf(table);
    // A field of a class this row's table group does not hold (a cast to another complete-table class).
    if (index < 0) return sql`NULL`;
    if (index > 0) e.read.add(index);
    const ref = qualified(alias(index, e.prefix), column);
    return e.guard ? sql`CASE WHEN ${e.guard} THEN ${ref} END` : ref;
  }
  return sql`(SELECT ${ident(column)} FROM ${tableRef(table)} WHERE ${keyEquals(e.meta.keyColumns, e.key)})`;
}

/**
 * An object's version number (JDOHelper.getVersion, JPQL VERSION, and a field named by the
 * version's field-name extension): the version column of its primary table.
 */
export function versionOf(e: EntityRef, pos?: Pos): SQL {
  const version = e.meta.version ?? fail(`${e.meta.name} is not versioned`, pos);
  if (e.kind === "key") return sql`(SELECT ${ident(version.column)} FROM ${tableRef(e.meta.primaryTable!)} WHERE ${keyEquals(e.meta.keyColumns, e.key)})`;
  const ref = qualified(alias(0, e.prefix), version.column);
  return e.guard ? sql`CASE WHEN ${e.guard} THEN ${ref} END` : ref;
}

export function keyEquals(columns: readonly string[], key: readonly SQL[], tableAlias?: string): SQL {
  const cols = columns.map((c) => (tableAlias ? qualified(tableAlias, c) : ident(c)));
  return sql`${tuple(cols)} = ${tuple(key)}`;
}

/** Whether an object is an instance of one of `classes` (a discriminator test, or existence in the class's tables). */
export function instanceOf(model: Model, e: EntityRef, classes: readonly ClassMeta[]): SQL {
  const group = e.kind === "row" ? e.group : singleGroup(model, e.meta);
  const wanted = group.classes.filter((c) => classes.includes(c));
  if (!wanted.length) return sql`0`;
  if (e.kind === "row") {
    const filter = discriminatorFilter(group, wanted, e.prefix);
    const notNull = sql`${keyOf(e)[0]} IS NOT NULL`;
    return filter ? (e.guard ? sql`(${e.guard} AND ${filter})` : filter) : notNull;
  }
  const filter = discriminatorFilter(group, wanted, "x");
  return sql`EXISTS (SELECT 1 FROM ${tableRef(group.primaryTable)} ${ident("x0")} WHERE ${keyEquals(group.keyColumns, e.key, "x0")}${filter ? sql` AND ${filter}` : sql``})`;
}

/** Narrows an object to a subclass: a row keeps its columns under a guard; a key becomes NULL unless it is one. */
export function narrow(model: Model, e: EntityRef, to: ClassMeta): EntityRef {
  const test = instanceOf(model, e, subtree(model, to.name));
  if (e.kind === "row") return { ...e, meta: to, guard: e.guard ? sql`(${e.guard} AND ${test})` : test };
  return { kind: "key", meta: to, key: e.key.map((k) => sql`CASE WHEN ${test} THEN ${k} END`) };
}

/**
 * `SELECT <select> FROM <table holding the rows of T> x0 ... WHERE <where(x0)>`, restricted to
 * instances of T when the table also holds other classes (through T's primary table when the
 * rows' table is a subclass table).
 */
export function rowsOfClass(model: Model, meta: ClassMeta, table: string, select: (x: string) => SQL[], where: (x: string) => SQL, counter: () => string): SQL {
  const x = counter();
  const group = singleGroup(model, meta);
  const filter = discriminatorFilter(group, subtree(model, meta.name), `${x}p`);
  const base = sql`${tableRef(table)} ${ident(x)}`;
  if (!filter) return sql`SELECT ${join(select(x))} FROM ${base} WHERE ${where(x)}`;
  const primary = `${x}p0`;
  const on = keyEquals(
    group.keyColumns,
    group.keyColumns.map((k) => qualified(x, k)),
    primary,
  );
  return sql`SELECT ${join(select(x))} FROM ${base} JOIN ${tableRef(group.primaryTable)} ${ident(primary)} ON ${on} WHERE ${where(x)} AND ${filter}`;
}

/** The runtime class name of an object: its discriminator mapped back to class names. */
export function classNameOf(model: Model, e: EntityRef): SQL {
  const group = e.kind === "row" ? e.group : singleGroup(model, e.meta);
  if (!group.discriminatorColumn) return sql`CASE WHEN ${keyOf(e)[0]} IS NOT NULL THEN ${group.classes[0]!.name} END`;
  const cases = join(
    [...group.byDiscriminator].map(([value, c]) => sql`WHEN ${value} THEN ${c.name}`),
    sql` `,
  );
  const discriminator =
    e.kind === "row"
      ? qualified(alias(0, e.prefix), group.discriminatorColumn)
      : sql`(SELECT ${ident(group.discriminatorColumn)} FROM ${tableRef(group.primaryTable)} WHERE ${keyEquals(group.keyColumns, e.key)})`;
  return sql`(CASE ${discriminator} ${cases} END)`;
}

/** The table holding a field of a class (or of the subclass that declares it). */
export function tableOfField(model: Model, meta: ClassMeta, field: FieldMeta): string {
  return (
    meta.fieldTables.get(field.name) ??
    classOf(model, field.declaringClass).fieldTables.get(field.name) ??
    internal(`${field.name} has no table in ${meta.name}`)
  );
}

/**
 * `row` is an element of the collection `field` of the owner keyed `ownerKey`, as the foreign
 * key in the row itself: `row.fk = owner key`, for a collection mapped by a reference of its
 * elements, when the row's class is among the elements' (its class filter, already there, then
 * restricts as the elements' does) and its table group holds the foreign key. Undefined
 * otherwise. The same rows as `key IN (SELECT key FROM elements WHERE fk = owner)`, each once (a
 * key is unique), searched by the foreign key's index instead of a subquery per row.
 */
export function elementByForeignKey(model: Model, row: EntityRef, field: FieldMeta, ownerKey: () => SQL[]): SQL | undefined {
  const s = relationStorage(model, field);
  if (s.kind !== "target-fk" || row.kind !== "row" || row.guard) return undefined;
  const target = classOf(model, field.relation!.target);
  if (!subtree(model, target.name).includes(row.meta)) return undefined;
  if (!row.group.tables.includes(tableOfField(model, target, s.owning))) return undefined;
  return sql`${tuple(s.columns.map((c) => columnOf(model, row, s.owning, c)))} = ${tuple(ownerKey())}`;
}
