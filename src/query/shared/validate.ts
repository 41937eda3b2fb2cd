/**
 * Checks of a whole query model that SQLite would not make: with GROUP BY every result, ordering
 * and HAVING item is grouped or aggregated. Shared by both query languages.
 */
import { fail } from "./errors.ts";
import type { Pos, QExpr, QQuery } from "./model.ts";
import { childrenOf } from "./walk.ts";

export function containsAggregate(e: QExpr): boolean {
  if (e.kind === "aggregate") return true;
  if (e.kind === "subquery" || e.kind === "exists") return false;
  return childrenOf(e).some(containsAggregate);
}

/** With GROUP BY, every result, ordering and having item is grouped or aggregated (SQLite would not check). */
export function checkGrouping(q: QQuery, pos: Pos): void {
  if (!q.groupBy.length) {
    if (q.having) fail("HAVING needs GROUP BY", q.having.pos);
    const mixed = q.result && q.result.some((r) => containsAggregate(r.expr)) && q.result.some((r) => !containsAggregate(r.expr) && dependsOnRows(r.expr));
    if (mixed) fail("a result mixing aggregates and plain values needs GROUP BY for the plain values", pos);
    return;
  }
  const grouped = q.groupBy.map(fingerprint);
  const check = (e: QExpr, what: string) => {
    if (containsAggregate(e) && e.kind === "aggregate") return;
    if (grouped.includes(fingerprint(e)) || !dependsOnRows(e)) return;
    // Grouping by an object groups by its identity: its fields have one value per group.
    if (e.kind === "field" && e.from.type.kind === "entity" && grouped.includes(fingerprint(e.from))) return;
    if (e.kind === "aggregate") return;
    const kids = childrenOf(e);
    if (kids.length && e.kind !== "field" && e.kind !== "binding") return void kids.forEach((k) => check(k, what));
    fail(`${what} is neither grouped nor aggregated`, e.pos);
  };
  for (const r of q.result ?? []) check(r.expr, `result item "${r.alias}"`);
  if (!q.result) fail("a grouped query needs a result clause of grouping expressions and aggregates", pos);
  for (const o of q.orderBy) check(o.expr, "an ordering item");
  if (q.having) check(q.having, "a HAVING item");
}

function dependsOnRows(e: QExpr): boolean {
  if (e.kind === "binding" || e.kind === "field") return true;
  if (e.kind === "literal" || e.kind === "param" || e.kind === "subquery" || e.kind === "exists") return false;
  return childrenOf(e).some(dependsOnRows);
}

/** A structural key for an expression (positions left out), to compare grouping expressions. */
function fingerprint(e: QExpr): string {
  return JSON.stringify(e, (k, v) =>
    k === "pos" || k === "type" || k === "owner"
      ? undefined
      : k === "field"
        ? `${v.declaringClass}.${v.name}`
        : k === "binding"
          ? v.name
          : k === "query"
            ? "subquery"
            : typeof v === "bigint"
              ? `${v}n`
              : v,
  );
}

/** Where aggregates may stand: never in the filter, grouping or range; in ordering only for grouped or aggregate results. */
export function checkAggregatePlacement(q: QQuery): void {
  const misplaced = (e: QExpr | undefined, where: string) => {
    if (e && containsAggregate(e)) fail(`aggregates are not allowed in ${where}`, firstAggregate(e)!.pos);
  };
  misplaced(q.where, "the filter");
  q.groupBy.forEach((g) => misplaced(g, "GROUP BY"));
  misplaced(q.range?.from, "RANGE");
  misplaced(q.range?.to, "RANGE");
  const aggregateResult = !!q.result && q.result.some((r) => containsAggregate(r.expr));
  if (!q.groupBy.length && !aggregateResult) q.orderBy.forEach((o) => misplaced(o.expr, "the ordering of a query that neither groups nor aggregates"));
}

function firstAggregate(e: QExpr): QExpr | undefined {
  if (e.kind === "aggregate") return e;
  for (const c of childrenOf(e)) {
    const found = firstAggregate(c);
    if (found) return found;
  }
  return undefined;
}
