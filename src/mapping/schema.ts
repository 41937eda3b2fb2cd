/**
 * The relational schema a model needs: every table with its columns and key. Derived once from
 * the metadata model; the migrator creates what is missing, and the planners read column names
 * from the metadata directly.
 */
import { type ClassMeta, type Model, classOf } from "../metadata/model.ts";
import { type SqlType, fieldSqlType, valueSqlType } from "./column-types.ts";

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
}

/** The column types of a class hierarchy's key columns. */
export function keyColumnTypes(model: Model, meta: ClassMeta): SqlType[] {
  const id = meta.identity;
  if (id.kind === "datastore") return [id.generation.kind === "sequence" ? "INTEGER" : "TEXT"];
  return id.fields.map((f) => {
    const field = meta.fields.get(f)!;
    return field.type.kind === "collection" || field.type.kind === "map" ? "TEXT" : valueSqlType(field.type, field.enumOrdinal);
  });
}

export function schemaOf(model: Model): Map<string, TableDef> {
  const tables = new Map<string, TableDef>();
  const table = (name: string, keys: readonly string[], keyTypes: SqlType[]): TableDef => {
    let def = tables.get(name);
    if (!def) {
      def = { name, columns: new Map(), primaryKey: [...keys], indexes: [] };
      keys.forEach((k, i) => def!.columns.set(k, keyTypes[i]!));
      tables.set(name, def);
    }
    return def;
  };

  for (const meta of model.classes.values()) {
    if (meta.embeddedOnly) continue;
    const keyTypes = keyColumnTypes(model, meta);
    for (const t of meta.tables) table(t, meta.keyColumns, keyTypes);
    if (meta.primaryTable) {
      const primary = table(meta.primaryTable, meta.keyColumns, keyTypes);
      if (meta.discriminator) primary.columns.set(meta.discriminator.column, "TEXT");
      if (meta.version) primary.columns.set(meta.version.column, "INTEGER");
    }
    for (const [fieldName, tableName] of meta.fieldTables) {
      const field = meta.fields.get(fieldName)!;
      const def = table(tableName, meta.keyColumns, keyTypes);
      if (field.column && !def.columns.has(field.column)) def.columns.set(field.column, fieldSqlType(field));
      if (field.fkColumns) {
        const targetTypes = keyColumnTypes(model, classOf(model, field.relation!.target));
        field.fkColumns.forEach((c, i) => def.columns.has(c) || def.columns.set(c, targetTypes[i] ?? "TEXT"));
        addIndex(def, field.fkColumns);
      }
      if (field.embeddedColumns && field.type.kind === "embedded") {
        const embedded = classOf(model, field.type.class);
        for (const [sub, column] of Object.entries(field.embeddedColumns)) {
          const subField = embedded.fields.get(sub);
          if (subField && !def.columns.has(column)) def.columns.set(column, fieldSqlType(subField));
        }
      }
    }
    for (const field of meta.fields.values()) {
      const s = field.relation?.storage;
      if (s?.kind !== "join-table" || field.declaringClass !== meta.name) continue;
      const target = classOf(model, field.relation!.target);
      const targetTypes = keyColumnTypes(model, target);
      const def = table(s.table, [], []);
      s.ownerColumns.forEach((c, i) => def.columns.set(c, keyTypes[i]!));
      s.elementColumns.forEach((c, i) => def.columns.set(c, targetTypes[i]!));
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
