/**
 * The guards of a write batch: statements that abort it (an insert of NULL into a NOT NULL column
 * of Extent's guard table, src/mapping/migrate.ts) when a precondition fails inside it: an object
 * found before the batch still exists as its class, a version still matches, the access rules
 * still let the principal write what it writes. The column a guard fills names what failed, which
 * the service turns into its answer (404, 409, 412, 403).
 */
import { type ClassMeta, type FieldMeta, type Model, classOf } from "../metadata/model.ts";
import { guardInsert } from "../mapping/migrate.ts";
import { relationStorage } from "../mapping/relation-storage.ts";
import { type SQL, ident, join, onStoredTables, qualified, sql, tableRef, tuple } from "../store/sql.ts";
import type { Statement } from "../store/store.ts";
import { keyEquals, range, shaped, value } from "./shaped.ts";
import type { Slot, WriteNode } from "./write-node.ts";
import { holdingTables } from "./write-steps.ts";

/** Aborts the batch unless a row of exactly this class has the key (the discriminator says so, where there is one). */
export function guardExists(meta: ClassMeta, key: readonly Slot[], guard: "missing" | "changed"): Statement {
  const disc = meta.discriminator?.values[meta.name];
  const slots = disc === undefined ? key : [...key, value(disc)];
  return shaped(`guard|${meta.name}|${guard}`, slots, (slot) => {
    const ofClass = disc === undefined ? sql`` : sql` AND ${ident(meta.discriminator!.column)} = ${slot(key.length)}`;
    return guardInsert(
      guard,
      sql`NOT EXISTS (SELECT 1 FROM ${ident(meta.primaryTable!)} WHERE ${keyEquals(meta.keyColumns, range(slot, 0, key.length))}${ofClass})`,
    );
  });
}

/** `SELECT <key>`: a written object's key as the batch gave it, read with no table (for an answer that cannot read the object back). */
export function keyOfWrite(w: WriteNode): Statement {
  return shaped("key", w.key, (slot) => sql`SELECT ${join(range(slot, 0, w.key.length))}`);
}

/**
 * Aborts the batch (guard `forbidden`) unless the object of exactly `meta` keyed `key` passes
 * `test`: the access rules' filter of an operation (src/access/), over its primary table's row
 * aliased as given. Where it stands in the batch decides the state judged: before the writes the
 * state found, after them the state left. `shape` names the test (operation and roles) for the
 * statement cache; `values` bind the claims it names. Its tables are the stored ones: a rule
 * judges an object as stored, whatever the principal may read.
 */
export function guardPasses(meta: ClassMeta, key: readonly Slot[], shape: string, test: (alias: string) => SQL, values: Record<string, unknown>): Statement {
  return shaped(
    `passes|${meta.name}|${shape}`,
    key,
    (slot) =>
      onStoredTables(() => {
        const on = tuple(meta.keyColumns.map((c) => qualified(ROW, c)));
        return guardInsert(
          "forbidden",
          sql`NOT EXISTS (SELECT 1 FROM ${tableRef(meta.primaryTable!)} ${ident(ROW)} WHERE ${on} = ${tuple(range(slot, 0, key.length))} AND ${test(ROW)})`,
        );
      }),
    values,
  );
}
const ROW = "_w";

/**
 * Aborts the batch (guard `forbidden`) when the collection `field` of the object `w` updates holds
 * objects the request cannot see. Under access rules a statement's unqualified table is the
 * principal's view of it (src/access/visibility.ts) while `main."T"` is every row: a link whose
 * element is missing from the view is one to a hidden object. Replacing the collection would change
 * that object (its membership, its inverse reference), which its writer may not see: refused.
 */
export function guardNoHiddenElements(model: Model, w: WriteNode, field: FieldMeta): Statement[] {
  const s = relationStorage(model, field);
  const target = classOf(model, field.relation!.target);
  if (!target.primaryTable) return [];
  const stored = (table: string) => sql`${sql.identifier("main")}.${ident(table)}`;
  const visible = (columns: readonly string[], at: string) =>
    sql`EXISTS (SELECT 1 FROM ${ident(target.primaryTable!)} ${ident("_t")} WHERE ${tuple(target.keyColumns.map((k) => qualified("_t", k)))} = ${tuple(columns.map((c) => qualified(at, c)))})`;
  const links: { table: string; owner: readonly string[]; element: readonly string[] }[] =
    s.kind === "join-table"
      ? [{ table: s.table, owner: s.ownerColumns, element: s.elementColumns }]
      : s.kind === "target-fk"
        ? holdingTables(model, s.owning).map((table) => ({ table, owner: s.columns, element: target.keyColumns }))
        : [];
  return links.map((l) =>
    shaped(`hidden-elements|${l.table}|${l.owner.join(",")}|${target.name}`, w.key, (slot) =>
      guardInsert(
        "forbidden",
        sql`EXISTS (SELECT 1 FROM ${stored(l.table)} ${ident("_l")} WHERE ${tuple(l.owner.map((c) => qualified("_l", c)))} = ${tuple(range(slot, 0, w.key.length))} AND NOT ${visible(l.element, "_l")})`,
      ),
    ),
  );
}

/**
 * The version condition of a conditional request (`If-Match`, `If-None-Match`) on one object:
 * `versions` are the tags' numbers, `"*"` any version.
 */
export interface VersionCondition {
  /** `match`: the batch goes on only if the version is one of `versions`; `none`: only if it is not. */
  want: "match" | "none";
  versions: readonly number[] | "*";
}

/** Aborts the batch (guard `stale`) unless the object's version meets the condition; the list is one JSON parameter. */
export function guardVersion(meta: ClassMeta, key: readonly Slot[], condition: VersionCondition): Statement {
  const any = condition.versions === "*";
  const slots = any ? key : [...key, value(JSON.stringify(condition.versions))];
  return shaped(`stale|${meta.name}|${condition.want}|${any ? "*" : "list"}`, slots, (slot) => {
    const inList = any ? sql`` : sql` AND COALESCE(${ident(meta.version!.column)}, 0) IN (SELECT value FROM json_each(${slot(key.length)}))`;
    const has = sql`EXISTS (SELECT 1 FROM ${ident(meta.primaryTable!)} WHERE ${keyEquals(meta.keyColumns, range(slot, 0, key.length))}${inList})`;
    return guardInsert("stale", condition.want === "match" ? sql`NOT ${has}` : has);
  });
}
