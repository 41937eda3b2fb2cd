/**
 * Navigations in an ordering as LEFT JOINs. `ORDER BY author.name` compiles, as every navigation
 * read as a value, to a keyed scalar subquery, which SQLite evaluates for every candidate row, and
 * again for each place the ordering is written (the ORDER BY and the row number over it). Joined
 * instead, the author is found once per row by its primary key: `LEFT JOIN AUTHOR n ON n.id =
 * b.author … ORDER BY n.name`. The same order: the target's key is unique, so no row repeats, and
 * a LEFT JOIN keeps a row whose reference is null or dangling with the joined columns null, as
 * the subquery gives null. Only the ordering's own navigation nodes read the joined row, and only
 * for their fields: the reference itself (an ordering by `author`) stays its foreign key.
 */
import { type GroupLayout, groupsOf, primaryOf } from "../../read/row-layout.ts";
import { relationStorage } from "../../mapping/relation-storage.ts";
import { type SQL, join, sql } from "../../store/sql.ts";
import type { QExpr, QQuery } from "../shared/model.ts";
import { forEachChild } from "../shared/walk.ts";
import type { GenContext } from "./context.ts";
import { type EntityRef, columnOf, keyOf, rowInFrom } from "./entities.ts";
import { joinable, readsField } from "./semijoin.ts";

/**
 * A scope for compiling `q`'s ordering in which its navigations from the candidate's row read
 * LEFT JOINed rows, the joins appended to `from[0]` (the candidate's FROM item: an ON clause sees
 * only what is left of it, so navigations from other variables stay subqueries).
 */
export function orderingScope(q: QQuery, ctx: GenContext, from: SQL[], candidate: EntityRef): GenContext {
  const scope = ctx.child();
  const joins: SQL[] = [];
  /** The row `e` is in `scope`: a row of the FROM clause, or a navigation joined here. */
  const rowOf = (e: QExpr): EntityRef | undefined => {
    const joined = scope.overridden(e);
    if (joined) return joined;
    if (e.kind === "binding") {
      const bound = scope.lookup(e.binding);
      const ref = bound?.kind === "entity" ? bound.ref : undefined;
      return ref === candidate && ref.kind === "row" && !ref.guard ? ref : undefined;
    }
    if (!joinable(e, scope)) return undefined;
    const owner = rowOf(e.from);
    if (!owner) return undefined;
    const s = relationStorage(ctx.model, e.field);
    if (s.kind !== "owner-fk") return undefined;
    const meta = (e.type as { meta: EntityRef["meta"] }).meta;
    const group: GroupLayout = groupsOf(ctx.model, meta)[0]!;
    const prefix = scope.prefix();
    const { ref: row, joins: tables } = rowInFrom(meta, group, prefix);
    const fk = s.columns.map((c) => columnOf(ctx.model, owner, e.field, c));
    const on = join(
      keyOf(row).map((k, i) => sql`${k} = ${fk[i]}`),
      sql` AND `,
    );
    joins.push(sql` LEFT JOIN ${primaryOf(group, prefix)} ON ${on}${tables}`);
    scope.override(e, row);
    return row;
  };
  const visit = (e: QExpr): void => {
    if (e.kind === "field" && readsField(e, scope)) rowOf(e.from);
    forEachChild(e, visit);
  };
  for (const o of q.orderBy) visit(o.expr);
  if (joins.length) from[0] = sql`${from[0]}${sql.join(joins)}`;
  return scope;
}
