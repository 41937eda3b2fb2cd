/**
 * The JDOQL front end: a parse tree becomes the query model. Names are resolved in JDOQL's order
 * (parameters, variables, fields of the candidate, types, else an implicit variable), every
 * expression is typed, and everything that cannot work is a `QueryError` at its position.
 * This file binds a whole query (candidates, declarations, implicit variables, clauses, checks);
 * expressions are bound in expressions.ts, method calls in methods.ts, the result in result.ts.
 */
import { type ClassMeta, type Model } from "../../metadata/model.ts";
import { fail } from "../shared/errors.ts";
import { type Binding, type QExpr, type QQuery, candidateQuery } from "../shared/model.ts";
import { ParamCollector } from "../shared/param-collector.ts";
import { LONG, describeType, orderable } from "../shared/types.ts";
import { checkAggregatePlacement, checkGrouping } from "../shared/validate.ts";
import { declaredType, primitiveTypeOf } from "./declared-types.ts";
import { bindExpr, isUnresolvedName, requireBoolean } from "./expressions.ts";
import { type TypeNames, packageOf, resolveClass } from "./names.ts";
import { bindResult } from "./result.ts";
import type { Binders, Scope } from "./scope.ts";
import type { Declaration, SExpr, SQuery } from "./syntax.ts";

const BINDERS: Binders = {
  expr: bindExpr,
  subquery: (outer, source) => bindQuery(outer.model, source, outer.params, outer).query,
};

export function newScope(
  model: Model,
  candidate: ClassMeta,
  source: SQuery | undefined,
  params: ParamCollector,
  outer?: Scope,
  excludeSubclasses = false,
): Scope {
  const pos = source?.pos ?? { offset: 0, line: 1, column: 1 };
  const binding: Binding = { name: "this", type: { kind: "entity", meta: candidate }, excludeSubclasses, pos };
  const query = candidateQuery(binding, outer?.query);
  return {
    model,
    names: { packageName: packageOf(candidate.name), imports: [...(source?.imports ?? []), ...(outer?.names.imports ?? [])] },
    query,
    variables: new Map(),
    declaredVariables: false,
    declaredParams: new Map(),
    params,
    outer,
    binders: BINDERS,
  };
}

/** A whole single-string query. `candidate` comes from the path for filter endpoints. */
export function bindQuery(model: Model, source: SQuery, params = new ParamCollector(), outer?: Scope): { scope: Scope; query: QQuery } {
  const from = source.from;
  if (!from) fail(outer ? "a subquery needs a FROM clause" : "the query needs a FROM clause naming its candidate class", source.pos);
  let scope: Scope;
  if (from.kind === "path") {
    // `FROM this.department.employees e`: the candidates are the elements of an outer collection.
    if (!outer) fail("only a subquery may take its candidates from a collection", from.pos);
    const path = bindExpr(outer, from.path);
    if (path.type.kind !== "collection" || path.type.element.kind !== "entity")
      fail(`FROM needs a collection of persistent objects, not ${describeType(path.type)}`, from.pos);
    scope = newScope(model, path.type.element.meta, source, params, outer);
    scope.query.candidate.source = path;
  } else {
    const names: TypeNames = { packageName: outer?.names.packageName ?? "", imports: [...source.imports, ...(outer?.names.imports ?? [])] };
    const candidate = resolveClass(model, names, from.className, from.pos);
    if (!candidate || candidate.embeddedOnly) fail(`unknown class "${from.className}"`, from.pos);
    scope = newScope(model, candidate, source, params, outer, from.excludeSubclasses);
  }
  scope.alias = from.alias;
  if (scope.alias) scope.query.candidate.name = scope.alias;
  fillQuery(scope, source);
  return { scope, query: scope.query };
}

function declareParameters(scope: Scope, decls: readonly Declaration[]): void {
  for (const d of decls) {
    if (scope.declaredParams.has(d.name)) fail(`parameter "${d.name}" is declared twice`, d.pos);
    const type = declaredType(scope, d.typeName, d.pos);
    scope.declaredParams.set(d.name, scope.params.use(d.name, type, d.pos, !!primitiveTypeOf(d.typeName)));
    scope.params.declared = true;
  }
}

function declareVariables(scope: Scope, decls: readonly Declaration[]): void {
  for (const d of decls) {
    if (scope.variables.has(d.name)) fail(`variable "${d.name}" is declared twice`, d.pos);
    const binding: Binding = { name: d.name, type: declaredType(scope, d.typeName, d.pos), pos: d.pos };
    scope.variables.set(d.name, binding);
    scope.query.variables.push(binding);
    scope.declaredVariables = true;
  }
}

export function fillQuery(scope: Scope, source: SQuery): void {
  const q = scope.query;
  declareParameters(scope, source.parameters);
  declareVariables(scope, source.variables);
  inferImplicitVariables(scope, [
    source.where,
    ...(source.result ?? []).map((r) => r.expr),
    source.having,
    ...source.groupBy,
    ...source.orderBy.map((o) => o.expr),
  ]);
  if (source.where) {
    q.where = bindExpr(scope, source.where);
    requireBoolean(q.where, "the filter");
  }
  q.groupBy = source.groupBy.map((g) => bindExpr(scope, g));
  if (source.having) {
    q.having = bindExpr(scope, source.having);
    requireBoolean(q.having, "HAVING");
  }
  bindResult(scope, source);
  q.orderBy = source.orderBy.map((o) => {
    const e = bindExpr(scope, o.expr);
    if (!orderable(e.type) && e.type.kind !== "entity") fail(`cannot order by a ${describeType(e.type)}`, o.pos);
    return { expr: e, descending: o.descending, nulls: o.nulls };
  });
  if (source.range) q.range = { from: rangeBound(scope, source.range.from), to: rangeBound(scope, source.range.to) };
  q.distinct = source.distinct;
  q.unique ||= source.unique;
  checkGrouping(q, source.pos);
  checkAggregatePlacement(q);
}

/**
 * A RANGE bound is a number from the query text or a parameter (JDO 14.6.13), or arithmetic on
 * them: LIMIT cannot read the candidate's fields, and a string or null is no position.
 */
function rangeBound(scope: Scope, e: SExpr): QExpr {
  const bound = bindExpr(scope, e, LONG);
  const constant = (x: QExpr): boolean =>
    x.kind === "literal" || x.kind === "param" || (x.kind === "negate" && constant(x.operand)) || (x.kind === "arith" && constant(x.left) && constant(x.right));
  if (!constant(bound)) fail("RANGE takes numbers or parameters, not values of the candidates", e.pos);
  if (bound.type.kind !== "number" && bound.type.kind !== "unknown") fail(`RANGE takes numbers, not ${describeType(bound.type)}`, e.pos);
  return bound;
}

/**
 * Implicit variables get their type from the collection they are taken from (`coll.contains(v)`,
 * `map.containsKey(k)`, `map.containsValue(v)`), found before binding so that order of use does
 * not matter.
 */
function inferImplicitVariables(scope: Scope, roots: (SExpr | undefined)[]): void {
  const visit = (e: SExpr | undefined): void => {
    if (!e) return;
    if (e.type === "Call" && e.object && e.args.length === 1 && e.args[0]!.type === "Name" && ["contains", "containsKey", "containsValue"].includes(e.name)) {
      const name = (e.args[0] as { name: string }).name;
      if (isUnresolvedName(scope, name)) {
        const owner = bindExpr(scope, e.object);
        const t = owner.type;
        const elementType = t.kind === "collection" ? t.element : t.kind === "map" ? (e.name === "containsValue" ? t.value : t.key) : undefined;
        if (elementType) {
          if (scope.declaredVariables) fail(`"${name}" is not declared: a query declares all its variables or none`, e.args[0]!.pos);
          const binding: Binding = { name, type: elementType, pos: e.args[0]!.pos };
          scope.variables.set(name, binding);
          scope.query.variables.push(binding);
        }
      }
    }
    forEachChild(e, visit);
  };
  roots.forEach(visit);
}

function forEachChild(e: SExpr, visit: (e: SExpr) => void): void {
  switch (e.type) {
    case "Member":
      return visit(e.object);
    case "Call":
      if (e.object) visit(e.object);
      return e.args.forEach(visit);
    case "Aggregate":
      return visit(e.arg);
    case "Unary":
      return visit(e.operand);
    case "Binary":
      visit(e.left);
      return visit(e.right);
    case "InstanceOf":
    case "Cast":
      return visit(e.operand);
    case "Conditional":
      visit(e.test);
      visit(e.consequent);
      return visit(e.alternate);
    case "New":
      return e.args.forEach((a) => visit(a.expr));
    case "ArrayLiteral":
      return e.elements.forEach(visit);
    default:
      return;
  }
}
