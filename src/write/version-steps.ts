/**
 * Version steps. A versioned object takes one step (+1) in every batch that changes it (the
 * contract: 1 on insert, +1 on every change; and an `If-Match` or `If-None-Match` taken before
 * the change must fail after it), whether the request wrote it or changed it through the other
 * side of a relation: it joined or left a mapped-by collection (its reference was set or
 * cleared), a join table gained or lost a row naming it, a reference it held was cleared because
 * the referenced object was deleted or taken by another, or an object its mapped-by field shows
 * was deleted.
 *
 * The changed objects are gathered as conditions on their keys and stepped by one UPDATE per
 * versioned table, run before the batch changes anything (the conditions read the rows as they
 * were, and objects the batch creates do not exist yet, so they stay at 1). An object that
 * several conditions select steps once, and the number of statements does not grow with the
 * number of objects.
 */
import { relationStorage } from "../mapping/relation-storage.ts";
import { type ClassMeta, type FieldMeta, type Model, classOf, isAncestor, subtree } from "../metadata/model.ts";
import { type SQL, ident, join, qualified, sql, tuple } from "../store/sql.ts";

/** The placeholder of a condition's `i`th value. */
export type At = (i: number) => SQL;

/** A piece of SQL over values given later: its shape (what its text depends on) and values. */
export interface Shaped<V> {
  shape: string;
  values: readonly V[];
  sql: (at: At) => SQL;
}

interface Table<V> {
  table: string;
  column: string;
  conditions: Shaped<V>[];
}

/** Shifts a condition's placeholders past the `offset` values before it. */
const shifted =
  (at: At, offset: number): At =>
  (i) =>
    at(offset + i);

export class VersionSteps<V> {
  private readonly tables = new Map<string, Table<V>>();

  constructor(private readonly model: Model) {}

  /**
   * The versioned objects of `meta` and its subclasses that `where` selects, a condition on their
   * key (given as the tuple of the key columns).
   */
  keysWhere(meta: ClassMeta, shape: string, values: readonly V[], where: (key: SQL, at: At) => SQL): void {
    const seen = new Set<string>();
    for (const c of subtree(this.model, meta.name)) {
      if (!c.version || !c.primaryTable || seen.has(`${c.primaryTable}|${c.version.column}`)) continue;
      seen.add(`${c.primaryTable}|${c.version.column}`);
      const key = tuple(c.keyColumns.map((k) => ident(k)));
      this.add(c.primaryTable, c.version.column, { shape, values, sql: (at) => where(key, at) });
    }
  }

  /** The versioned objects of `meta` and its subclasses whose keys `keys` selects (a SELECT of key tuples). */
  keysIn(meta: ClassMeta, shape: string, values: readonly V[], keys: (at: At) => SQL): void {
    this.keysWhere(meta, shape, values, (key, at) => sql`${key} IN (${keys(at)})`);
  }

  /**
   * The versioned objects of `stepped` whose links in `table` to the objects of the other side
   * change: a link is a row whose `sideColumns` name an object of the side being written and
   * whose `otherColumns` name one of `stepped` (a join-table row, or a foreign key held in a row,
   * read in either direction). `values` are three JSON arrays of key arrays: `sides`, the written
   * side's objects whose links are rewritten; `links`, the rewritten links (side key then other
   * key); `fresh`, the other keys linked to new objects. Stepped: the objects of links the rewrite
   * drops, of links it adds, and the fresh ones. Three values whatever the number of objects.
   */
  relinked(stepped: ClassMeta, table: string, sideColumns: readonly string[], otherColumns: readonly string[], values: readonly [V, V, V]): void {
    const shape = `relinked|${table}|${sideColumns.join(",")}|${otherColumns.join(",")}`;
    const t = (c: string) => qualified("x_t", c);
    const l = (i: number) => sql.raw(`json_extract("x_l".value, '$[${i}]')`);
    const side = tuple(sideColumns.map(t));
    const other = otherColumns.map(t);
    const linkSide = sideColumns.map((_, i) => l(i));
    const linkOther = otherColumns.map((_, i) => l(sideColumns.length + i));
    this.keysWhere(stepped, shape, values, (key, at) => {
      const dropped = sql`SELECT ${join(other)} FROM ${ident(table)} ${ident("x_t")} WHERE ${side} IN (${jsonKeys(sideColumns.length, at(0))}) AND (${join([...sideColumns.map(t), ...other])}) NOT IN (${jsonKeys(sideColumns.length + otherColumns.length, at(1))})`;
      const kept = sql`SELECT 1 FROM ${ident(table)} ${ident("x_t")} WHERE ${side} = ${tuple(linkSide)} AND ${tuple(other)} = ${tuple(linkOther)}`;
      const added = sql`SELECT ${join(linkOther)} FROM json_each(${at(1)}) ${ident("x_l")} WHERE NOT EXISTS (${kept})`;
      return sql`(${key} IN (${dropped})) OR (${key} IN (${added})) OR (${key} IN (${jsonKeys(otherColumns.length, at(2))}))`;
    });
  }

  /** The versioned objects whose rows of `table` `where` selects (a condition on that table's columns). */
  rowsOf(table: string, shape: string, values: readonly V[], where: (at: At) => SQL): void {
    const seen = new Set<string>();
    for (const c of this.model.classes.values()) {
      if (!c.version || !c.primaryTable || !c.tables.includes(table) || seen.has(`${c.primaryTable}|${c.version.column}`)) continue;
      seen.add(`${c.primaryTable}|${c.version.column}`);
      // The version lives in the hierarchy's primary table, the row may be in a subclass table.
      const keys = join(c.keyColumns.map((k) => ident(k)));
      const condition =
        c.primaryTable === table
          ? where
          : (at: At) => sql`${tuple(c.keyColumns.map((k) => ident(k)))} IN (SELECT ${keys} FROM ${ident(table)} WHERE ${where(at)})`;
      this.add(c.primaryTable, c.version.column, { shape: `rows|${table}|${shape}`, values, sql: condition });
    }
  }

  private add(table: string, column: string, condition: Shaped<V>): void {
    const id = `${table}|${column}`;
    let t = this.tables.get(id);
    if (!t) this.tables.set(id, (t = { table, column, conditions: [] }));
    t.conditions.push(condition);
  }

  /** One UPDATE per versioned table, stepping every object one of its conditions selects. */
  statements(): Shaped<V>[] {
    return [...this.tables.values()].map((t) => {
      const values = t.conditions.flatMap((c) => c.values);
      return {
        shape: `step|${t.table}|${t.column}|${t.conditions.map((c) => `${c.shape}:${c.values.length}`).join("|")}`,
        values,
        sql: (at: At) => {
          let offset = 0;
          const where = t.conditions.map((c) => {
            const part = c.sql(shifted(at, offset));
            offset += c.values.length;
            return sql`(${part})`;
          });
          const v = ident(t.column);
          return sql`UPDATE ${ident(t.table)} SET ${v} = COALESCE(${v}, 0) + 1 WHERE ${join(where, sql` OR `)}`;
        },
      };
    });
  }
}

/** The keys of a JSON array of key arrays (one value, however many keys). */
export function jsonKeys(width: number, from: SQL): SQL {
  return sql`SELECT ${join(Array.from({ length: width }, (_, i) => sql.raw(`json_extract(value, '$[${i}]')`)))} FROM json_each(${from})`;
}

/**
 * Clearing a reference held in rows of `table` (its foreign key set to null in the rows `where`
 * selects) changes the objects that hold it: they step. Answers the clearing UPDATE.
 */
export function clearReference<V>(
  steps: VersionSteps<V>,
  table: string,
  fkColumns: readonly string[],
  shape: string,
  values: readonly V[],
  where: (at: At) => SQL,
): (at: At) => SQL {
  steps.rowsOf(table, shape, values, where);
  return (at) => sql`UPDATE ${ident(table)} SET ${join(fkColumns.map((c) => sql`${ident(c)} = NULL`))} WHERE ${where(at)}`;
}

const mirrors = new WeakMap<FieldMeta, boolean>();

/**
 * Whether the objects a relation field `field` (of the owning side: a foreign key or a join
 * table) refers to show it from the other side, in a mapped-by field: then a change of what
 * `field` holds changes them too. Worked out once per field.
 */
export function mirrored(model: Model, field: FieldMeta): boolean {
  let known = mirrors.get(field);
  if (known === undefined) {
    const owner = field.declaringClass;
    known = subtree(model, classOf(model, field.relation!.target).name).some((c) =>
      [...c.fields.values()].some((f) => {
        if (!f.relation) return false;
        const s = relationStorage(model, f);
        const mappedBy = s.kind === "target-fk" || (s.kind === "join-table" && s.inverse);
        return mappedBy && s.owning.name === field.name && (isAncestor(model, f.relation.target, owner) || isAncestor(model, owner, f.relation.target));
      }),
    );
    mirrors.set(field, known);
  }
  return known;
}
