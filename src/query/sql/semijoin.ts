/**
 * Conditions on an object reached by navigation, as semi-joins SQLite plans well. Navigation
 * compiles to a keyed scalar subquery (`(SELECT name FROM AUTHOR WHERE id = b.author) = ?`), null
 * through a null reference, which SQLite can only evaluate row by row: a scan of the candidates
 * with a lookup each. Where only the truth of the condition matters (a WHERE, ON, HAVING or WHEN,
 * through AND and OR but not NOT) and the condition cannot hold for an absent object, it is the
 * same as asking whether the reference is one of the objects that satisfy it:
 * `b.author IN (SELECT id FROM AUTHOR WHERE name = ?)`, which reads the few matching objects once
 * and finds the candidates by the foreign key's index. A chain (`editor.publisher.city`) nests.
 *
 * Same answers: the navigated object is read by its key, unique, so neither form multiplies rows;
 * an absent object (null or dangling reference) makes both forms not true. Only conditions that
 * are never true of an absent object (all its columns null) are rewritten: a comparison of one of
 * its fields with a value that does not depend on the row, and the string tests that are null on
 * a null string. JDOQL's `==`, true when both sides are null, is split: the semi-join for equal
 * values, or both null, kept as it was.
 */
import { groupsOf } from "../../read/row-layout.ts";
import { relationStorage } from "../../mapping/relation-storage.ts";
import { type SQL, join, qualified, sql, tuple } from "../../store/sql.ts";
import { classOf } from "../../metadata/model.ts";
import type { QExpr } from "../shared/model.ts";
import { forEachChild } from "../shared/walk.ts";
import type { GenContext } from "./context.ts";
import { type EntityRef, columnOf, fromItem, keyEquals, keyOf, rowInFrom, rowsOfClass, tableOfField } from "./entities.ts";

type Field = Extract<QExpr, { kind: "field" }>;
type Compare = Extract<QExpr, { kind: "compare" }>;

/** What the rewrite needs of the expression compiler (src/query/sql/expressions.ts). */
export interface CondCompiler {
  cond(e: QExpr, ctx: GenContext): SQL;
  entity(e: QExpr, ctx: GenContext): EntityRef;
}

/** String tests that are null (so not true) when their first argument is null. */
const NULL_ON_NULL = new Set(["startsWith", "endsWith", "equalsIgnoreCase", "matches", "like"]);

/**
 * `c` as a semi-join on the navigation it reads, when it is one of the conditions above and the
 * navigation can be one (a to-one foreign key in the owner's row, its class in one table group);
 * undefined otherwise. Only for contexts where a null and a false condition mean the same.
 */
export function semijoin(compiler: CondCompiler, c: QExpr, ctx: GenContext): SQL | undefined {
  if (c.kind === "compare") return compareSemijoin(compiler, c, ctx);
  if (c.kind === "contains") return ownerOfElement(compiler, c, ctx);
  if (c.kind === "isNull" && c.negated) {
    const nav = navigatedField(c.operand, ctx);
    return nav && chain(compiler, nav, (inner) => compiler.cond(c, inner), ctx);
  }
  if (c.kind === "fn" && NULL_ON_NULL.has(c.name) && c.args.length) {
    const nav = navigatedField(c.args[0]!, ctx);
    if (!nav || !c.args.slice(1).every(rowFree)) return undefined;
    return chain(compiler, nav, (inner) => compiler.cond(c, inner), ctx);
  }
  return undefined;
}

function compareSemijoin(compiler: CondCompiler, c: Compare, ctx: GenContext): SQL | undefined {
  const leftNav = navigatedField(c.left, ctx);
  const nav = leftNav ?? navigatedField(c.right, ctx);
  const other = leftNav ? c.right : c.left;
  if (!nav || !rowFree(other)) return undefined;
  // JDOQL's null == null: the plain comparison as a semi-join, or both sides null as before.
  const bothNull = c.nullEquals && c.op === "=" && other.kind !== "literal";
  const plain: QExpr = bothNull ? { ...c, nullEquals: false } : c;
  const semi = chain(compiler, nav, (inner) => compiler.cond(plain, inner), ctx, c.op === "<>");
  if (!semi) return undefined;
  if (!bothNull) return semi;
  const isNull = (e: QExpr): QExpr => ({ kind: "isNull", operand: e, negated: false, type: c.type, pos: e.pos });
  return sql`(${semi} OR (${compiler.cond(isNull(other), ctx)} AND ${compiler.cond(isNull(leftNav ? c.left : c.right), ctx)}))`;
}

/**
 * `coll.contains(:x)` over a collection mapped by its elements' foreign key: the owner is the one
 * `x`'s row names, `owner IN (SELECT fk FROM elements WHERE key = :x)`, one lookup by key instead
 * of a search of the owner's elements for every candidate row.
 */
function ownerOfElement(compiler: CondCompiler, c: Extract<QExpr, { kind: "contains" }>, ctx: GenContext): SQL | undefined {
  const coll = c.collection;
  if (coll.kind !== "field" || !coll.field.relation || c.element.type.kind !== "entity" || !rowFree(c.element)) return undefined;
  const s = relationStorage(ctx.model, coll.field);
  if (s.kind !== "target-fk") return undefined;
  const target = classOf(ctx.model, coll.field.relation.target);
  if (groupsOf(ctx.model, target).length !== 1) return undefined;
  const element = keyOf(compiler.entity(c.element, ctx));
  const owners = rowsOfClass(
    ctx.model,
    target,
    tableOfField(ctx.model, target, s.owning),
    (x) => s.columns.map((col) => qualified(x, col)),
    (x) => keyEquals(target.keyColumns, element, x),
    ctx.nextAlias,
  );
  return sql`(${tuple(keyOf(compiler.entity(coll.from, ctx)))} IN (${owners}))`;
}

/**
 * `nav.f`, a column (or a foreign key) of an object reached by a navigation that can be a
 * semi-join: the navigation, else undefined.
 */
function navigatedField(e: QExpr, ctx: GenContext): Field | undefined {
  return e.kind === "field" && readsField(e, ctx) && joinable(e.from, ctx) ? e.from : undefined;
}

/** `e.f` reads a column of its object's row: a value, or a foreign key (not the key, not the version). */
export function readsField(e: Field, ctx: GenContext): boolean {
  const f = e.field;
  if (e.from.type.kind !== "entity" || f.primaryKey || f.isVersionField) return false;
  return !!f.column || (!!f.relation && relationStorage(ctx.model, f).kind === "owner-fk");
}

/** A to-one navigation stored as a foreign key in its owner's row, to a class in one table group. */
export function joinable(e: QExpr, ctx: GenContext): e is Field {
  if (e.kind !== "field" || e.type.kind !== "entity" || !e.field.relation || ctx.overridden(e)) return false;
  if (relationStorage(ctx.model, e.field).kind !== "owner-fk") return false;
  return groupsOf(ctx.model, e.type.meta).length === 1;
}

/**
 * `<owner's foreign key> IN (SELECT key FROM <target> WHERE test(target row))`, the owner itself
 * taken the same way while it is a navigation too (`a.b.c.f == v`: three nested semi-joins).
 */
function chain(compiler: CondCompiler, nav: Field, test: (inner: GenContext) => SQL, ctx: GenContext, unselective = false): SQL | undefined {
  const meta = (nav.type as { meta: EntityRef["meta"] }).meta;
  const group = groupsOf(ctx.model, meta)[0]!;
  const inner = ctx.child();
  const prefix = inner.prefix();
  const target = rowInFrom(meta, group, prefix);
  const row: EntityRef = target.ref;
  inner.override(nav, row);
  const targets = sql`SELECT ${join(keyOf(row))} FROM ${fromItem(target)} WHERE ${test(inner)}`;
  const s = relationStorage(ctx.model, nav.field);
  if (s.kind !== "owner-fk") return undefined;
  // `+column`: no index for a condition most objects satisfy (`!=`), where a scan probing the
  // semi-join's few excluded keys is cheaper than an index search per key (SQLite has no statistics).
  const fk = (owner: EntityRef) =>
    s.columns.map((c) => (unselective ? sql`+${columnOf(ctx.model, owner, nav.field, c)}` : columnOf(ctx.model, owner, nav.field, c)));
  const member = (owner: EntityRef) => sql`(${tuple(fk(owner))} IN (${targets}))`;
  if (joinable(nav.from, ctx)) return chain(compiler, nav.from, (outer) => member(compiler.entity(nav.from, outer)), ctx);
  return member(compiler.entity(nav.from, ctx));
}

/** Whether a value is the same for every row: literals and parameters, and what is computed of them alone. */
function rowFree(e: QExpr): boolean {
  if (!["literal", "param", "arith", "negate", "concat", "fn", "cast"].includes(e.kind)) return false;
  let free = true;
  forEachChild(e, (x) => (free &&= rowFree(x)));
  return free;
}
