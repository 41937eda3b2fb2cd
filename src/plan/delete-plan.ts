/**
 * Delete plans: one object, or a whole extent (subclasses included), in one atomic batch.
 * References to the deleted objects are released (foreign keys set to null, join-table rows
 * removed) so no object is left pointing at nothing; then the rows go, subclass tables first.
 * Compiled once per class and cached.
 */
import { type ClassMeta, type Model, isAncestor, subtree } from "../metadata/model.ts";
import { guardInsert } from "../store/migrate.ts";
import { type Compiled, type SQL, bind, compile, ident, join, sql, tuple } from "../store/sql.ts";
import type { Statement } from "../store/store.ts";
import { DELETE_PLAN_LIMIT, perModelCache } from "./plan-cache.ts";
import { clearReference } from "./release-reference.ts";
import { alias, discriminatorFilter, extentKeys, groupsOf, keyRefs } from "./row-layout.ts";

/** Two per class at most (one object, the extent): bounded by the model, the limit is a backstop. */
const plans = perModelCache<Compiled[]>("deletePlans", DELETE_PLAN_LIMIT);

/** Statements deleting one object; a guard aborts the batch when it does not exist as this class. */
export function deleteOneStatements(model: Model, meta: ClassMeta, key: readonly unknown[]): Statement[] {
  const compiled = plans(model).get(`one|${meta.name}`, () => {
    const keys = sql`SELECT ${join(meta.keyColumns.map((_, i) => sql`${sql.placeholder(`k${i}`)}`))}`;
    return [guardMissing(model, meta, keys), ...deleteStatements(model, meta, keys)].map((q) => compile(q));
  });
  const values = Object.fromEntries(key.map((v, i) => [`k${i}`, v]));
  return compiled.map((c) => bind(c, values));
}

export function deleteExtentStatements(model: Model, meta: ClassMeta): Statement[] {
  const compiled = plans(model).get(`extent|${meta.name}`, () => deleteStatements(model, meta, extentKeys(model, meta)).map((q) => compile(q)));
  return compiled.map((c) => bind(c));
}

function guardMissing(model: Model, meta: ClassMeta, keys: SQL): SQL {
  const exists = groupsOf(model, meta).map((g) => {
    const filter = discriminatorFilter(g, subtree(model, meta.name));
    return sql`SELECT 1 FROM ${ident(g.primaryTable)} ${ident(alias(0))} WHERE ${tuple(keyRefs(g))} IN (${keys})${filter ? sql` AND ${filter}` : sql``}`;
  });
  return guardInsert("missing", sql`NOT EXISTS (${join(exists, sql` UNION ALL `)})`);
}

function deleteStatements(model: Model, meta: ClassMeta, keys: SQL): SQL[] {
  const out: SQL[] = [];
  const inHierarchy = (target: string) => isAncestor(model, target, meta.name) || isAncestor(model, meta.name, target);
  const keyIn = (columns: readonly string[]) => sql`${tuple(columns.map((c) => ident(c)))} IN (${keys})`;
  const released = new Set<string>();
  for (const c of model.classes.values()) {
    for (const field of c.fields.values()) {
      const rel = field.relation;
      if (!rel || field.declaringClass !== c.name) continue;
      const s = rel.storage;
      // Join-table rows owned by a deleted object, or naming one as their element.
      if (s.kind === "join-table") {
        if (isAncestor(model, c.name, meta.name) || isAncestor(model, meta.name, c.name)) out.push(sql`DELETE FROM ${ident(s.table)} WHERE ${keyIn(s.ownerColumns)}`);
        if (inHierarchy(rel.target)) out.push(sql`DELETE FROM ${ident(s.table)} WHERE ${keyIn(s.elementColumns)}`);
      }
    }
  }
  for (const c of model.classes.values()) {
    for (const [name, table] of c.fieldTables) {
      const field = c.fields.get(name)!;
      if (!field.fkColumns || !inHierarchy(field.relation!.target)) continue;
      const id = `${table}.${field.fkColumns.join(",")}`;
      if (released.has(id)) continue;
      released.add(id);
      out.push(...clearReference(model, table, field.fkColumns, keyIn(field.fkColumns)));
    }
  }
  // Subclass tables before the primary tables their key subquery reads.
  const tables: string[] = [];
  const primaries: string[] = [];
  for (const c of subtree(model, meta.name)) {
    for (const t of c.tables) {
      if (t === c.primaryTable) primaries.includes(t) || primaries.push(t);
      else tables.includes(t) || tables.push(t);
    }
  }
  for (const t of tables.filter((t) => !primaries.includes(t))) out.push(sql`DELETE FROM ${ident(t)} WHERE ${keyIn(meta.keyColumns)}`);
  for (const t of primaries) out.push(sql`DELETE FROM ${ident(t)} WHERE ${keyIn(meta.keyColumns)}`);
  return out;
}
