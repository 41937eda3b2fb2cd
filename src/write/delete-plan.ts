/**
 * Delete plans: one object, or a whole extent (subclasses included), in one atomic batch.
 * References to the deleted objects are released (foreign keys set to null, join-table rows
 * removed) so no object is left pointing at nothing; then the rows go, subclass tables first.
 * First, every versioned object the deletion changes through a relation takes a version step.
 * Compiled once per class and cached.
 */
import { type ClassMeta, type Model, classOf, isAncestor, subtree } from "../metadata/model.ts";
import { guardInsert } from "../mapping/migrate.ts";
import { relationStorage } from "../mapping/relation-storage.ts";
import { type Compiled, type SQL, bind, compile, ident, join, onStoredTables, sql, tableRef, tuple } from "../store/sql.ts";
import type { Statement } from "../store/store.ts";
import { DELETE_PLAN_LIMIT, perModelCache } from "../cache/bounded-cache.ts";
import { type At, VersionSteps, clearReference, mirrored } from "./version-steps.ts";
import { alias, discriminatorFilter, extentKeys, groupsOf, keyRefs } from "../read/row-layout.ts";

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

/**
 * Statements deleting `meta`'s extent, or, given `only` (the access rules' deletion, src/access/),
 * the objects whose primary row it keeps: the keys read from the stored tables, the test's claims
 * bound from `only.values`.
 */
export function deleteExtentStatements(model: Model, meta: ClassMeta, only?: ExtentRestriction): Statement[] {
  const compiled = plans(model).get(`extent|${meta.name}${only ? `|${only.shape}` : ""}`, () =>
    deleteStatements(model, meta, only ? onStoredTables(() => keptKeys(model, meta, only.keep)) : extentKeys(model, meta)).map((q) => compile(q)),
  );
  return compiled.map((c) => bind(c, only?.values));
}

export interface ExtentRestriction {
  /** Names `keep` for the plan cache (the operation and the principal's roles). */
  shape: string;
  keep: (alias: string) => SQL;
  values: Record<string, unknown>;
}

/** The keys of `meta`'s extent whose primary row `keep` keeps. */
function keptKeys(model: Model, meta: ClassMeta, keep: (alias: string) => SQL): SQL {
  const selects = groupsOf(model, meta).map((g) => {
    const filter = discriminatorFilter(g, subtree(model, meta.name));
    return sql`SELECT ${join(keyRefs(g))} FROM ${tableRef(g.primaryTable)} ${ident(alias(0))} WHERE ${keep(alias(0))}${filter ? sql` AND ${filter}` : sql``}`;
  });
  return join(selects, sql` UNION ALL `);
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
  // Objects the deletion changes through their relations take a version step (src/write/version-steps.ts).
  const steps = new VersionSteps<never>(model);
  const closed = (q: SQL) => () => q;
  const inHierarchy = (target: string) => isAncestor(model, target, meta.name) || isAncestor(model, meta.name, target);
  const keyIn = (columns: readonly string[]) => sql`${tuple(columns.map((c) => ident(c)))} IN (${keys})`;
  const cols = (columns: readonly string[]) => join(columns.map((c) => ident(c)));
  const released = new Set<string>();
  for (const c of model.classes.values()) {
    for (const field of c.fields.values()) {
      const rel = field.relation;
      if (!rel || field.declaringClass !== c.name) continue;
      const s = relationStorage(model, field);
      // Join-table rows owned by a deleted object (its elements' mapped-by fields lose it), or
      // naming one as their element (their owners' collections lose it).
      if (s.kind === "join-table" && !s.inverse) {
        if (isAncestor(model, c.name, meta.name) || isAncestor(model, meta.name, c.name)) {
          if (mirrored(model, field))
            steps.keysIn(
              classOf(model, rel.target),
              "",
              [],
              closed(sql`SELECT ${cols(s.elementColumns)} FROM ${ident(s.table)} WHERE ${keyIn(s.ownerColumns)}`),
            );
          out.push(sql`DELETE FROM ${ident(s.table)} WHERE ${keyIn(s.ownerColumns)}`);
        }
        if (inHierarchy(rel.target)) {
          steps.keysIn(c, "", [], closed(sql`SELECT ${cols(s.ownerColumns)} FROM ${ident(s.table)} WHERE ${keyIn(s.elementColumns)}`));
          out.push(sql`DELETE FROM ${ident(s.table)} WHERE ${keyIn(s.elementColumns)}`);
        }
      }
    }
  }
  for (const c of model.classes.values()) {
    for (const [name, table] of c.fieldTables) {
      const field = c.fields.get(name)!;
      const s = field.relation && relationStorage(model, field);
      if (s?.kind !== "owner-fk") continue;
      const fk = s.columns;
      const id = `${table}.${fk.join(",")}`;
      // References held by a deleted object: the objects they name lose it from their mapped-by field.
      if (subtree(model, meta.name).includes(c) && mirrored(model, field) && !released.has(`held ${id}`)) {
        released.add(`held ${id}`);
        steps.keysIn(classOf(model, field.relation!.target), "", [], closed(sql`SELECT ${cols(fk)} FROM ${ident(table)} WHERE ${keyIn(meta.keyColumns)}`));
      }
      // References to a deleted object are cleared: the objects holding them change.
      if (!inHierarchy(field.relation!.target) || released.has(id)) continue;
      released.add(id);
      out.push(clearReference(steps, table, fk, "", [], closed(keyIn(fk)))(noValues));
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
  // The steps read the rows as they were: before anything is deleted or cleared.
  return [...steps.statements().map((s) => s.sql(noValues)), ...out];
}

/** A delete plan's statements are whole when compiled: the key is the only placeholder. */
const noValues: At = () => {
  throw new Error("internal: a delete plan has no values of its own");
};
