/** The SQLite column type (affinity) that stores each kind of value. */
import type { FieldMeta, ValueType } from "../metadata/model.ts";

export type SqlType = "INTEGER" | "REAL" | "TEXT" | "BLOB" | "NUMERIC";

export function valueSqlType(type: ValueType, enumOrdinal: boolean): SqlType {
  switch (type.kind) {
    case "enum":
      return enumOrdinal ? "INTEGER" : "TEXT";
    case "key":
      return "TEXT";
    case "basic":
      switch (type.basic) {
        case "boolean":
        case "byte":
        case "short":
        case "int":
        case "long":
        case "biginteger":
        case "date":
        case "sql-date":
        case "timestamp":
        case "local-date":
        case "local-date-time":
        case "local-time":
        case "instant":
          return "INTEGER";
        case "float":
        case "double":
          return "REAL";
        case "decimal":
          // Exact text that sorts as the numbers do (src/json/decimal.ts).
          return "TEXT";
        case "bytes":
          return "BLOB";
        default:
          return "TEXT";
      }
    default:
      return "TEXT";
  }
}

/** Type of a field's own column (collections and maps of values are JSON text). */
export function fieldSqlType(field: FieldMeta): SqlType {
  const t = field.type;
  return t.kind === "collection" || t.kind === "map" ? "TEXT" : valueSqlType(t, field.enumOrdinal);
}
