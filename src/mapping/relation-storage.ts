/**
 * Where a relation field's links are stored, described once for reads, writes, queries and
 * deletes. The metadata says which side owns a relation (src/metadata/relations.ts); a mapped-by
 * side only names its owning field. Here both sides get the columns and tables themselves, the
 * mapped-by side seen from its own end: a foreign key in the related objects' rows, or the owning
 * side's join table with its columns swapped.
 *
 * The owning side of a mapped-by field is whatever that field is stored as: a foreign key (a
 * to-one's column) or a join table (a collection's, or a to-one given `<join>`/`@JoinTable`).
 * The builder refuses the other cases (no such field, mapped-by on both sides), so every
 * relation field has a storage.
 */
import { type ClassMeta, type FieldMeta, type Model, classOf, subtree } from "../metadata/model.ts";

/** A join table as its owning field declares it: (owner key…, element key…[, position]) rows. */
export interface JoinTable {
  table: string;
  ownerColumns: readonly string[];
  elementColumns: readonly string[];
  /** A list's position column (the owning side's order). */
  orderColumn?: string;
}

export type RelationStorage =
  /** A foreign key in the field's own row: `columns`, in the order of the target's key columns. */
  | { kind: "owner-fk"; columns: readonly string[] }
  /**
   * A foreign key in the related objects' rows: their field `owning` (which this field is mapped by)
   * holds the owner's key in `columns`, in `tables` (those of the target's subtree holding it).
   */
  | { kind: "target-fk"; owning: FieldMeta; columns: readonly string[]; tables: readonly string[] }
  /**
   * Rows of a join table, seen from the field's side: `ownerColumns` name the field's object,
   * `elementColumns` the related objects, read in `order` (the position column of an owning list,
   * else the related key). `inverse`: the field is the mapped-by side of `owning` (itself when
   * not); `links` is the table as the owning side declares it (what a write inserts).
   */
  | {
      kind: "join-table";
      inverse: boolean;
      owning: FieldMeta;
      table: string;
      ownerColumns: readonly string[];
      elementColumns: readonly string[];
      order: readonly string[];
      links: JoinTable;
    };

export type JoinTableStorage = Extract<RelationStorage, { kind: "join-table" }>;

/** Per field: FieldMeta objects belong to one model and live as long as it. */
const described = new WeakMap<FieldMeta, RelationStorage>();

/** How the relation field `field` is stored (worked out on first use, then kept with the field). */
export function relationStorage(model: Model, field: FieldMeta): RelationStorage {
  let storage = described.get(field);
  if (!storage) described.set(field, (storage = describe(model, field)));
  return storage;
}

/** The foreign-key columns of an owned to-one reference (one the field's own row holds). */
export function ownerFkColumns(model: Model, field: FieldMeta): readonly string[] {
  const s = relationStorage(model, field);
  if (s.kind !== "owner-fk") throw new Error(`internal: ${field.declaringClass}.${field.name} holds no foreign key`);
  return s.columns;
}

function describe(model: Model, field: FieldMeta): RelationStorage {
  const rel = field.relation;
  if (!rel) throw new Error(`internal: ${field.declaringClass}.${field.name} is not a relation`);
  const s = rel.storage;
  switch (s.kind) {
    case "fk-owner":
      return { kind: "owner-fk", columns: field.fkColumns! };
    case "join-table":
      return joinTable(s, field, false);
    case "fk-inverse":
    case "join-inverse": {
      const target = classOf(model, rel.target);
      const owning = target.fields.get(s.targetField) ?? findInSubtree(model, target, s.targetField);
      const o = owning?.relation?.storage;
      if (o?.kind === "fk-owner")
        return { kind: "target-fk", owning: owning!, columns: owning!.fkColumns!, tables: tablesHolding(model, target, owning!.name) };
      // The owning side keeps a join table (a collection's, or a to-one's given a join table).
      if (o?.kind === "join-table") return joinTable(o, owning!, true);
      throw new Error(`internal: ${field.declaringClass}.${field.name} is mapped by ${rel.target}.${s.targetField}, which owns no storage`);
    }
  }
}

function joinTable(links: JoinTable, owning: FieldMeta, inverse: boolean): JoinTableStorage {
  if (inverse) {
    return {
      kind: "join-table",
      inverse,
      owning,
      table: links.table,
      ownerColumns: links.elementColumns,
      elementColumns: links.ownerColumns,
      order: links.ownerColumns,
      links,
    };
  }
  const order = links.orderColumn ? [links.orderColumn] : links.elementColumns;
  return { kind: "join-table", inverse, owning, table: links.table, ownerColumns: links.ownerColumns, elementColumns: links.elementColumns, order, links };
}

/** The first class of `meta`'s subtree that has a field `name`. */
export function findInSubtree(model: Model, meta: ClassMeta, name: string): FieldMeta | undefined {
  for (const c of subtree(model, meta.name)) {
    const f = c.fields.get(name);
    if (f) return f;
  }
  return undefined;
}

/** Tables holding a field among the classes of a subtree (one, except in unusual hierarchies). */
export function tablesHolding(model: Model, meta: ClassMeta, name: string): string[] {
  const tables = new Set<string>();
  for (const c of subtree(model, meta.name)) {
    const t = c.fieldTables.get(name);
    if (t && c.fields.get(name)) tables.add(t);
  }
  return [...tables];
}
