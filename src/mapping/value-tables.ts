/**
 * Collections of values kept in a table of their own (JDO `<join>`, JPA `@CollectionTable`):
 * `(owner key…, value[, position])` rows. Everything above the mapping sees them as it sees a
 * collection stored as a JSON column: reads, queries and the JSON select take the same JSON
 * array, computed here by a correlated subquery in the same statement (no extra round trip, no
 * statement per object), and a write hands over the same JSON array, which one statement spreads
 * into rows (`json_each`).
 *
 * A row holds an element's JSON form as SQLite reads it from JSON: text for strings, enums (by
 * name), chars, UUIDs and base64 bytes; integers for whole numbers, dates and times (epoch
 * milliseconds), and booleans (1/0, turned back into true/false when read); reals for doubles
 * and BigDecimals.
 */
import type { FieldMeta, ValueTable, ValueType } from "../metadata/model.ts";
import { type SQL, ident, join, sql, tableRef, tuple } from "../store/sql.ts";
import type { SqlType } from "./column-types.ts";

/** The table of a field kept in one (else an internal error: callers check `field.valueTable`). */
export function valueTableOf(field: FieldMeta): ValueTable {
  if (!field.valueTable) throw new Error(`internal: ${field.declaringClass}.${field.name} has no table of values`);
  return field.valueTable;
}

/** The element's type of a collection kept in a table. */
const elementOf = (field: FieldMeta): ValueType => {
  if (field.type.kind !== "collection") throw new Error(`internal: ${field.declaringClass}.${field.name} is not a collection`);
  return field.type.element;
};

/** The value column's affinity: what keeps the element's JSON form as json_each reads it. */
export function valueColumnType(field: FieldMeta): SqlType {
  const t = elementOf(field);
  if (t.kind !== "basic") return "TEXT";
  switch (t.basic) {
    case "float":
    case "double":
    case "decimal":
      return "REAL";
    case "string":
    case "char":
    case "uuid":
    case "bytes":
      return "TEXT";
    default:
      return "INTEGER";
  }
}

/** One element as JSON text's value: booleans stored as 1/0 are JSON's true/false again. */
function elementJson(field: FieldMeta, column: SQL): SQL {
  const t = elementOf(field);
  if (t.kind === "basic" && t.basic === "boolean") return sql`json(CASE WHEN ${column} IS NULL THEN 'null' WHEN ${column} THEN 'true' ELSE 'false' END)`;
  return column;
}

/** The order elements read in: a list's position, else the value (a set's, as a join table orders by the element key). */
export function valueOrder(field: FieldMeta, alias?: string): SQL {
  const s = valueTableOf(field);
  const col = (c: string) => (alias ? sql`${ident(alias)}.${ident(c)}` : ident(c));
  return s.orderColumn ? col(s.orderColumn) : col(s.valueColumn);
}

/** `owner columns = owner key` for the rows of one owner (`ownerKey`: SQL naming the owner's key, in key-column order). */
export function ownerMatch(field: FieldMeta, ownerKey: readonly SQL[], alias?: string): SQL {
  const s = valueTableOf(field);
  return join(
    s.ownerColumns.map((c, i) => sql`${alias ? sql`${ident(alias)}.${ident(c)}` : ident(c)} = ${ownerKey[i]!}`),
    sql` AND `,
  );
}

/**
 * The collection's JSON array text (`[]` when it has no rows), for the owner whose key
 * `ownerKey` names: what the JSON column would hold. A correlated subquery: one per statement,
 * whatever the number of owners.
 */
export function valueArrayJson(field: FieldMeta, ownerKey: readonly SQL[]): SQL {
  const s = valueTableOf(field);
  const v = sql`${ident("_v")}.${ident(s.valueColumn)}`;
  // Aggregated over an ordered subquery, as the JSON selects' group_concat are: SQLite keeps its
  // order, and `json_group_array(… ORDER BY …)` needs SQLite 3.44, which not every store has.
  // (A JSON value's subtype does not cross a subquery: booleans become JSON in the aggregate.)
  const rows = sql`SELECT ${v} AS ${ident("_e")} FROM ${tableRef(s.table)} ${ident("_v")} WHERE ${ownerMatch(field, ownerKey, "_v")} ORDER BY ${valueOrder(field, "_v")}`;
  return sql`(SELECT json_group_array(${elementJson(field, ident("_e"))}) FROM (${rows}))`;
}

/** One owner's elements as a subquery of one column, `value` (as `json_each` names it; booleans 1/0 as json_each reads them). */
export function valueRows(field: FieldMeta, ownerKey: readonly SQL[]): SQL {
  const s = valueTableOf(field);
  return sql`SELECT ${ident("_v")}.${ident(s.valueColumn)} AS ${ident("value")} FROM ${tableRef(s.table)} ${ident("_v")} WHERE ${ownerMatch(field, ownerKey, "_v")}`;
}

/** The rows of the owners whose keys `keys` selects (a subquery of key tuples): what deleting them removes. */
export function deleteValueRows(field: FieldMeta, keys: SQL): SQL {
  const s = valueTableOf(field);
  return sql`DELETE FROM ${ident(s.table)} WHERE ${tuple(s.ownerColumns.map((c) => ident(c)))} IN (${keys})`;
}

/**
 * The rows of one owner from the collection's JSON array text (`array`), in one statement:
 * `INSERT … SELECT owner…, value[, position] FROM json_each(array)`. A set's array is already
 * free of duplicates (src/json/values.ts); a list's position is its index in the array.
 */
export function insertValueRows(field: FieldMeta, ownerKey: readonly SQL[], array: SQL): SQL {
  const s = valueTableOf(field);
  const columns = [...s.ownerColumns, s.valueColumn, ...(s.orderColumn ? [s.orderColumn] : [])];
  const values = [...ownerKey, sql`value`, ...(s.orderColumn ? [sql`key`] : [])];
  return sql`INSERT INTO ${ident(s.table)} (${join(columns.map((c) => ident(c)))}) SELECT ${join(values)} FROM json_each(${array})`;
}
