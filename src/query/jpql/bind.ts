/**
 * The JPQL front end: a parse tree becomes the same query model JDOQL produces. What JPQL means
 * differently is decided here, in one place: every FROM variable is a join (rows multiply),
 * paths in the select list, grouping and ordering have inner-join semantics (a row whose path
 * crosses a null reference is dropped), `=` follows SQL's three-valued logic, positions are
 * 1-based (converted to the model's 0-based functions), LIKE is case-sensitive.
 */
import { type ClassMeta, type Model, isAncestor } from "../../metadata/model.ts";
import { fail } from "../shared/errors.ts";
import { type Binding, type Pos, type QExpr, type QQuery, type QType, candidateQuery, node } from "../shared/model.ts";
import { ParamCollector } from "../shared/param-collector.ts";
import { checkAggregatePlacement, checkGrouping, containsAggregate } from "../shared/validate.ts";
import { childrenOf } from "../shared/walk.ts";
import { bindJpqlExpr } from "./expressions.ts";
import { entryParts } from "./list-entries.ts";
import { entityNamed } from "./names.ts";
import { type Binders, type JScope, lookupVariable } from "./scope.ts";
import type { JFromItem, JSelectQuery, JSelectStatement } from "./syntax.ts";

const BINDERS: Binders = { subquery: (outer, source) => bindSelect(outer.model, source, outer.params, outer) };

export function bindJpql(model: Model, statement: JSelectStatement, params = new ParamCollector()): QQuery {
  if (statement.type !== "SetOperation") return bindSelect(model, statement, params);
  // UNION / INTERSECT / EXCEPT (3.2): two projections combined by SQLite's compound select.
  const left = asProjection(bindJpql(model, statement.left, params));
  const right = asProjection(bindJpql(model, statement.right, params));
  const orderBy = setOrderBy(statement);
  return { ...left, compound: { op: statement.op, all: statement.all, left, right, ...(orderBy.length ? { orderBy } : {}) } };
}

/**
 * The trailing ORDER BY of a set operation orders the combined rows, which only have the first
 * query's select items: each item names one, by its result variable or by being the same
 * expression (`ORDER BY c.name` after `SELECT c.name ...`).
 */
function setOrderBy(statement: Extract<JSelectStatement, { type: "SetOperation" }>): NonNullable<NonNullable<QQuery["compound"]>["orderBy"]> {
  let first: JSelectStatement = statement;
  while (first.type === "SetOperation") first = first.left;
  const items = first.select ?? [];
  return statement.orderBy.map((o) => {
    const e = o.expr as { type: string; head?: unknown; names?: string[] };
    let item = -1;
    if (e.type === "Path" && typeof e.head === "string" && !e.names?.length) {
      const name = e.head.toLowerCase();
      item = items.findIndex((i) => i.variable?.toLowerCase() === name);
    }
    if (item < 0) item = items.findIndex((i) => sameSyntax(i.expr, o.expr));
    if (item < 0) fail(`ORDER BY after ${statement.op} orders the combined rows: name a result variable or repeat a select item of the first query`, o.pos);
    return { item, descending: o.descending, ...(o.nulls ? { nulls: o.nulls } : {}) };
  });
}

/** Whether two syntax trees are the same expression (positions aside; identification variables case-insensitively). */
function sameSyntax(a: unknown, b: unknown, variable = false): boolean {
  if (variable && typeof a === "string" && typeof b === "string") return a.toLowerCase() === b.toLowerCase();
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = (x: object) => Object.keys(x).filter((k) => k !== "pos" && k !== "classPos");
  const ka = keys(a);
  const kb = keys(b);
  const isVariable = (k: string) => (k === "head" || k === "variable") && (a as { type?: string }).type !== "Literal";
  return ka.length === kb.length && ka.every((k) => sameSyntax((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], isVariable(k)));
}

/** A query answering its candidates, as the projection of the candidate (for compound selects). */
function asProjection(q: QQuery): QQuery {
  if (q.shape !== "candidates") return q;
  return {
    ...q,
    result: [{ expr: node({ kind: "binding", binding: q.candidate, type: q.candidate.type }, q.candidate.pos), alias: q.candidate.name }],
    shape: "value",
  };
}

function bindSelect(model: Model, source: JSelectQuery, params: ParamCollector, outer?: JScope): QQuery {
  const scope = declareFrom(model, source.from, params, outer);
  const q = scope.query;
  if (source.where) q.where = bindJpqlExpr(scope, source.where);
  q.groupBy = source.groupBy.map((g) => bindJpqlExpr(scope, g));
  if (source.having) q.having = bindJpqlExpr(scope, source.having);
  bindSelectList(scope, source);
  q.orderBy = source.orderBy.map((o) => ({ expr: orderExpr(scope, o.expr), descending: o.descending, nulls: o.nulls }));
  q.distinct = source.distinct;
  for (const e of [q.where, q.having]) if (e && e.type.kind !== "boolean" && e.type.kind !== "unknown") fail("a condition must be boolean", e.pos);
  checkGrouping(q, source.pos);
  checkAggregatePlacement(q);
  requireInnerJoins(q);
  return q;
}

/** FROM: the first range variable is the candidate; every other declaration is a joined variable. */
function declareFrom(model: Model, from: readonly JFromItem[], params: ParamCollector, outer?: JScope): JScope {
  const first = from[0];
  if (!first) fail("FROM needs at least one declaration");
  let candidateMeta: ClassMeta;
  let candidateSource: QExpr | undefined;
  const scope: JScope = { model, params, outer, variables: new Map(), resultVariables: new Map(), query: undefined!, binders: BINDERS };
  if (first.kind === "range") candidateMeta = entityNamed(model, first.entity, first.pos);
  else {
    if (!outer) fail("a query's first FROM declaration names an entity", first.pos);
    candidateSource = bindJpqlExpr(outer, first.path);
    if (candidateSource.type.kind !== "collection" || candidateSource.type.element.kind !== "entity")
      fail("FROM takes a collection of entities here", first.pos);
    candidateMeta = candidateSource.type.element.meta;
  }
  const candidate: Binding = {
    name: (first as { variable?: string }).variable ?? "this",
    type: { kind: "entity", meta: candidateMeta },
    excludeSubclasses: false,
    source: candidateSource,
    pos: first.pos,
  };
  scope.query = { ...candidateQuery(candidate, outer?.query), joinVariables: true };
  declare(scope, candidate, first.pos);
  const add = (binding: Binding) => {
    declare(scope, binding, binding.pos);
    scope.query.variables.push(binding);
  };
  from.forEach((item, index) => {
    if (index > 0 && item.kind === "range") {
      add({
        name: item.variable ?? fail("every FROM declaration after the first needs a variable", item.pos),
        type: { kind: "entity", meta: entityNamed(model, item.entity, item.pos) },
        pos: item.pos,
      });
    } else if (index > 0 && item.kind !== "range") {
      const path = bindJpqlExpr(scope, item.path as Parameters<typeof bindJpqlExpr>[1]);
      add(joinBinding(item.variable, path, false, item.pos));
    }
    for (const j of item.kind === "member" ? [] : item.joins) {
      if (j.target.kind === "entity") {
        const meta = entityNamed(model, j.target.entity, j.pos);
        const binding: Binding = { name: j.variable!, type: { kind: "entity", meta }, optional: j.kind === "left", pos: j.pos };
        add(binding);
        if (j.on) binding.on = bindJpqlExpr(scope, j.on);
        continue;
      }
      // JOIN TREAT(path AS Sub) x: x ranges over the path's elements that are Subs.
      const target = j.target.path;
      const treated = target.type === "Treat" ? entityNamed(model, target.entity, target.pos) : undefined;
      const path = bindJpqlExpr(scope, (target.type === "Treat" ? target.path : target) as Parameters<typeof bindJpqlExpr>[1]);
      // JOIN FETCH names no variable: it only asks for the relation to be loaded (the fetch plan does).
      const binding = joinBinding(j.variable ?? `fetch#${j.pos.offset}`, path, j.kind === "left", j.pos);
      if (j.fetch && path.kind === "field") (scope.query.fetchFields ??= []).push(`${path.field.declaringClass}.${path.field.name}`);
      if (treated) {
        if (binding.type.kind !== "entity" || !isAncestor(model, binding.type.meta.name, treated.name))
          fail(`TREAT: ${treated.name} is not a subclass of the joined entity`, target.pos);
        binding.type = { kind: "entity", meta: treated };
      }
      add(binding);
      if (j.on) binding.on = bindJpqlExpr(scope, j.on);
    }
  });
  return scope;
}

function joinBinding(name: string, path: QExpr, optional: boolean, pos: Pos): Binding {
  const t = path.type;
  if (t.kind === "collection") return { name, type: t.element, source: path, optional, pos };
  // A map joins its values; KEY(v) reads the entry's key.
  if (t.kind === "map") return { name, type: t.value, source: path, optional, pos };
  if (t.kind === "entity") return { name, type: t, source: path, optional, pos };
  return fail(`JOIN needs a relation or a collection, not ${t.kind}`, pos);
}

function declare(scope: JScope, binding: Binding, pos: Pos): void {
  const key = binding.name.toLowerCase();
  if (lookupVariable(scope, binding.name)) fail(`identification variable "${binding.name}" is declared twice`, pos);
  scope.variables.set(key, binding);
}

function bindSelectList(scope: JScope, source: JSelectQuery): void {
  const q = scope.query;
  if (!source.select) {
    q.result = null;
    return;
  }
  const items = source.select;
  const onlyCandidate = items.length === 1 && !q.variables.length && isCandidateItem(items[0]!.expr, q.candidate.name);
  if (onlyCandidate && !items[0]!.variable) {
    q.result = null;
    q.shape = "candidates";
    return;
  }
  if (items.length === 1 && items[0]!.expr.type === "New") {
    const ctor = items[0]!.expr;
    checkConstructorClass(scope.model, ctor.className, ctor.classPos);
    q.result = ctor.args.map((a) => ({ expr: bindJpqlExpr(scope, a), alias: defaultAlias(a) }));
    q.shape = "object";
  } else {
    q.result = items.map((item) => {
      if (item.expr.type === "New") fail("NEW must be the only select item", item.pos);
      if (item.expr.type === "KeyValueEntry" && item.expr.fn === "ENTRY") {
        const entry = entryParts(scope, item.expr.variable, item.expr.pos);
        return { ...entry, alias: item.variable ?? "entry" };
      }
      const expr = item.expr.type === "Object" ? variableExpr(scope, item.expr.variable, item.expr.pos) : bindJpqlExpr(scope, item.expr);
      if (expr.type.kind === "collection" || expr.type.kind === "map") fail("a collection cannot be selected: JOIN it and select the variable", item.pos);
      const alias = item.variable ?? defaultAlias(item.expr);
      if (item.variable) scope.resultVariables.set(item.variable.toLowerCase(), expr);
      return { expr, alias };
    });
    q.shape = items.length === 1 ? "value" : "row";
  }
  if (!source.groupBy.length && q.result.every((r) => containsAggregate(r.expr))) q.unique = true;
}

/**
 * The class of `NEW C(...)`. JPA names it fully qualified, and it need not be an entity: a class
 * outside the model cannot be checked here, so a qualified name is taken as given. An unqualified
 * name must then be a class of the model; any other is no class at all. Whatever the class, the
 * answer is an object of the arguments keyed by their names (constructors take no names).
 */
function checkConstructorClass(model: Model, name: string, pos: Pos): void {
  if (name.includes(".") || [...model.classes.values()].some((c) => c.entityName === name || c.simpleName === name)) return;
  fail(`unknown class "${name}" in NEW: give the result class's fully qualified name (or an entity's name)`, pos);
}

function isCandidateItem(e: { type: string }, name: string): boolean {
  const x = e as { type: string; head?: unknown; names?: string[]; variable?: string };
  if (x.type === "Object") return x.variable?.toLowerCase() === name.toLowerCase();
  return x.type === "Path" && typeof x.head === "string" && x.head.toLowerCase() === name.toLowerCase() && !x.names?.length;
}

function variableExpr(scope: JScope, name: string, pos: Pos): QExpr {
  const binding = lookupVariable(scope, name) ?? fail(`unknown identification variable "${name}"`, pos);
  return node({ kind: "binding", binding, type: binding.type }, pos);
}

function defaultAlias(e: { type: string }): string {
  const x = e as { type: string; head?: unknown; names?: string[] };
  if (x.type === "Path") return x.names?.length ? x.names[x.names.length - 1]! : String(x.head);
  return "value";
}

/** ORDER BY may name a result variable. */
function orderExpr(scope: JScope, e: Parameters<typeof bindJpqlExpr>[1]): QExpr {
  if (e.type === "Path" && typeof e.head === "string" && !e.names.length) {
    const result = scope.resultVariables.get(e.head.toLowerCase());
    if (result && !lookupVariable(scope, e.head)) return result;
  }
  return bindJpqlExpr(scope, e);
}

/**
 * JPQL paths are inner joins: a row whose path (in any clause) crosses a null reference is not in
 * the result. The one place where that differs from JDOQL's null navigation.
 */
function requireInnerJoins(q: QQuery): void {
  const required: QExpr[] = [];
  const visit = (e: QExpr) => {
    if (e.kind === "field" && e.from.kind === "field" && e.from.type.kind === "entity") required.push(e.from);
    if (e.kind === "aggregate" || e.kind === "subquery" || e.kind === "exists") return;
    childrenOf(e).forEach(visit);
  };
  for (const r of q.result ?? []) {
    visit(r.expr);
    if (r.expr.kind === "field" && r.expr.type.kind === "entity") required.push(r.expr);
  }
  q.groupBy.forEach(visit);
  q.orderBy.forEach((o) => visit(o.expr));
  // Implicit joins of the WHERE and HAVING paths are inner joins of the whole query, too.
  if (q.where) visit(q.where);
  if (q.having) visit(q.having);
  if (!required.length) return;
  const notNull = required.map((operand): QExpr => node({ kind: "isNull", operand, negated: true, type: BOOLEAN_TYPE }, operand.pos));
  q.where = q.where
    ? node({ kind: "and", items: [q.where, ...notNull], type: BOOLEAN_TYPE }, q.where.pos)
    : node({ kind: "and", items: notNull, type: BOOLEAN_TYPE }, notNull[0]!.pos);
}

const BOOLEAN_TYPE: QType = { kind: "boolean" };
