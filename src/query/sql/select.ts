/**
 * A query model becomes one SELECT: over the candidate's table group, its filter with variables
 * scoped by EXISTS (or joined, when the result uses them), grouping, ordering and range. The
 * candidate form yields ordered keys for the read plan; the projection form yields result rows.
 */
import type { ClassMeta, Model } from "../../metadata/model.ts";
import { type SQL, distinctNames, join, sql, tuple } from "../../store/sql.ts";
import { fail } from "../shared/errors.ts";
import type { Binding, QExpr, QQuery, ResultPart } from "../shared/model.ts";
import { GenContext } from "./context.ts";
import { type EntityRef, fromItem, keyOf, rowInFrom, singleGroup } from "./entities.ts";
import { type GroupLayout, groupsOf, primaryOf, readKey } from "../../read/row-layout.ts";
import { exactIntegerSql } from "../../json/sql-values.ts";
import { ExprCompiler } from "./expressions.ts";
import { classFilter } from "./ranges.ts";
import { orderingScope } from "./ordering-joins.ts";
import { forEachChild } from "../shared/walk.ts";
import { setOperationSql } from "./set-operations.ts";
import { resultParts } from "./composite-items.ts";

export interface ResultColumn {
  alias: string;
  /** How many SQL columns the item takes: the key parts for objects, else 1. */
  width: number;
  expr: QExpr;
  /** An item answered as an object: its parts, a column each (an embedded object, JPQL ENTRY). */
  parts?: ResultPart[];
}

const compiler = new ExprCompiler(compileSubquery);

interface Frame {
  ctx: GenContext;
  from: SQL[];
  where: SQL[];
  candidate: EntityRef;
}

/** FROM and WHERE of a query: candidate rows (of one table group), joined variables, the filter. */
function frame(q: QQuery, outer: GenContext | undefined, model: Model, candidateGroup?: GroupLayout): Frame {
  const ctx = outer ? outer.subquery(q.variables) : new GenContext(model, undefined, new Set(q.variables));
  const meta = (q.candidate.type as { meta: ClassMeta }).meta;
  const group = candidateGroup ?? singleGroup(model, meta, q.candidate.pos);
  const prefix = ctx.prefix();
  const row = rowInFrom(meta, group, prefix);
  const candidate: EntityRef = row.ref;
  ctx.bind(q.candidate, { kind: "entity", ref: candidate });
  const from = [fromItem(row)];
  const where: SQL[] = [];
  const filter = classFilter(ctx, meta, group, prefix, q.candidate.excludeSubclasses);
  if (filter) where.push(filter);
  if (q.candidate.source) {
    const elements = compiler.elements(q.candidate.source, outer ?? ctx);
    where.push(sql`(${join(keyOf(candidate))}) IN (${elements.sql})`);
  }
  // Variables the result, grouping or ordering use are joined: each binding is a result row.
  // JPQL joins every FROM variable, from its declared source (JOIN path, IN (path)).
  const joined = q.joinVariables
    ? q.variables
    : q.variables.filter((v) =>
        [...(q.result ?? []).map((r) => r.expr), ...q.groupBy, ...q.orderBy.map((o) => o.expr), ...(q.having ? [q.having] : [])].some((e) => usesBinding(e, v)),
      );
  const conjuncts = q.where ? (q.where.kind === "and" ? q.where.items : [q.where]) : [];
  for (const v of q.joinVariables ? joined : []) joinDeclared(v, ctx, from, where);
  const ranges = compiler.bindRanges(q.joinVariables ? [] : joined, conjuncts, ctx, from, where);
  if (q.where)
    where.push(
      compiler.conjunction(
        conjuncts.filter((c) => !ranges.has(c)),
        ctx,
        true,
      ),
    );
  return { ctx, from, where, candidate };
}

/**
 * A JPQL FROM variable: its range (a collection path, a to-one path, or its class's extent),
 * its ON condition, and for LEFT JOIN an outer join that keeps rows without a match.
 */
function joinDeclared(v: Binding, ctx: GenContext, from: SQL[], where: SQL[]): void {
  const source = v.source;
  const conditions: SQL[] = [];
  const collection = source && (source.type.kind === "collection" || source.type.kind === "map") ? source : undefined;
  if (v.optional && v.type.kind === "entity") {
    // LEFT JOIN primary ON <range, ON> LEFT JOIN its subclass tables: rows without a match stay.
    const meta = v.type.meta;
    const group = singleGroup(ctx.model, meta, v.pos);
    const prefix = ctx.prefix();
    const { ref, joins } = rowInFrom(meta, group, prefix);
    ctx.bind(v, { kind: "entity", ref });
    const filter = classFilter(ctx, meta, group, prefix);
    if (filter) conditions.push(filter);
    if (collection) conditions.push(compiler.membership(ref, collection, ctx));
    else if (source) conditions.push(sql`${tuple(keyOf(ref))} = ${tuple(keyOf(compiler.entity(source, ctx)))}`);
    if (v.on) conditions.push(compiler.cond(v.on, ctx, true));
    from[from.length - 1] =
      sql`${from[from.length - 1]} LEFT JOIN ${primaryOf(group, prefix)} ON ${conditions.length ? join(conditions, sql` AND `) : sql`1`}${joins}`;
    return;
  }
  const items = compiler.range(v, collection, undefined, ctx, conditions);
  const bound = ctx.lookup(v);
  if (source && source.type.kind === "entity" && bound?.kind === "entity") {
    conditions.push(sql`${tuple(keyOf(bound.ref))} = ${tuple(keyOf(compiler.entity(source, ctx)))}`);
  }
  if (v.on) conditions.push(compiler.cond(v.on, ctx, true));
  if (!v.optional) {
    from.push(...items);
    where.push(...conditions);
    return;
  }
  // A LEFT JOIN over a collection of values: json_each joins without parentheses.
  from[from.length - 1] = sql`${from[from.length - 1]} LEFT JOIN ${join(items, sql`, `)} ON ${conditions.length ? join(conditions, sql` AND `) : sql`1`}`;
}

function hasAggregate(q: QQuery): boolean {
  let found = false;
  const visit = (x: QExpr) => {
    if (x.kind === "aggregate") found = true;
    else if (x.kind !== "subquery" && x.kind !== "exists") forEachChild(x, visit);
  };
  [...(q.result ?? []).map((r) => r.expr), ...q.orderBy.map((o) => o.expr)].forEach(visit);
  return found;
}

function usesBinding(e: QExpr, v: Binding): boolean {
  let found = false;
  const visit = (x: QExpr) => {
    if (x.kind === "binding" && x.binding === v) found = true;
    forEachChild(x, visit);
  };
  visit(e);
  return found;
}

const whereSql = (f: Frame) => (f.where.length ? sql` WHERE ${join(f.where, sql` AND `)}` : sql``);

function orderItems(q: QQuery, ctx: GenContext): SQL[] {
  return orderParts(q, ctx).map((p) => sql`${p.value}${p.suffix}`);
}

/** The ordering's values, one per SQL column (an object's key parts), each with what follows it (DESC, NULLS …). */
function orderParts(q: QQuery, ctx: GenContext): { value: SQL; suffix: SQL }[] {
  return q.orderBy.flatMap((o) => {
    const values = o.expr.type.kind === "entity" ? keyOf(compiler.entity(o.expr, ctx)) : [compiler.exact(o.expr, ctx)];
    const nulls = o.nulls ? sql.raw(o.nulls === "first" ? " NULLS FIRST" : " NULLS LAST") : sql``;
    return values.map((value) => ({ value, suffix: sql`${o.descending ? sql` DESC` : sql``}${nulls}` }));
  });
}

/** The ordering's values, one per SQL column (an object's key parts), each with its direction and where its nulls go. */
function orderValues(q: QQuery, ctx: GenContext): { value: SQL; descending: boolean; nullsFirst: boolean }[] {
  return q.orderBy.flatMap((o) => {
    const values = o.expr.type.kind === "entity" ? keyOf(compiler.entity(o.expr, ctx)) : [compiler.exact(o.expr, ctx)];
    // SQLite's default: nulls are the smallest values (first ascending, last descending).
    const nullsFirst = o.nulls ? o.nulls === "first" : !o.descending;
    return values.map((value) => ({ value, descending: o.descending, nullsFirst }));
  });
}

/**
 * Keyset paging: the rows that come after the cursor's row in the ordering (its values `c.o<i>`,
 * then its key `c.k<i>`, which breaks ties ascending). Lexicographic, level by level: a row is
 * after when it is after at the first level where the two differ; nulls sit where the ordering
 * puts them (IS compares nulls as equal).
 */
function afterCursor(values: readonly { value: SQL; descending: boolean; nullsFirst: boolean }[], keys: readonly SQL[]): SQL {
  // The key last: never null, so `k > c` (a range of the primary key's index when the key alone orders).
  let after = sql`${tuple(keys)} > ${tuple(keys.map((_, i) => sql`${sql.placeholder(`c.k${i}`)}`))}`;
  for (let i = values.length - 1; i >= 0; i--) {
    const { value, descending, nullsFirst } = values[i]!;
    const cursor = sql`${sql.placeholder(`c.o${i}`)}`;
    const beyond = descending ? sql`${value} < ${cursor}` : sql`${value} > ${cursor}`;
    const pastNulls = nullsFirst ? sql`(${cursor} IS NULL AND ${value} IS NOT NULL)` : sql`(${value} IS NULL AND ${cursor} IS NOT NULL)`;
    after = sql`(${beyond} OR ${pastNulls} OR (${value} IS ${cursor} AND ${after}))`;
  }
  return after;
}

function orderSql(q: QQuery, ctx: GenContext): SQL {
  return q.orderBy.length ? sql` ORDER BY ${join(orderItems(q, ctx))}` : sql``;
}

/**
 * RANGE a, b: skip a, return at most b - a. LIMIT and OFFSET take only 64-bit integers, and a
 * bound may be 0.5, 1e300 or a null parameter: each is made whole first (CAST clamps to 64 bits),
 * null reads as 0 and no end, and a negative start as 0, so that b - a cannot overflow either.
 */
function rangeSql(q: QQuery, ctx: GenContext): SQL {
  if (!q.range) return sql``;
  const from = sql`max(0, ifnull(CAST(${compiler.value(q.range.from, ctx)} AS INTEGER), 0))`;
  const to = sql`ifnull(CAST(${compiler.value(q.range.to, ctx)} AS INTEGER), 9223372036854775807)`;
  return sql` LIMIT max(0, ${to} - ${from}) OFFSET ${from}`;
}

function groupSql(q: QQuery, ctx: GenContext): SQL {
  const parts: SQL[] = [];
  if (q.groupBy.length) {
    const keys = q.groupBy.flatMap((g) => (g.type.kind === "entity" ? keyOf(compiler.entity(g, ctx)) : [compiler.exact(g, ctx)]));
    parts.push(sql` GROUP BY ${join(keys)}`);
  }
  if (q.having) parts.push(sql` HAVING ${compiler.cond(q.having, ctx, true)}`);
  return sql.join(parts);
}

/**
 * The candidates' keys, in query order: columns `_k0`.., `_ord`. The read plan joins its rows to
 * this, so the objects come back ordered and ranged as the query says. A hierarchy stored in
 * several tables (complete-table) is one SELECT per table, united, then ordered. Given `limit`,
 * only the first `limit` rows: the query's own LIMIT where it has none (a SELECT wrapped around
 * the query for it cost SQLite 4 % of the bench's filter), a wrapping SELECT after a RANGE.
 */
export function candidateKeys(model: Model, q: QQuery, limit?: SQL): SQL {
  const meta = (q.candidate.type as { meta: ClassMeta }).meta;
  const ownLimit = limit ? sql` LIMIT ${limit}` : sql``;
  const limited = (keys: SQL) => (limit ? sql`SELECT * FROM (${keys}) LIMIT ${limit}` : keys);
  const groups = groupsOf(model, meta);
  if (groups.length === 1) {
    const f = frame(q, undefined, model, groups[0]);
    const ordering = orderingScope(q, f.ctx, f.from, f.candidate);
    const keys = keyOf(f.candidate);
    const columns = keys.map((k, i) => sql`${k} AS ${sql.raw(`_k${i}`)}`);
    if (q.listing) {
      const values = orderValues(q, ordering);
      if (q.listing.orderingValues) columns.push(...values.map((v, i) => sql`${v.value} AS ${sql.raw(`_o${i}`)}`));
      if (q.listing.keyset) f.where.push(afterCursor(values, keys));
    }
    // Keys break ties, so the order (and a RANGE over it) is the same every time.
    const parts = orderParts(q, ordering);
    const order = sql` ORDER BY ${join([...parts.map((p) => sql`${p.value}${p.suffix}`), ...keys])}`;
    const from = sql`${join(f.from, sql`, `)}${whereSql(f)}`;
    // In key order, a one-column key is its own place (no window to number the rows: 5 % of the bench's filter in SQLite).
    if (!q.range && !parts.length && keys.length === 1) return sql`SELECT ${join(columns)}, ${keys[0]!} AS _ord FROM ${from}${order}${ownLimit}`;
    if (!q.range) return sql`SELECT ${join(columns)}, row_number() OVER (${order}) AS _ord FROM ${from}${order}${ownLimit}`;
    // With a RANGE, the rows are numbered after it: SQLite keeps the few rows the RANGE takes as
    // it sorts (ORDER BY … LIMIT), where numbering every match first sorts them all. The
    // ordering's values come out of the subquery (`_s<i>`), and number its rows in the same order.
    const sorts = parts.map((p, i) => sql`${p.value} AS ${sql.raw(`_s${i}`)}`);
    const names = columns.map((_, i) => sql.raw(i < keys.length ? `_k${i}` : `_o${i - keys.length}`));
    const outer = sql` ORDER BY ${join([...parts.map((p, i) => sql`${sql.raw(`_s${i}`)}${p.suffix}`), ...keys.map((_, i) => sql.raw(`_k${i}`))])}`;
    const ranged = sql`SELECT ${join([...columns, ...sorts])} FROM ${from}${order}${rangeSql(q, f.ctx)}`;
    return limited(sql`SELECT ${join(names)}, row_number() OVER (${outer}) AS _ord FROM (${ranged})${outer}`);
  }
  if (q.listing) fail(`${meta.name} is stored in ${groups.length} tables (complete-table): its extent cannot be ordered or paged yet`, q.candidate.pos);
  // Each branch selects its keys and its ordering values; the union is ordered and ranged as one.
  let rangeCtx: GenContext | undefined;
  const branches = groups.map((group) => {
    const f = frame(q, undefined, model, group);
    rangeCtx ??= f.ctx;
    const keys = keyOf(f.candidate).map((k, i) => sql`${k} AS ${sql.raw(`_k${i}`)}`);
    const orderValues = q.orderBy.flatMap((o) => (o.expr.type.kind === "entity" ? keyOf(compiler.entity(o.expr, f.ctx)) : [compiler.exact(o.expr, f.ctx)]));
    const ordering = orderValues.map((v, i) => sql`${v} AS ${sql.raw(`_o${i}`)}`);
    return sql`SELECT ${join([...keys, ...ordering])} FROM ${join(f.from, sql`, `)}${whereSql(f)}`;
  });
  const width = meta.keyColumns.length;
  const keyCols = Array.from({ length: width }, (_, i) => sql.raw(`_k${i}`));
  let o = 0;
  const unionOrder = q.orderBy.flatMap((item) => {
    const n = item.expr.type.kind === "entity" ? item.expr.type.meta.keyColumns.length : 1;
    const nulls = item.nulls ? sql.raw(item.nulls === "first" ? " NULLS FIRST" : " NULLS LAST") : sql``;
    return Array.from({ length: n }, () => sql`${sql.raw(`_o${o++}`)}${item.descending ? sql` DESC` : sql``}${nulls}`);
  });
  const ordering = sql` ORDER BY ${join([...unionOrder, ...keyCols])}`;
  return limited(
    sql`SELECT ${join(keyCols)}, row_number() OVER (${ordering}) AS _ord FROM (${join(branches, sql` UNION ALL `)})${ordering}${rangeSql(q, rangeCtx!)}`,
  );
}

/** The rows of a projection: one column per value, key parts for objects. */
export function projection(model: Model, q: QQuery): { sql: SQL; columns: ResultColumn[] } {
  if (q.compound) {
    // Each side is wrapped, so that precedence and each side's own clauses stay its own.
    const { op, all, left, right } = q.compound;
    const l = projection(model, left);
    const r = projection(model, right);
    const width = (cs: ResultColumn[]) => cs.reduce((n, c) => n + c.width, 0);
    if (width(l.columns) !== width(r.columns)) fail(`both sides of ${op} must select the same number of values`, right.candidate.pos);
    const starts = l.columns.map((_, i) => width(l.columns.slice(0, i)));
    const orderBy = (q.compound.orderBy ?? []).map((o) => ({ ...o, column: starts[o.item]!, width: l.columns[o.item]!.width }));
    return { sql: setOperationSql(op, all, l.sql, r.sql, width(l.columns), orderBy), columns: l.columns };
  }
  const f = frame(q, undefined, model);
  const columns: ResultColumn[] = [];
  const select: SQL[] = [];
  // Results are read into JavaScript: longs and BigIntegers (values, keys) exactly.
  const valueSql = (e: QExpr) => {
    // A BigDecimal with a sort key is selected as its stored text (run.ts writes its number).
    const value = compiler.exact(e, f.ctx);
    return e.type.kind === "number" && (e.type.numeric === "long" || e.type.numeric === "biginteger") ? exactIntegerSql(value) : value;
  };
  for (const item of q.result ?? []) {
    const type = item.expr.type;
    const parts = resultParts(model, item);
    if (parts) {
      select.push(...parts.map((p) => valueSql(p.expr)));
      columns.push({ alias: item.alias, width: parts.length, expr: item.expr, parts });
    } else if (type.kind === "entity") {
      const key = readKey(type.meta, keyOf(compiler.entity(item.expr, f.ctx)));
      select.push(...key);
      columns.push({ alias: item.alias, width: key.length, expr: item.expr });
    } else {
      select.push(valueSql(item.expr));
      columns.push({ alias: item.alias, width: 1, expr: item.expr });
    }
  }
  const distinct = q.distinct ? sql`DISTINCT ` : sql``;
  // Grouped or distinct rows are ordered by what they hold: their ordering stays as written.
  const ordering = q.groupBy.length || q.having || q.distinct || hasAggregate(q) ? f.ctx : orderingScope(q, f.ctx, f.from, f.candidate);
  const text = sql`SELECT ${distinct}${distinctNames(select, "r")} FROM ${join(f.from, sql`, `)}${whereSql(f)}${groupSql(q, f.ctx)}${orderSql(q, ordering)}${rangeSql(q, f.ctx)}`;
  return { sql: text, columns };
}

/** A subquery inside another query: a scalar value, or an EXISTS test. */
function compileSubquery(q: QQuery, outer: GenContext, mode: "scalar" | "exists"): SQL {
  const f = frame(q, outer, outer.model);
  if (mode === "exists") return sql`EXISTS (SELECT 1 FROM ${join(f.from, sql`, `)}${whereSql(f)})`;
  const item = q.result![0]!;
  const value = item.expr.type.kind === "entity" ? keyOf(compiler.entity(item.expr, f.ctx))[0]! : compiler.value(item.expr, f.ctx);
  return sql`(SELECT ${q.distinct ? sql`DISTINCT ` : sql``}${value} FROM ${join(f.from, sql`, `)}${whereSql(f)}${groupSql(q, f.ctx)}${orderSql(q, f.ctx)}${rangeSql(q, f.ctx)})`;
}

/**
 * Whether the object keyed `outer` is one of `q`'s candidates: `EXISTS (SELECT 1 FROM <q's
 * candidates> WHERE <q's filter> AND key = outer)`, a lookup by key. The access rules' filters
 * (src/access/policy.ts) hold so for each row a statement reads.
 */
export function isCandidate(model: Model, q: QQuery, outer: readonly SQL[]): SQL {
  const f = frame(q, undefined, model);
  return sql`EXISTS (SELECT 1 FROM ${join(f.from, sql`, `)} WHERE ${join([...f.where, sql`${tuple(keyOf(f.candidate))} = ${tuple(outer)}`], sql` AND `)})`;
}
