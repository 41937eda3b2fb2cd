/** Walking query-model expressions: the same-query children of a node, and everything a node reaches. */
import type { QExpr, QQuery } from "./model.ts";

/** Children within the same query (a subquery is a leaf here). */
export function childrenOf(e: QExpr): QExpr[] {
  switch (e.kind) {
    case "field":
      return [e.from];
    case "compare":
    case "arith":
      return [e.left, e.right];
    case "and":
    case "or":
    case "concat":
    case "list":
      return e.items;
    case "fn":
      return e.args;
    case "not":
    case "isNull":
    case "negate":
    case "bitnot":
    case "cast":
    case "instanceOf":
    case "objectId":
    case "version":
    case "classOf":
    case "entryKey":
    case "listIndex":
      return [e.operand];
    case "contains":
      return [e.collection, e.element];
    case "isEmpty":
    case "size":
      return [e.collection];
    case "mapGet":
    case "containsKey":
      return [e.map, e.key];
    case "listGet":
      return [e.list, e.index];
    case "containsValue":
      return [e.map, e.value];
    case "aggregate":
      return [e.arg];
    case "case":
      return [...e.whens.flatMap((w) => [w.when, w.then]), e.otherwise];
    default:
      return [];
  }
}

/** Every expression a node reaches, the inside of its subqueries included (where outer bindings are used). */
export function forEachChild(e: QExpr, visit: (x: QExpr) => void): void {
  if (e.kind === "subquery" || e.kind === "exists") return queryExpressions(e.query).forEach(visit);
  childrenOf(e).forEach(visit);
}

function queryExpressions(q: QQuery): QExpr[] {
  return [
    q.where,
    q.having,
    q.candidate.source,
    ...(q.result ?? []).map((r) => r.expr),
    ...q.groupBy,
    ...q.orderBy.map((o) => o.expr),
    q.range?.from,
    q.range?.to,
  ].filter((x): x is QExpr => !!x);
}

export type FieldNode = Extract<QExpr, { kind: "field" }>;

/**
 * Every navigation to a field anywhere in a query: its expressions, its variables' ranges and ON
 * conditions, and its subqueries', to any depth (the access rules refuse a query naming a field
 * the principal may not read, wherever it names it).
 */
export function fieldsNavigated(query: QQuery): FieldNode[] {
  const found: FieldNode[] = [];
  const queries = [query];
  const seen = new Set<QQuery>();
  while (queries.length) {
    const q = queries.pop()!;
    if (seen.has(q)) continue;
    seen.add(q);
    const stack = [...queryExpressions(q), ...q.variables.flatMap((v) => [v.source, v.on]).filter((x): x is QExpr => !!x)];
    while (stack.length) {
      const e = stack.pop()!;
      if (e.kind === "field") found.push(e);
      if (e.kind === "subquery" || e.kind === "exists") queries.push(e.query);
      else stack.push(...childrenOf(e));
    }
  }
  return found;
}
