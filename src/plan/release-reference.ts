/**
 * Clearing a reference held in a row (a foreign key set to null) changes the object that holds
 * it, so a versioned object's version goes up with it (the contract: +1 on every change; and an
 * `If-Match` taken before the change must fail after it). Used when an object leaves a mapped-by
 * collection and when the object a reference points at is deleted.
 */
import type { Model } from "../metadata/model.ts";
import { type SQL, ident, join, sql, tuple } from "../store/sql.ts";

/**
 * Statements that set `fkColumns` of `table` to null in the rows `where` selects (a condition on
 * that table's columns), bumping the version of the versioned objects those rows belong to first.
 */
export function clearReference(model: Model, table: string, fkColumns: readonly string[], where: SQL): SQL[] {
  const out: SQL[] = [];
  let bumpHere: string | undefined;
  const bumped = new Set<string>();
  for (const c of model.classes.values()) {
    if (!c.version || !c.primaryTable || !c.tables.includes(table) || bumped.has(c.primaryTable)) continue;
    bumped.add(c.primaryTable);
    const version = ident(c.version.column);
    if (c.primaryTable === table) {
      bumpHere = c.version.column;
      continue;
    }
    // The version lives in the hierarchy's primary table, the reference in a subclass table.
    const key = tuple(c.keyColumns.map((k) => ident(k)));
    out.push(sql`UPDATE ${ident(c.primaryTable)} SET ${version} = COALESCE(${version}, 0) + 1 WHERE ${key} IN (SELECT ${join(c.keyColumns.map((k) => ident(k)))} FROM ${ident(table)} WHERE ${where})`);
  }
  const sets = fkColumns.map((col) => sql`${ident(col)} = NULL`);
  if (bumpHere) sets.push(sql`${ident(bumpHere)} = COALESCE(${ident(bumpHere)}, 0) + 1`);
  out.push(sql`UPDATE ${ident(table)} SET ${join(sets)} WHERE ${where}`);
  return out;
}
