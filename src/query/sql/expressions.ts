/**
 * Query-model expressions to SQL. Values are always bound parameters (never text); JDOQL's null
 * semantics come from the model's `nullEquals` flag; positions are 0-based here.
 */
import { valueArrayJson } from "../../mapping/value-tables.ts";
import { keyFieldColumns } from "../../mapping/keys.ts";
import type { ClassMeta, FieldMeta } from "../../metadata/model.ts";
import { relationStorage } from "../../mapping/relation-storage.ts";
import { type SQL, join, qualified, sql, tuple } from "../../store/sql.ts";
import { fail, internal } from "../shared/errors.ts";
import { decimalKey as decimalKeyOf } from "../../json/decimal.ts";
import { decimalOf } from "../../json/exact.ts";
import { decimalRealSql } from "../../json/sql-values.ts";
import type { Binding, QExpr, QType } from "../shared/model.ts";
import type { GenContext } from "./context.ts";
import { placeholder } from "./context.ts";
import { type EntityRef, classNameOf, columnOf, instanceOf, keyEquals, keyOf, narrow, rowsOfClass, tableOfField, versionOf } from "./entities.ts";
import { fnSql } from "./functions.ts";
import { listIndexSql } from "./list-index.ts";
import { longArith } from "./long-arith.ts";
import { numberOfTextSql } from "./number-text.ts";
import { computedOnce } from "./once.ts";
import { semijoin } from "./semijoin.ts";
import { RangeCompiler, unboundVariables } from "./ranges.ts";
import { isIntegral } from "../shared/types.ts";

const isLong = (e: QExpr) => e.type.kind === "number" && e.type.numeric === "long";

/** Compiles subqueries (`select.ts` provides it; passed in to keep the modules acyclic). */
export type SubqueryCompiler = (query: import("../shared/model.ts").QQuery, ctx: GenContext, mode: "scalar" | "exists") => SQL;

export class ExprCompiler extends RangeCompiler {
  constructor(readonly subquery: SubqueryCompiler) {
    super();
  }

  // -------------------------------------------------------------------------------------------
  // Objects

  entity(e: QExpr, ctx: GenContext): EntityRef {
    const model = ctx.model;
    if (e.type.kind !== "entity") fail(`expected a persistent object, not ${e.type.kind}`, e.pos);
    const meta = e.type.meta;
    const row = ctx.overridden(e);
    if (row) return row;
    switch (e.kind) {
      case "binding": {
        const bound = ctx.lookup(e.binding);
        if (!bound || bound.kind !== "entity") internal(`unbound ${e.binding.name}`);
        return bound.ref;
      }
      case "param":
        return { kind: "key", meta, key: meta.keyColumns.map((_, i) => placeholder(e.ref, i)) };
      case "literal":
        // null, or a single key value compared with an object id (jdoql/object-ids.ts).
        return {
          kind: "key",
          meta,
          key: meta.keyColumns.map(() => (e.value === null ? sql`NULL` : typeof e.value === "bigint" ? sql`CAST(${e.value} AS INTEGER)` : sql`${e.value}`)),
        };
      case "cast":
        return narrow(model, this.entity(e.operand, ctx), meta);
      case "objectId":
        return this.entity(e.operand, ctx);
      case "field":
        return this.navigate(e.from, e.field, meta, ctx);
      case "case":
        return {
          kind: "key",
          meta,
          key: meta.keyColumns.map(
            (_, i) =>
              sql`CASE ${join(
                e.whens.map((w) => sql`WHEN ${this.cond(w.when, ctx, true)} THEN ${keyOf(this.entity(w.then, ctx))[i]}`),
                sql` `,
              )} ELSE ${keyOf(this.entity(e.otherwise, ctx))[i]} END`,
          ),
        };
      case "listGet":
        return {
          kind: "key",
          meta,
          key: meta.keyColumns.map(
            (_, i) => sql`(SELECT ${sql.raw(`_e${i}`)} FROM (${this.orderedElements(e.list, ctx)}) LIMIT 1 OFFSET ${this.value(e.index, ctx)})`,
          ),
        };
      case "subquery":
        if (meta.keyColumns.length !== 1) fail("a subquery selecting objects with composite keys is not supported", e.pos);
        return { kind: "key", meta, key: [this.subquery(e.query, ctx, "scalar")] };
      default:
        return fail(`cannot use this expression as a persistent object`, e.pos);
    }
  }

  /** The object a to-one field refers to. */
  private navigate(from: QExpr, field: FieldMeta, target: ClassMeta, ctx: GenContext): EntityRef {
    const owner = this.entity(from, ctx);
    if (!field.relation) internal(`${field.name} is not a relation`);
    const s = relationStorage(ctx.model, field);
    if (s.kind === "owner-fk") return { kind: "key", meta: target, key: s.columns.map((c) => columnOf(ctx.model, owner, field, c)) };
    if (s.kind === "target-fk") {
      const table = tableOfField(ctx.model, target, s.owning);
      const ownerKey = keyOf(owner);
      return {
        kind: "key",
        meta: target,
        key: target.keyColumns.map(
          (k) =>
            sql`(${rowsOfClass(
              ctx.model,
              target,
              table,
              (x) => [qualified(x, k)],
              (x) => keyEquals(s.columns, ownerKey, x),
              ctx.nextAlias,
            )} LIMIT 1)`,
        ),
      };
    }
    return fail(`navigation through ${field.name} (a ${s.inverse ? "join-inverse" : "join-table"} relation) is not supported`);
  }

  // -------------------------------------------------------------------------------------------
  // Values

  value(e: QExpr, ctx: GenContext): SQL {
    if (e.type.kind === "entity") {
      const key = keyOf(this.entity(e, ctx));
      if (key.length !== 1) fail("an object with a composite key cannot be used as a single value here", e.pos);
      return key[0]!;
    }
    switch (e.kind) {
      case "literal":
        // A long beyond 2^53 is a BigInt: an integer wherever it is bound (D1 binds it as text).
        if (typeof e.value === "bigint") return sql`CAST(${e.value} AS INTEGER)`;
        return e.value === null ? sql`NULL` : sql`${typeof e.value === "boolean" ? (e.value ? 1 : 0) : e.value}`;
      case "param":
        // An integral parameter is bound as its digits (params.ts: drivers bind a number as a
        // REAL, and a long past 2^53 has no number), which only a column of INTEGER affinity
        // reads as a number; `+ 0` makes the integer of them, and keeps a fraction given a fraction.
        return e.type.kind === "number" && isIntegral(e.type.numeric) ? sql`(${placeholder(e.ref)} + 0)` : placeholder(e.ref);
      case "binding": {
        const bound = ctx.lookup(e.binding);
        if (!bound || bound.kind !== "value") internal(`unbound ${e.binding.name}`);
        return bound.value;
      }
      case "field": {
        // A BigDecimal column holds its sort key and number (src/json/decimal.ts): as a value, the number.
        const v = this.fieldValue(e, ctx);
        return isDecimal(e.type) ? decimalRealSql(v) : v;
      }
      case "arith": {
        const l = this.numeric(e.left, ctx);
        const r = this.numeric(e.right, ctx);
        // Past 64 bits a long wraps around, as Java's does (SQLite would answer a double).
        if (isLong(e) && e.op !== "%") return longArith(e.op, l, r);
        // Java's integer division and remainder truncate toward zero, as SQLite's do on integers.
        if (e.integer && (e.op === "/" || e.op === "%")) return sql`(CAST(${l} AS INTEGER) ${sql.raw(e.op)} CAST(${r} AS INTEGER))`;
        if (e.op === "/") return sql`(CAST(${l} AS REAL) / ${r})`;
        return sql`(${l} ${sql.raw(e.op)} ${r})`;
      }
      case "negate":
        // -Long.MIN_VALUE is Long.MIN_VALUE in Java.
        return isLong(e) ? longArith("-", sql`0`, this.numeric(e.operand, ctx)) : sql`(- ${this.value(e.operand, ctx)})`;
      case "bitnot":
        return sql`(~ ${this.value(e.operand, ctx)})`;
      case "concat":
        return sql`(${join(
          e.items.map((i) => this.value(i, ctx)),
          sql` || `,
        )})`;
      case "fn":
        return fnSql(
          e,
          e.args.map((a) => this.value(a, ctx)),
        );
      case "cast": {
        if (e.type.kind !== "number") return this.value(e.operand, ctx);
        // Text is read as Java reads a number (else null); a char is its code point, as (int) 'A' is 65.
        const t = e.operand.type;
        const target = e.type.numeric;
        const numberCast = (v: SQL) => sql`CAST(${v} AS ${sql.raw(isIntegral(target) ? "INTEGER" : "REAL")})`;
        if (t.kind === "string" && !t.char) return numberOfTextSql(this.value(e.operand, ctx), target);
        // A parameter of no known type is text or a number only when the query runs.
        if (t.kind === "unknown")
          return computedOnce(
            [this.value(e.operand, ctx)],
            ([v]) => sql`(CASE WHEN typeof(${v}) = 'text' THEN ${numberOfTextSql(v!, target)} ELSE ${numberCast(v!)} END)`,
          );
        return numberCast(this.numeric(e.operand, ctx));
      }
      case "aggregate":
        return this.aggregate(e, ctx);
      case "case":
        return sql`CASE ${join(
          e.whens.map((w) => sql`WHEN ${this.cond(w.when, ctx, true)} THEN ${this.value(w.then, ctx)}`),
          sql` `,
        )} ELSE ${this.value(e.otherwise, ctx)} END`;
      case "subquery":
        return this.subquery(e.query, ctx, "scalar");
      case "size":
        return sql`(SELECT COUNT(*) FROM (${this.elements(e.collection, ctx).sql}))`;
      case "mapGet":
        return sql`(SELECT value FROM json_each(${this.value(e.map, ctx)}) WHERE key = ${this.mapKey(e.key, ctx)})`;
      case "listGet":
        return sql`(SELECT ${sql.raw("_e0")} FROM (${this.orderedElements(e.list, ctx)}) LIMIT 1 OFFSET ${this.value(e.index, ctx)})`;
      case "entryKey": {
        const bound = e.operand.kind === "binding" ? ctx.lookup(e.operand.binding) : undefined;
        if (!bound || bound.kind !== "value" || !bound.key) fail("KEY(...) needs a variable joined over a map", e.pos);
        return bound.key;
      }
      case "classOf":
        return classNameOf(ctx.model, this.entity(e.operand, ctx));
      case "listIndex":
        return listIndexSql(e, ctx, (owner) => this.entity(owner, ctx));
      case "version": {
        const of = this.entity(e.operand, ctx);
        return !of.meta.version && e.nullWhenUnversioned ? sql`NULL` : versionOf(of, e.pos);
      }
      default:
        // Conditions used as values: SQLite gives 1, 0 or NULL.
        return sql`(${this.cond(e, ctx)})`;
    }
  }

  /**
   * The value as it compares and orders exactly: a BigDecimal's sort key where the expression
   * has one (`decimalKey`), else the value. For ORDER BY, GROUP BY, results and null tests.
   */
  exact(e: QExpr, ctx: GenContext): SQL {
    return (isDecimal(e.type) && this.decimalKey(e, ctx)) || this.value(e, ctx);
  }

  /**
   * A BigDecimal's sort key (src/json/decimal.ts), which compares and orders as the number does,
   * exactly, for what has one: a BigDecimal column; a number literal or parameter, encoded the
   * same way (a parameter's key is bound as `<name>.key`, params.ts); min/max of a column.
   * Undefined for the rest (arithmetic, functions, values inside collections), which are numbers.
   */
  decimalKey(e: QExpr, ctx: GenContext): SQL | undefined {
    switch (e.kind) {
      case "field":
        return isDecimal(e.type) && (e.field.column || e.from.type.kind === "embedded" || e.field.primaryKey) ? this.fieldValue(e, ctx) : undefined;
      case "literal": {
        if (e.type.kind !== "number") return undefined;
        const d = decimalOf(e.text ?? String(e.value));
        return d ? sql`${decimalKeyOf(d)}` : undefined;
      }
      case "param":
        return e.type.kind === "number" ? placeholder(e.ref, "key") : undefined;
      case "aggregate": {
        if (e.fn !== "min" && e.fn !== "max") return undefined;
        const key = this.decimalKey(e.arg, ctx);
        return key && isDecimal(e.arg.type) ? sql`${sql.raw(e.fn.toUpperCase())}(${e.distinct ? sql`DISTINCT ` : sql``}${key})` : undefined;
      }
      default:
        return undefined;
    }
  }

  /** A value in numeric context: a char is its code point, as in Java. */
  private numeric(e: QExpr, ctx: GenContext): SQL {
    const v = this.value(e, ctx);
    return e.type.kind === "string" && e.type.char ? sql`unicode(${v})` : v;
  }

  fieldValue(e: Extract<QExpr, { kind: "field" }>, ctx: GenContext): SQL {
    const from = e.from;
    if (from.type.kind === "embedded" && from.kind === "field") {
      // An embedded object's fields are columns of its owner's row.
      const column = from.field.embeddedColumns?.[e.field.name];
      if (!column) internal(`no column for ${from.field.name}.${e.field.name}`);
      return columnOf(ctx.model, this.entity(from.from, ctx), from.field, column);
    }
    const owner = this.entity(from, ctx);
    if (e.field.primaryKey) {
      const parts = keyFieldColumns(owner.meta);
      const i = parts.findIndex((p) => p.field === e.field.name);
      return keyOf(owner)[i]!;
    }
    // The version's field-name field is no column of its own: it reads the version.
    if (e.field.isVersionField) return versionOf(owner, e.pos);
    // A collection kept in its own table is the JSON array its column would hold (src/mapping/value-tables.ts).
    if (e.field.valueTable) return valueArrayJson(e.field, keyOf(owner));
    if (!e.field.column) fail(`${e.field.name} cannot be used as a value here`, e.pos);
    return columnOf(ctx.model, owner, e.field, e.field.column);
  }

  private aggregate(e: Extract<QExpr, { kind: "aggregate" }>, ctx: GenContext): SQL {
    const distinct = e.distinct ? sql`DISTINCT ` : sql``;
    if (e.arg.type.kind === "entity") {
      const key = keyOf(this.entity(e.arg, ctx));
      if (e.fn !== "count") fail(`${e.fn} of persistent objects is not defined`, e.pos);
      const counted = key.length === 1 ? key[0]! : sql`json_array(${join(key)})`;
      return sql`COUNT(${distinct}${counted})`;
    }
    // min/max of BigDecimals, as a value: the number of the least or greatest sort key.
    const key = this.decimalKey(e, ctx);
    if (key) return decimalRealSql(key);
    // A count of distinct BigDecimals counts distinct values, not distinct doubles.
    const v = e.fn === "count" ? this.exact(e.arg, ctx) : this.value(e.arg, ctx);
    const fn = sql.raw(e.fn.toUpperCase());
    if (e.fn === "avg") return sql`AVG(${distinct}CAST(${v} AS REAL))`;
    return sql`${fn}(${distinct}${v})`;
  }

  private mapKey(k: QExpr, ctx: GenContext): SQL {
    // JSON object keys are text.
    return k.type.kind === "string" ? this.value(k, ctx) : sql`CAST(${this.value(k, ctx)} AS TEXT)`;
  }

  // -------------------------------------------------------------------------------------------
  // Conditions

  /**
   * A condition: 1, 0 or NULL as JDOQL and JPQL mean it. `truth`: only whether it is true matters
   * (a WHERE, ON, HAVING or WHEN, through AND and OR), so NULL and false may be told apart less,
   * for the forms SQLite plans better (semi-joins, `IS`).
   */
  cond(e: QExpr, ctx: GenContext, truth = false): SQL {
    const semi = truth ? semijoin(this, e, ctx) : undefined;
    if (semi) return semi;
    switch (e.kind) {
      case "and":
        return this.conjunction(e.items, ctx, truth);
      case "or":
        return sql`(${join(
          e.items.map((i) => this.scoped(i, ctx, truth)),
          sql` OR `,
        )})`;
      case "not":
        return sql`(NOT ${this.scoped(e.operand, ctx)})`;
      case "compare":
        return this.compare(e, ctx, truth);
      case "isNull": {
        if (e.operand.type.kind === "collection" || e.operand.type.kind === "map") {
          // Collections in join tables or foreign keys are never null, only empty; values in JSON may be.
          if (e.operand.kind !== "field" || e.operand.field.relation) return e.negated ? sql`1` : sql`0`;
        }
        if (e.operand.type.kind === "embedded" && e.operand.kind === "field") {
          // An embedded object is null when all its columns are.
          const owner = this.entity(e.operand.from, ctx);
          const field = e.operand.field;
          const nulls = Object.values(field.embeddedColumns ?? {}).map((c) => sql`${columnOf(ctx.model, owner, field, c)} IS NULL`);
          const all = sql`(${join(nulls, sql` AND `)})`;
          return e.negated ? sql`(NOT ${all})` : all;
        }
        const test = e.operand.type.kind === "entity" ? keyOf(this.entity(e.operand, ctx))[0]! : this.exact(e.operand, ctx);
        return sql`(${test} IS ${e.negated ? sql`NOT ` : sql``}NULL)`;
      }
      case "contains": {
        // A BigDecimal column among given BigDecimals: by sort keys (a parameter's are bound as `<name>.key`).
        const key = isDecimal(e.element.type) ? this.decimalKey(e.element, ctx) : undefined;
        const given =
          e.collection.kind === "param" && e.collection.type.kind === "collection" && e.collection.type.element.kind === "number"
            ? sql`SELECT value FROM json_each(${placeholder(e.collection.ref, "key")})`
            : e.collection.kind === "list"
              ? this.listKeys(e.collection, ctx)
              : undefined;
        if (key && given) return sql`(${key} IN (${given}))`;
        const elements = this.elements(e.collection, ctx);
        const element = e.element.type.kind === "entity" ? tuple(keyOf(this.entity(e.element, ctx))) : this.value(e.element, ctx);
        return sql`(${element} IN (${elements.sql}))`;
      }
      case "isEmpty":
        return sql`(NOT EXISTS (${this.elements(e.collection, ctx).sql}))`;
      case "containsKey":
        return sql`EXISTS (SELECT 1 FROM json_each(${this.value(e.map, ctx)}) WHERE key = ${this.mapKey(e.key, ctx)})`;
      case "containsValue":
        return sql`EXISTS (SELECT 1 FROM json_each(${this.value(e.map, ctx)}) WHERE value = ${this.value(e.value, ctx)})`;
      case "instanceOf":
        return instanceOf(ctx.model, this.entity(e.operand, ctx), e.classes);
      case "exists":
        return this.subquery(e.query, ctx, "exists");
      case "literal":
        return e.value === null ? sql`NULL` : e.value ? sql`1` : sql`0`;
      case "fn":
        return fnSql(
          e,
          e.args.map((a) => this.value(a, ctx)),
        );
      default:
        return sql`(${this.value(e, ctx)} = 1)`;
    }
  }

  /** `truth`: JDOQL's null == null as `IS`, which SQLite can search an index for (NULL and false differ). */
  private compare(e: Extract<QExpr, { kind: "compare" }>, ctx: GenContext, truth = false): SQL {
    const op = sql.raw(e.op);
    if (e.left.type.kind === "entity" || e.right.type.kind === "entity") {
      const l = keyOf(this.entity(e.left, ctx));
      const r = keyOf(this.entity(e.right, ctx));
      const eq = sql`${tuple(l)} ${op} ${tuple(r)}`;
      if (!e.nullEquals || e.op !== "=") return sql`(${eq})`;
      return truth && l.length === 1 ? sql`(${l[0]} IS ${r[0]})` : sql`(${eq} OR (${l[0]} IS NULL AND ${r[0]} IS NULL))`;
    }
    // BigDecimals compare by their sort keys where both sides have one (a column with a literal,
    // a parameter, another column): exactly, and by the column's index.
    if (isDecimal(e.left.type) || isDecimal(e.right.type)) {
      const l = this.decimalKey(e.left, ctx);
      const r = l && this.decimalKey(e.right, ctx);
      if (l && r) {
        const canBothBeNull = e.left.kind !== "literal" && e.right.kind !== "literal";
        if (e.nullEquals && e.op === "=" && canBothBeNull) return nullSafeEquals(l, r, truth);
        return sql`(${l} ${op} ${r})`;
      }
    }
    // A char compared with a number is its code point.
    const numericSide = e.left.type.kind === "number" || e.right.type.kind === "number";
    const l = numericSide ? this.numeric(e.left, ctx) : this.value(e.left, ctx);
    const r = numericSide ? this.numeric(e.right, ctx) : this.value(e.right, ctx);
    // JDOQL: null == null is true. A literal on either side is never null, so plain SQL suffices.
    const canBothBeNull = e.left.kind !== "literal" && e.right.kind !== "literal";
    if (e.nullEquals && e.op === "=" && canBothBeNull) return nullSafeEquals(l, r, truth);
    return sql`(${l} ${op} ${r})`;
  }

  /**
   * A conjunction whose items use variables not bound yet: the items that use a variable move
   * into `EXISTS (SELECT 1 FROM <the variable's range> WHERE ...)`, the variable's range being
   * the collection of its `contains()` (or its class's extent). So `!(c.contains(v) && p(v))`
   * reads "no element satisfies p", as JDOQL means.
   */
  conjunction(items: readonly QExpr[], ctx: GenContext, truth = false): SQL {
    const pending = items.flatMap((i) => (i.kind === "and" ? i.items : [i]));
    const parts: SQL[] = [];
    // Variables that a positive item (not under ! or ||) uses: their EXISTS covers the conjunction.
    // A variable used only under ! or || is scoped inside it (`!(c.contains(v) && p(v))`: no element).
    const anchored = (item: QExpr) => (item.kind === "not" || item.kind === "or" ? [] : unboundVariables(item, ctx));
    for (;;) {
      const variable = pending.flatMap(anchored)[0];
      if (!variable) break;
      const group: QExpr[] = [];
      const vars = new Set<Binding>([variable]);
      // Items using the variable (and, transitively, the other variables they use).
      for (let grew = true; grew;) {
        grew = false;
        for (const item of [...pending]) {
          const used = unboundVariables(item, ctx);
          if (used.some((v) => vars.has(v))) {
            used.forEach((v) => vars.add(v));
            group.push(item);
            pending.splice(pending.indexOf(item), 1);
            grew = true;
          }
        }
      }
      parts.push(this.existsOver([...vars], group, ctx));
    }
    parts.unshift(...pending.map((i) => this.cond(i, ctx, truth)));
    if (!parts.length) return sql`1`;
    return parts.length === 1 ? parts[0]! : sql`(${join(parts, sql` AND `)})`;
  }

  /** A condition using unbound variables: scoped as a one-item conjunction (a `!` scopes inside itself). */
  scoped(e: QExpr, ctx: GenContext, truth = false): SQL {
    if (!unboundVariables(e, ctx).length || e.kind === "not" || e.kind === "or") return this.cond(e, ctx, truth);
    return this.conjunction([e], ctx, truth);
  }

  /** A literal list's items as BigDecimal sort keys, when each has one. */
  private listKeys(list: Extract<QExpr, { kind: "list" }>, ctx: GenContext): SQL | undefined {
    const keys = list.items.map((i) => this.decimalKey(i, ctx));
    return keys.length && keys.every((k) => k) ? sql`SELECT value FROM json_each(json_array(${join(keys as SQL[])}))` : undefined;
  }
}

/** JDOQL's `==`: null equals null. Where only truth matters, SQLite's `IS`, which an index serves. */
const nullSafeEquals = (l: SQL, r: SQL, truth: boolean): SQL => (truth ? sql`(${l} IS ${r})` : sql`(${l} = ${r} OR (${l} IS NULL AND ${r} IS NULL))`);

/** A BigDecimal: its column holds a sort key and its number (src/json/decimal.ts). */
const isDecimal = (t: QType): boolean => t.kind === "number" && t.numeric === "decimal";
