/**
 * The result clause of a JDOQL query: its items and aliases, and the shape of the JSON answer
 * (candidates, values, rows, objects keyed by alias for INTO and constructors).
 */
import { fail } from "../shared/errors.ts";
import type { Pos, QQuery, ResultItem } from "../shared/model.ts";
import { describeType } from "../shared/types.ts";
import { containsAggregate } from "../shared/validate.ts";
import { bindExpr } from "./expressions.ts";
import type { Scope } from "./scope.ts";
import { declaredType } from "./declared-types.ts";
import { isJavaTypeName, resolveClass } from "./names.ts";
import type { SExpr, SQuery } from "./syntax.ts";

export function bindResult(scope: Scope, source: SQuery): void {
  const q = scope.query;
  const items = source.result;
  if (!items || (items.length === 1 && items[0]!.expr.type === "This" && !items[0]!.alias && !source.into)) {
    q.result = null;
    q.shape = "candidates";
    return;
  }
  if (items.length === 1 && items[0]!.expr.type === "New") {
    const ctor = items[0]!.expr;
    q.result = ctor.args.map((a) => resultItem(scope, a.expr, a.alias));
    q.shape = "object";
  } else {
    q.result = items.map((i) => {
      if (i.expr.type === "New") fail("a constructor expression must be the whole result", i.pos);
      return resultItem(scope, i.expr, i.alias);
    });
    q.shape = source.into ? intoShape(scope, source.into, q.result, source.pos) : items.length === 1 ? "value" : "row";
  }
  const aggregatesOnly = q.result.every((r) => containsAggregate(r.expr));
  if (!source.groupBy.length && aggregatesOnly && !source.unique) q.unique = true;
}

function resultItem(scope: Scope, e: SExpr, alias: string | undefined): ResultItem {
  const bound = bindExpr(scope, e);
  if (bound.type.kind === "collection" || bound.type.kind === "map") fail("a collection or map cannot be a result item", e.pos);
  return { expr: bound, alias: alias ?? defaultAlias(e) };
}

/** The name a result item goes by: its alias, a path's last name, or its text. */
function defaultAlias(e: SExpr): string {
  if (e.type === "Name") return e.name;
  if (e.type === "Member") return e.name;
  if (e.type === "This") return "this";
  if (e.type === "Aggregate") return `${e.fn}(${e.distinct ? "distinct " : ""}${e.arg.type === "This" ? "this" : defaultAlias(e.arg)})`;
  if (e.type === "Call") return `${e.name}()`;
  return "value";
}

/**
 * What `INTO` makes of the rows: Map (and user classes) are objects keyed by alias, Object[] rows,
 * and a single-valued class (Long, String, Date...) the values themselves, when they fit it.
 */
function intoShape(scope: Scope, into: string, items: readonly ResultItem[], pos: Pos): QQuery["shape"] {
  const name = into.replace(/\s+/g, "");
  if (name === "java.util.Map" || name === "Map" || name === "java.util.HashMap") return "object";
  if (name === "Object[]" || name === "java.lang.Object[]") return "row";
  if (resolveClass(scope.model, scope.names, name) || !isJavaTypeName(name)) return "object";
  const target = declaredType(scope, name, pos);
  if (target.kind === "unknown") return "object";
  if (items.length !== 1) fail(`INTO ${into} takes exactly one result expression, not ${items.length}`, pos);
  const t = items[0]!.expr.type;
  const fits = t.kind === "null" || t.kind === "unknown" || (target.kind === "number" ? t.kind === "number" : target.kind === t.kind);
  if (!fits) fail(`a ${describeType(t)} cannot be returned INTO ${into}`, items[0]!.expr.pos);
  return "value";
}
