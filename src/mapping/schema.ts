/**
 * The relational schema a model needs: every table with its columns and key. Derived once from
 * the metadata model; the migrator creates what is missing, and the planners read column names
 * from the metadata directly.
 */
import { type ClassMeta, type FieldType, type Model, type ValueType, classOf } from "../metadata/model.ts";
import { type SqlType, fieldSqlType, valueSqlType } from "./column-types.ts";
import { valueColumnType } from "./value-tables.ts";

export interface TableDef {
  name: string;
  /** Column name → type, in creation order. */
  columns: Map<string, SqlType>;
  primaryKey: string[];
  /**
   * Column lists to index: foreign keys and join-table sides. Relations are loaded by these
   * columns (`WHERE author IN (...)`), so without an index every such load scans the table.
   */
  indexes: string[][];
  /** Columns holding BigDecimals (stored as exact text: an earlier release stored doubles, see migrate.ts). */
  decimals: Set<string>;
}

const isDecimal = (t: ValueType | FieldType): boolean => t.kind === "basic" && t.basic === "decimal";

/** Per key column of a class hierarchy: whether it holds BigDecimals. */
function keyColumnDecimals(meta: ClassMeta): boolean[] {
  const id = meta.identity;
  return id.kind === "datastore" ? [false] : id.fields.map((f) => isDecimal(meta.fields.get(f)!.type));
}

/** The column types of a class hierarchy's key columns. */
function keyColumnTypes(model: Model, meta: ClassMeta): SqlType[] {
  const id = meta.identity;
  if (id.kind === "datastore") return [id.generation.kind === "sequence" ? "INTEGER" : "TEXT"];
  return id.fields.map((f) => {
    const field = meta.fields.get(f)!;
    return field.type.kind === "collection" || field.type.kind === "map" ? "TEXT" : valueSqlType(field.type, field.enumOrdinal);
  });
}

export function schemaOf(model: Model): Map<string, TableDef> {
  const tables = new Map<string, TableDef>();
  const table = (name: string, keys: readonly string[], keyTypes: SqlType[], keyDecimals: boolean[]): TableDef => {
    let def = tables.get(name);
    if (!def) {
      def = { name, columns: new Map(), primaryKey: [...keys], indexes: [], decimals: new Set() };
      keys.forEach((k, i) => def!.columns.set(k, keyTypes[i]!));
      keys.forEach((k, i) => keyDecimals[i] && def!.decimals.add(k));
      tables.set(name, def);
    }
    return def;
  };
  /** Columns holding other classes' keys (foreign keys, join tables). */
  const keyColumns = (def: TableDef, columns: readonly string[], types: SqlType[], decimals: boolean[]) =>
    columns.forEach((c, i) => {
      if (def.columns.has(c)) return;
      def.columns.set(c, types[i] ?? "TEXT");
      if (decimals[i]) def.decimals.add(c);
    });

  for (const meta of model.classes.values()) {
    if (meta.embeddedOnly) continue;
    const keyTypes = keyColumnTypes(model, meta);
    const keyDecimals = keyColumnDecimals(meta);
    for (const t of meta.tables) table(t, meta.keyColumns, keyTypes, keyDecimals);
    if (meta.primaryTable) {
      const primary = table(meta.primaryTable, meta.keyColumns, keyTypes, keyDecimals);
      if (meta.discriminator) primary.columns.set(meta.discriminator.column, "TEXT");
      if (meta.version) primary.columns.set(meta.version.column, "INTEGER");
    }
    for (const [fieldName, tableName] of meta.fieldTables) {
      const field = meta.fields.get(fieldName)!;
      const def = table(tableName, meta.keyColumns, keyTypes, keyDecimals);
      if (field.column && !def.columns.has(field.column)) {
        def.columns.set(field.column, fieldSqlType(field));
        if (isDecimal(field.type)) def.decimals.add(field.column);
      }
      if (field.fkColumns) {
        const target = classOf(model, field.relation!.target);
        keyColumns(def, field.fkColumns, keyColumnTypes(model, target), keyColumnDecimals(target));
        addIndex(def, field.fkColumns);
      }
      if (field.embeddedColumns && field.type.kind === "embedded") {
        const embedded = classOf(model, field.type.class);
        for (const [sub, column] of Object.entries(field.embeddedColumns)) {
          const subField = embedded.fields.get(sub);
          if (!subField || def.columns.has(column)) continue;
          def.columns.set(column, fieldSqlType(subField));
          if (isDecimal(subField.type)) def.decimals.add(column);
        }
      }
    }
    for (const field of meta.fields.values()) {
      const v = field.valueTable;
      if (!v || field.declaringClass !== meta.name) continue;
      // A collection of values in its own table: read by owner, so indexed by it.
      const def = table(v.table, [], [], []);
      keyColumns(def, v.ownerColumns, keyTypes, keyDecimals);
      if (!def.columns.has(v.valueColumn)) def.columns.set(v.valueColumn, valueColumnType(field));
      if (v.orderColumn) def.columns.set(v.orderColumn, "INTEGER");
      addIndex(def, v.ownerColumns);
    }
    for (const field of meta.fields.values()) {
      const s = field.relation?.storage;
      if (s?.kind !== "join-table" || field.declaringClass !== meta.name) continue;
      const target = classOf(model, field.relation!.target);
      const targetTypes = keyColumnTypes(model, target);
      const def = table(s.table, [], [], []);
      keyColumns(def, s.ownerColumns, keyTypes, keyDecimals);
      keyColumns(def, s.elementColumns, targetTypes, keyColumnDecimals(target));
      if (s.orderColumn) def.columns.set(s.orderColumn, "INTEGER");
      addIndex(def, s.ownerColumns);
      addIndex(def, s.elementColumns);
    }
  }
  return tables;
}

function addIndex(def: TableDef, columns: readonly string[]): void {
  const same = (a: readonly string[]) => a.length === columns.length && a.every((c, i) => c === columns[i]);
  // A primary key that starts with the columns already serves as their index.
  if (columns.length && !same(def.primaryKey.slice(0, columns.length)) && !def.indexes.some(same)) def.indexes.push([...columns]);
}
