/**
 * Reading polymorphic rows. The objects of a class and its subclasses live in one or more
 * "groups", one per primary table (several only with complete-table). A group is read with one
 * SELECT: the primary table LEFT JOINed to every new-table subclass table, the discriminator
 * telling each row's class. A `GroupLayout` knows that SELECT's columns and how to decode a row
 * into a `LoadedObject` of the right class.
 */
import { exactIntegerSql, isWideInteger } from "../json/sql-values.ts";
import { keyFieldColumns } from "../mapping/keys.ts";
import { valueArrayJson } from "../mapping/value-tables.ts";
import { type ClassMeta, type FieldMeta, type Model, type ValueType, classOf, subtree } from "../metadata/model.ts";
import { type SQL, distinctNames, ident, join, oneOf, qualified, sql, tableRef } from "../store/sql.ts";
import { type LoadedObject, newObject } from "./objects.ts";

interface ColumnRef {
  table: number;
  column: string;
  /** Holds a long or BigInteger (a field's, or a key's in a foreign key): read with `exactIntegerSql`. */
  wide?: boolean;
  /** A collection of values kept in its own table: read as its JSON array, by a subquery on the row's key. */
  values?: FieldMeta;
}

interface ClassDecoder {
  meta: ClassMeta;
  /** Per row field: the positions of its column(s) in the select list. */
  fields: { field: FieldMeta; positions: number[]; embedded?: string[] }[];
}

export interface GroupLayout {
  primaryTable: string;
  tables: readonly string[];
  keyColumns: readonly string[];
  /** Per key column: it holds a long or BigInteger (read with `exactIntegerSql`). */
  wideKeys: readonly boolean[];
  /** Classes whose rows this group holds (the subtree of the class asked for). */
  classes: readonly ClassMeta[];
  discriminatorColumn?: string;
  versionColumn?: string;
  /** Columns after key, discriminator and version, in select order. */
  columns: readonly ColumnRef[];
  decoders: ReadonlyMap<string, ClassDecoder>;
  /** Discriminator value → class. */
  byDiscriminator: ReadonlyMap<string, ClassMeta>;
  /** How many classes of the whole model store rows in the primary table (the group may hold fewer). */
  tableClassCount: number;
}

const layouts = new WeakMap<ClassMeta, GroupLayout[]>();

/** The groups holding the objects of `meta`'s extent (subclasses included). Cached per class. */
export function groupsOf(model: Model, meta: ClassMeta): GroupLayout[] {
  let out = layouts.get(meta);
  if (!out) layouts.set(meta, (out = buildGroups(model, meta)));
  return out;
}

function buildGroups(model: Model, meta: ClassMeta): GroupLayout[] {
  const byPrimary = new Map<string, ClassMeta[]>();
  for (const c of subtree(model, meta.name)) {
    if (!c.primaryTable) continue;
    byPrimary.set(c.primaryTable, [...(byPrimary.get(c.primaryTable) ?? []), c]);
  }
  return [...byPrimary].map(([primaryTable, classes]) =>
    buildGroup(model, primaryTable, classes, [...model.classes.values()].filter((c) => c.primaryTable === primaryTable).length),
  );
}

/** Per key column of a class: whether it holds a long or BigInteger. */
export function wideKeyColumns(meta: ClassMeta): boolean[] {
  return keyFieldColumns(meta).map((p) => isWideInteger(p.type));
}

/** A key's columns as the object path reads them (see `exactIntegerSql`). */
export function readKey(meta: ClassMeta, refs: readonly SQL[]): SQL[] {
  const wide = wideKeyColumns(meta);
  return refs.map((r, i) => (wide[i] ? exactIntegerSql(r) : r));
}

function buildGroup(model: Model, primaryTable: string, classes: ClassMeta[], tableClassCount: number): GroupLayout {
  const first = classes[0]!;
  const tables = [primaryTable];
  for (const c of classes) for (const t of c.tables) if (!tables.includes(t)) tables.push(t);
  const columns: ColumnRef[] = [];
  const fixed = first.keyColumns.length + (first.discriminator ? 1 : 0) + (first.version ? 1 : 0);
  const position = (table: string, column: string, wide: boolean): number => {
    const t = tables.indexOf(table);
    let i = columns.findIndex((c) => c.table === t && c.column.toLowerCase() === column.toLowerCase());
    if (i < 0) i = columns.push({ table: t, column }) - 1;
    if (wide) columns[i]!.wide = true;
    return fixed + i;
  };
  const decoders = new Map<string, ClassDecoder>();
  for (const c of classes) {
    const fields: ClassDecoder["fields"] = [];
    for (const [name, table] of c.fieldTables) {
      const field = c.fields.get(name)!;
      if (field.primaryKey) continue; // read from the key columns
      if (field.valueTable) {
        const name = `\u0000values ${field.declaringClass}.${field.name}`;
        let i = columns.findIndex((c) => c.column === name);
        if (i < 0) i = columns.push({ table: 0, column: name, values: field }) - 1;
        fields.push({ field, positions: [fixed + i] });
      } else if (field.column) fields.push({ field, positions: [position(table, field.column, isWideInteger(field.type as ValueType))] });
      else if (field.fkColumns) {
        const wide = wideKeyColumns(classOf(model, field.relation!.target));
        fields.push({ field, positions: field.fkColumns.map((col, i) => position(table, col, !!wide[i])) });
      } else if (field.embeddedColumns && field.type.kind === "embedded") {
        const entries = Object.entries(field.embeddedColumns);
        const embedded = classOf(model, field.type.class);
        const wide = (sub: string) => {
          const f = embedded.fields.get(sub);
          return !!f && isWideInteger(f.type as ValueType);
        };
        fields.push({ field, positions: entries.map(([sub, col]) => position(table, col, wide(sub))), embedded: entries.map(([sub]) => sub) });
      }
    }
    decoders.set(c.name, { meta: c, fields });
  }
  const byDiscriminator = new Map<string, ClassMeta>();
  if (first.discriminator) for (const c of classes) byDiscriminator.set(first.discriminator.values[c.name]!, c);
  return {
    primaryTable,
    tables,
    keyColumns: first.keyColumns,
    wideKeys: wideKeyColumns(first),
    classes,
    discriminatorColumn: first.discriminator?.column,
    versionColumn: first.version?.column,
    columns,
    decoders,
    byDiscriminator,
    tableClassCount,
  };
}

/** Table aliases of a group's SELECT: `t0` the primary table, `t1`... its joined tables (another prefix when nested). */
export const alias = (i: number, prefix = "t") => `${prefix}${i}`;

/** The key columns of the primary table, qualified with its alias. */
export function keyRefs(group: GroupLayout, prefix = "t"): SQL[] {
  return group.keyColumns.map((k) => qualified(alias(0, prefix), k));
}

/** `FROM primary t0 LEFT JOIN sub t1 ON t1.k = t0.k ...` */
export function fromClause(group: GroupLayout, full: boolean, prefix = "t"): SQL {
  return sql`${primaryOf(group, prefix)}${full ? subclassJoins(group, prefix) : sql``}`;
}

/** `primary t0`: the group's primary table. */
export function primaryOf(group: GroupLayout, prefix = "t"): SQL {
  return sql`${tableRef(group.primaryTable)} ${ident(alias(0, prefix))}`;
}

/** ` LEFT JOIN sub t1 ON t1.k = t0.k ...`: the group's other tables (those of `only`, by index, when given). */
export function subclassJoins(group: GroupLayout, prefix = "t", only?: ReadonlySet<number>): SQL {
  const joins = group.tables.slice(1).flatMap((t, i) => {
    if (only && !only.has(i + 1)) return [];
    const on = group.keyColumns.map((k) => sql`${qualified(alias(i + 1, prefix), k)} = ${qualified(alias(0, prefix), k)}`);
    return [sql` LEFT JOIN ${tableRef(t)} ${ident(alias(i + 1, prefix))} ON ${join(on, sql` AND `)}`];
  });
  return sql.join(joins);
}

/** The select list: key, discriminator, version, then (for full rows) every field column; named `c0`, `c1`... */
export function selectList(group: GroupLayout, full: boolean): SQL {
  return distinctNames(selectParts(group, full));
}

/** The columns of `selectList`, before they are named; longs and BigIntegers read exactly (`exactIntegerSql`). */
export function selectParts(group: GroupLayout, full: boolean): SQL[] {
  const parts = keyRefs(group).map((k, i) => (group.wideKeys[i] ? exactIntegerSql(k) : k));
  if (group.discriminatorColumn) parts.push(qualified(alias(0), group.discriminatorColumn));
  if (group.versionColumn) parts.push(qualified(alias(0), group.versionColumn));
  if (full)
    for (const c of group.columns) {
      if (c.values) parts.push(valueArrayJson(c.values, keyRefs(group)));
      else parts.push(c.wide ? exactIntegerSql(qualified(alias(c.table), c.column)) : qualified(alias(c.table), c.column));
    }
  return parts;
}

/** Restricts the group to the classes asked for, when its table also holds other classes. */
export function discriminatorFilter(group: GroupLayout, classes: readonly ClassMeta[], prefix = "t"): SQL | undefined {
  const wanted = group.classes.filter((c) => classes.includes(c));
  if (!wanted.length) return sql`0`;
  if (!group.discriminatorColumn) return undefined;
  const values = wanted.map((c) => c.discriminator!.values[c.name]!);
  if (values.length === group.tableClassCount) return undefined;
  return oneOf(
    qualified(alias(0, prefix), group.discriminatorColumn),
    values.map((v) => sql`${v}`),
  );
}

/** The keys of a class's extent (subclasses included), across its table groups. */
export function extentKeys(model: Model, meta: ClassMeta): SQL {
  const selects = groupsOf(model, meta).map((g) => {
    const filter = discriminatorFilter(g, subtree(model, meta.name));
    return sql`SELECT ${join(keyRefs(g))} FROM ${tableRef(g.primaryTable)} ${ident(alias(0))}${filter ? sql` WHERE ${filter}` : sql``}`;
  });
  return join(selects, sql` UNION ALL `);
}

/** Decodes one row of a group's SELECT into an object of its runtime class. */
export function decodeRow(group: GroupLayout, row: readonly unknown[], full: boolean): LoadedObject | undefined {
  const n = group.keyColumns.length;
  const key = row.slice(0, n);
  let i = n;
  let meta = group.classes[0]!;
  if (group.discriminatorColumn) {
    const found = group.byDiscriminator.get(String(row[i++]));
    if (!found) return undefined; // a row of a class outside the model: invisible
    meta = found;
  }
  const obj = newObject(meta, key, full, true);
  if (group.versionColumn) obj.version = Number(row[i++] ?? 0);
  if (!full) return obj;
  for (const { field, positions, embedded } of group.decoders.get(meta.name)!.fields) {
    if (field.fkColumns) {
      const fk = positions.map((p) => row[p]);
      obj.refs.set(field.name, fk.every((v) => v === null || v === undefined) ? null : fk);
    } else if (embedded) {
      const values = positions.map((p) => row[p]);
      obj.values.set(field.name, values.every((v) => v === null || v === undefined) ? null : Object.fromEntries(embedded.map((sub, j) => [sub, values[j]])));
    } else obj.values.set(field.name, row[positions[0]!]);
  }
  return obj;
}
