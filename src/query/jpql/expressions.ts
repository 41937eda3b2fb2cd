/**
 * JPQL expressions to the query model: paths from identification variables, parameters typed by
 * their use, JPQL's predicates (LIKE, BETWEEN, IN, MEMBER OF, IS EMPTY, EXISTS, ALL/ANY/SOME) and
 * functions, with 1-based positions converted to the model's 0-based ones.
 */
import { type ClassMeta, isAncestor } from "../../metadata/model.ts";
import { fail } from "../shared/errors.ts";
import { type FnName, type Pos, type QExpr, type QType, node } from "../shared/model.ts";
import { fieldExpr } from "../shared/navigate.ts";
import { numberOfText } from "../sql/number-text.ts";
import {
  BOOLEAN,
  DOUBLE,
  INT,
  LONG,
  NULL,
  STRING,
  UNKNOWN,
  comparable,
  describeType,
  hasPart,
  isIntegral,
  isNumber,
  longValue,
  orderable,
  promote,
} from "../shared/types.ts";
import { databaseFunction } from "./database-functions.ts";
import { entityTypeParamType, idOf, typeEqualsParam } from "./entity-types.ts";
import { listIndex } from "./list-entries.ts";
import { entityNamed } from "./names.ts";
import { type JScope, lookupVariable } from "./scope.ts";
import type { JExpr, JPathExpr } from "./syntax.ts";

const lit = (value: unknown, type: QType, pos: Pos) => node({ kind: "literal", value, type }, pos);
const ONE = (pos: Pos) => lit(1, INT, pos);

function typed(scope: JScope, e: QExpr, type: QType): QExpr {
  if (e.kind !== "param" || e.type.kind !== "unknown" || type.kind === "unknown" || type.kind === "null") return e;
  scope.params.use(e.ref.key, type, e.pos);
  return { ...e, type };
}

function requireBoolean(e: QExpr, what: string): QExpr {
  if (e.type.kind !== "boolean" && e.type.kind !== "unknown") fail(`${what} must be a condition, not ${describeType(e.type)}`, e.pos);
  return e;
}

export function bindJpqlExpr(scope: JScope, e: JExpr, expected?: QType): QExpr {
  const pos = e.pos;
  switch (e.type) {
    case "Literal":
      return literal(e, expected);
    case "NamedParam":
    case "PositionalParam": {
      const key = e.type === "NamedParam" ? e.name : e.index;
      if (e.type === "NamedParam") scope.params.implicit = true;
      else scope.params.positional = true;
      const spec = scope.params.use(key, expected && expected.kind !== "null" ? expected : UNKNOWN, pos);
      return node({ kind: "param", ref: { key, pos }, type: spec.type }, pos);
    }
    case "Path":
      return path(scope, e);
    case "Treat": {
      const operand = bindJpqlExpr(scope, e.path as JExpr);
      const meta = entityNamed(scope.model, e.entity, pos);
      if (operand.type.kind !== "entity" || !comparable(scope.model, operand.type, { kind: "entity", meta }))
        fail(`TREAT needs an entity related to ${meta.name}`, pos);
      return node({ kind: "cast", operand, type: { kind: "entity", meta } }, pos);
    }
    case "Binary":
      return binary(scope, e);
    case "Unary": {
      const operand = bindJpqlExpr(scope, e.operand, e.op === "NOT" ? BOOLEAN : undefined);
      if (e.op === "NOT") return node({ kind: "not", operand: requireBoolean(operand, "NOT's operand"), type: BOOLEAN }, pos);
      if (operand.type.kind !== "number" && operand.type.kind !== "unknown") fail(`${e.op} needs a number`, pos);
      return e.op === "+" ? operand : node({ kind: "negate", operand, type: operand.type }, pos);
    }
    case "Between": {
      const operand = bindJpqlExpr(scope, e.operand);
      const low = typed(scope, bindJpqlExpr(scope, e.low, operand.type), operand.type);
      const high = typed(scope, bindJpqlExpr(scope, e.high, operand.type), operand.type);
      const both = node({ kind: "and", items: [compare(scope, ">=", operand, low, pos), compare(scope, "<=", operand, high, pos)], type: BOOLEAN }, pos);
      return e.not ? node({ kind: "not", operand: both, type: BOOLEAN }, pos) : both;
    }
    case "In": {
      if (e.operand.type === "Type" && e.source.kind === "list") {
        // TYPE(e) IN (A, B): an exact-class test for each listed entity.
        const tests = e.source.items.map((item) => typeComparison(scope, e.operand, item, "=", pos)!);
        const any = node({ kind: "or", items: tests, type: BOOLEAN }, pos);
        return e.not ? node({ kind: "not", operand: any, type: BOOLEAN }, pos) : any;
      }
      const operand = bindJpqlExpr(scope, e.operand);
      let test: QExpr;
      if (e.source.kind === "list") {
        const items = e.source.items.map((i) => typed(scope, bindJpqlExpr(scope, i, operand.type), operand.type));
        test = node({ kind: "or", items: items.map((i) => compare(scope, "=", operand, i, pos)), type: BOOLEAN }, pos);
      } else if (e.source.kind === "param") {
        const p = bindJpqlExpr(scope, e.source.param, { kind: "collection", element: operand.type });
        test = node({ kind: "contains", collection: typed(scope, p, { kind: "collection", element: operand.type }), element: operand, type: BOOLEAN }, pos);
      } else test = quantified(scope, "=", operand, e.source.subquery.query, "ANY", pos);
      return e.not ? node({ kind: "not", operand: test, type: BOOLEAN }, pos) : test;
    }
    case "Like": {
      const operand = bindJpqlExpr(scope, e.operand, STRING);
      const pattern = typed(scope, bindJpqlExpr(scope, e.pattern, STRING), STRING);
      const escape = e.escape ? bindJpqlExpr(scope, e.escape, STRING) : undefined;
      if (pattern.kind === "param") scope.params.specs.get(pattern.ref.key)!.like = { escape: escape?.kind === "literal" ? String(escape.value) : undefined };
      const test = node({ kind: "fn", name: "like", args: escape ? [operand, pattern, escape] : [operand, pattern], type: BOOLEAN }, pos);
      return e.not ? node({ kind: "not", operand: test, type: BOOLEAN }, pos) : test;
    }
    case "IsNull": {
      const operand = bindJpqlExpr(scope, e.operand);
      return node({ kind: "isNull", operand, negated: e.not, type: BOOLEAN }, pos);
    }
    case "IsEmpty": {
      const collection = bindJpqlExpr(scope, e.collection);
      if (collection.type.kind !== "collection" && collection.type.kind !== "map") fail("IS EMPTY needs a collection", pos);
      const test = node({ kind: "isEmpty", collection, type: BOOLEAN }, pos);
      return e.not ? node({ kind: "not", operand: test, type: BOOLEAN }, pos) : test;
    }
    case "MemberOf": {
      const collection = bindJpqlExpr(scope, e.collection as JExpr);
      if (collection.type.kind !== "collection") fail("MEMBER OF needs a collection", pos);
      const element = typed(scope, bindJpqlExpr(scope, e.element, collection.type.element), collection.type.element);
      const test = node({ kind: "contains", collection, element, type: BOOLEAN }, pos);
      return e.not ? node({ kind: "not", operand: test, type: BOOLEAN }, pos) : test;
    }
    case "Exists": {
      const query = scope.binders.subquery(scope, e.subquery.query);
      const test = node({ kind: "exists", query, type: BOOLEAN }, pos);
      return e.not ? node({ kind: "not", operand: test, type: BOOLEAN }, pos) : test;
    }
    case "Quantified":
      return fail("ALL, ANY and SOME go on the right of a comparison", pos);
    case "Subquery": {
      const query = scope.binders.subquery(scope, e.query);
      if (!query.result || query.result.length !== 1) fail("a subquery selects one expression", pos);
      return node({ kind: "subquery", query, type: query.result[0]!.expr.type }, pos);
    }
    case "Aggregate": {
      const arg = bindJpqlExpr(scope, e.arg);
      const fn = e.fn.toLowerCase() as "count" | "sum" | "avg" | "min" | "max";
      let type: QType = arg.type;
      if (fn === "count") type = LONG;
      else if (fn === "avg" || fn === "sum") {
        if (arg.type.kind !== "number" && arg.type.kind !== "unknown") fail(`${e.fn} needs a number, not ${describeType(arg.type)}`, pos);
        type =
          fn === "avg"
            ? DOUBLE
            : arg.type.kind === "number" && isIntegral(arg.type.numeric) && arg.type.numeric !== "biginteger"
              ? LONG
              : arg.type.kind === "number"
                ? arg.type
                : DOUBLE;
      } else if (!orderable(arg.type)) fail(`${e.fn} needs values that can be ordered`, pos);
      return node({ kind: "aggregate", fn, distinct: e.distinct, arg, type }, pos);
    }
    case "Case": {
      const whens = e.whens.map((w) => {
        // CASE TYPE(e) WHEN Exempt THEN ...: each WHEN is an exact-class test.
        const when =
          e.operand?.type === "Type"
            ? typeComparison(scope, e.operand, w.when, "=", w.pos)!
            : e.operand
              ? compare(scope, "=", bindJpqlExpr(scope, e.operand), bindJpqlExpr(scope, w.when), w.pos)
              : requireBoolean(bindJpqlExpr(scope, w.when, BOOLEAN), "WHEN");
        return { when, then: bindJpqlExpr(scope, w.then) };
      });
      const otherwise = bindJpqlExpr(scope, e.else, whens[0]?.then.type);
      const type = [...whens.map((w) => w.then.type), otherwise.type].find((t) => t.kind !== "null") ?? NULL;
      return node({ kind: "case", whens, otherwise, type }, pos);
    }
    case "Coalesce": {
      const args = e.args.map((a) => bindJpqlExpr(scope, a));
      return node({ kind: "fn", name: "coalesce", args, type: args.find((a) => a.type.kind !== "null")?.type ?? NULL }, pos);
    }
    case "Nullif": {
      const left = bindJpqlExpr(scope, e.left);
      return node({ kind: "fn", name: "nullif", args: [left, bindJpqlExpr(scope, e.right, left.type)], type: left.type }, pos);
    }
    case "Function":
      return fn(scope, e.name, e.args, pos);
    case "Trim": {
      const from = bindJpqlExpr(scope, e.from, STRING);
      const args = e.char ? [from, bindJpqlExpr(scope, e.char, STRING)] : [from];
      const name: FnName = e.spec === "LEADING" ? "trimLeft" : e.spec === "TRAILING" ? "trimRight" : "trim";
      return node({ kind: "fn", name, args, type: STRING }, pos);
    }
    case "Extract": {
      const from = bindJpqlExpr(scope, e.from);
      const parts: Record<string, FnName> = {
        YEAR: "year",
        QUARTER: "quarter",
        MONTH: "month1",
        WEEK: "isoWeek",
        DAY: "day",
        HOUR: "hour",
        MINUTE: "minute",
        SECOND: "second",
        DATE: "datePart",
        TIME: "timePart",
      };
      const part = parts[e.field] ?? fail(`EXTRACT(${e.field} FROM ...) is not supported`, pos);
      if (from.type.kind !== "temporal") fail("EXTRACT needs a date or time", pos);
      if (!hasPart(from.type.basic, part))
        fail(
          `a ${describeType(from.type)} has no ${e.field}: EXTRACT(${e.field} FROM ...) needs a ${["HOUR", "MINUTE", "SECOND", "TIME"].includes(e.field) ? "time of day" : "date"}`,
          pos,
        );
      const type: QType = e.field === "DATE" ? { kind: "temporal", basic: "local-date" } : e.field === "TIME" ? { kind: "temporal", basic: "local-time" } : INT;
      return node({ kind: "fn", name: part, args: [from], type }, pos);
    }
    case "Cast": {
      const operand = bindJpqlExpr(scope, e.operand);
      const type: QType =
        e.target === "STRING"
          ? STRING
          : e.target === "INTEGER"
            ? INT
            : e.target === "LONG"
              ? LONG
              : e.target === "FLOAT"
                ? { kind: "number", numeric: "float" }
                : DOUBLE;
      if (type.kind !== "number") return node({ kind: "cast", operand, type }, pos);
      if (!["number", "string", "unknown", "null"].includes(operand.type.kind))
        fail(`CAST(... AS ${e.target}) converts a number or a text, not a ${describeType(operand.type)}`, operand.pos);
      // Text written in the query is read now: a number, or the query's error (SQLite would read 'Alice' as 0).
      if (operand.kind === "literal" && typeof operand.value === "string") {
        const value = numberOfText(operand.value, type.numeric);
        if (value === undefined)
          fail(
            `${JSON.stringify(operand.value)} is not ${isIntegral(type.numeric) ? `an integer within ${e.target}'s range` : `a finite decimal number`}: CAST(... AS ${e.target}) cannot convert it`,
            operand.pos,
          );
        return lit(value, type, pos);
      }
      return node({ kind: "cast", operand, type }, pos);
    }
    case "Type": {
      // As a value (the select list), TYPE(e) is the runtime class's name; comparisons test classes.
      const operand = bindJpqlExpr(scope, e.arg as JExpr);
      if (operand.type.kind !== "entity") fail("TYPE needs an entity", pos);
      return node({ kind: "classOf", operand, type: STRING }, pos);
    }
    case "KeyValueEntry": {
      const binding = lookupVariable(scope, e.variable) ?? fail(`unknown identification variable "${e.variable}"`, pos);
      const map = binding.source?.type;
      if (map?.kind !== "map") fail(`${e.fn}(${e.variable}) needs a variable joined over a map`, pos);
      const value = node({ kind: "binding", binding, type: binding.type }, pos);
      if (e.fn === "VALUE") return value;
      if (e.fn === "KEY") return node({ kind: "entryKey", operand: value, type: map.key }, pos);
      // 3.2 §4.4.4: "can only appear in the SELECT list" (bind.ts binds it there).
      return fail(`ENTRY(${e.variable}) can only be a select item; use KEY(${e.variable}) and VALUE(${e.variable}) here`, pos);
    }
  }
}

function literal(e: Extract<JExpr, { type: "Literal" }>, expected?: QType): QExpr {
  const pos = e.pos;
  switch (e.kind) {
    case "null":
      return lit(null, NULL, pos);
    case "boolean":
      return lit(e.value, BOOLEAN, pos);
    case "string":
      // Stored text never holds U+0000 (bodies refuse it), and SQLite's pattern functions stop at it.
      if (String(e.value).includes("\u0000")) fail("a string literal holds the character U+0000, which no stored text can hold", pos);
      return lit(e.value, expected?.kind === "string" && expected.char && String(e.value).length === 1 ? expected : STRING, pos);
    case "date":
    case "time":
    case "timestamp": {
      const text = String(e.value);
      const ms = e.kind === "time" ? Date.parse(`1970-01-01T${text}Z`) : Date.parse(e.kind === "date" ? `${text}T00:00:00Z` : `${text}Z`);
      if (Number.isNaN(ms)) fail(`not a valid ${e.kind}: ${e.raw}`, pos);
      return lit(ms, { kind: "temporal", basic: e.kind === "date" ? "local-date" : e.kind === "time" ? "local-time" : "local-date-time" }, pos);
    }
    default: {
      // A long beyond 2^53 stays a BigInt (bound exactly), and so does a `BI` literal within 64
      // bits; other numbers are doubles.
      const big = typeof e.value === "bigint" ? e.value : e.kind === "biginteger" ? BigInt(String(e.value)) : undefined;
      const number = lit(big !== undefined && big < 2n ** 63n ? longValue(big) : Number(e.value), { kind: "number", numeric: e.kind }, pos);
      // The digits as written, which a BigDecimal compares with exactly (`100.10BD`, `1e-3`).
      const text = e.kind === "decimal" ? String(e.value) : e.raw?.replace(/(bd|bi|[lfd])$/i, "");
      return text && /^\d/.test(text) ? ({ ...number, text: text.replace(/\.(?=$|[eE])/, "") } as QExpr) : number;
    }
  }
}

/** `v`, `v.a.b`, a field of the implicit root, an enum literal `pkg.Enum.CONSTANT`. */
function path(scope: JScope, e: Extract<JExpr, { type: "Path" }>): QExpr {
  const pos = e.pos;
  let current: QExpr;
  let names = e.names;
  if (typeof e.head !== "string") current = bindJpqlExpr(scope, e.head as JExpr);
  else {
    const binding = lookupVariable(scope, e.head);
    if (binding) current = node({ kind: "binding", binding, type: binding.type }, pos);
    else {
      const result = !names.length ? scope.resultVariables.get(e.head.toLowerCase()) : undefined;
      if (result) return result;
      const root = scope.query.candidate;
      const meta = (root.type as { meta: ClassMeta }).meta;
      if (root.name === "this" && meta.fields.has(e.head)) {
        current = node({ kind: "binding", binding: root, type: root.type }, pos);
        names = [e.head, ...names];
      } else return enumLiteral(scope, [e.head, ...names], pos);
    }
  }
  for (const name of names) current = fieldExpr(scope.model, current, name, pos);
  return current;
}

function enumLiteral(scope: JScope, parts: string[], pos: Pos): QExpr {
  const constant = parts.at(-1)!;
  const typeName = parts.slice(0, -1).join(".");
  for (const c of scope.model.classes.values()) {
    for (const f of c.fields.values()) {
      const t = f.type.kind === "collection" ? f.type.element : f.type;
      if (t.kind === "enum" && (t.name === typeName || t.name.endsWith(`.${typeName}`)) && parts.length > 1) {
        const index = t.constants.indexOf(constant);
        if (index < 0) fail(`${typeName} has no constant ${constant}`, pos);
        return lit(f.enumOrdinal ? index : constant, { kind: "enum", type: t, ordinal: f.enumOrdinal }, pos);
      }
    }
  }
  return fail(`unknown identification variable "${parts[0]}"`, pos);
}

function compare(scope: JScope, op: "=" | "<>" | "<" | "<=" | ">" | ">=", left: QExpr, right: QExpr, pos: Pos): QExpr {
  const l = typed(scope, left, right.type);
  const r = typed(scope, right, l.type);
  if (!comparable(scope.model, l.type, r.type)) fail(`cannot compare ${describeType(l.type)} with ${describeType(r.type)}`, pos);
  if (op !== "=" && op !== "<>" && (!orderable(l.type) || !orderable(r.type))) fail(`${op} needs values that can be ordered`, pos);
  // JPQL: comparisons with NULL are unknown, never true (use IS NULL).
  if (l.type.kind === "null" || r.type.kind === "null") return lit(null, BOOLEAN, pos);
  return node({ kind: "compare", op, left: l, right: r, nullEquals: false, type: BOOLEAN }, pos);
}

/** `x op ALL (sub)` = no row of sub fails it; `x op ANY|SOME (sub)` = some row satisfies it. */
function quantified(
  scope: JScope,
  op: "=" | "<>" | "<" | "<=" | ">" | ">=",
  left: QExpr,
  sub: import("./syntax.ts").JSelectQuery,
  quantifier: "ALL" | "ANY" | "SOME",
  pos: Pos,
): QExpr {
  const query = scope.binders.subquery(scope, sub);
  const item = query.result?.[0]?.expr ?? fail("the subquery must select one expression", pos);
  const test = compare(scope, op, left, item, pos);
  query.where = quantifier === "ALL" ? and(query.where, node({ kind: "not", operand: test, type: BOOLEAN }, pos)) : and(query.where, test);
  const exists = node({ kind: "exists", query, type: BOOLEAN }, pos);
  return quantifier === "ALL" ? node({ kind: "not", operand: exists, type: BOOLEAN }, pos) : exists;
}

const and = (a: QExpr | undefined, b: QExpr): QExpr => (a ? node({ kind: "and", items: [a, b], type: BOOLEAN }, a.pos) : b);

function binary(scope: JScope, e: Extract<JExpr, { type: "Binary" }>): QExpr {
  const pos = e.pos;
  if (e.op === "AND" || e.op === "OR") {
    const l = requireBoolean(bindJpqlExpr(scope, e.left, BOOLEAN), e.op);
    const r = requireBoolean(bindJpqlExpr(scope, e.right, BOOLEAN), e.op);
    const kind = e.op === "AND" ? "and" : "or";
    const flat = (x: QExpr) => (x.kind === kind ? x.items : [x]);
    return node({ kind, items: [...flat(l), ...flat(r)], type: BOOLEAN }, pos);
  }
  if (e.op === "||") return node({ kind: "concat", items: [bindJpqlExpr(scope, e.left, STRING), bindJpqlExpr(scope, e.right, STRING)], type: STRING }, pos);
  if (e.right.type === "Quantified") return quantified(scope, e.op as "=", bindJpqlExpr(scope, e.left), e.right.subquery.query, e.right.quantifier, pos);
  if (e.op === "=" || e.op === "<>") {
    const typeTest = typeComparison(scope, e.left, e.right, e.op, pos) ?? typeComparison(scope, e.right, e.left, e.op, pos);
    if (typeTest) return typeTest;
  }
  const left = bindJpqlExpr(scope, e.left);
  const right = bindJpqlExpr(scope, e.right, left.type);
  if (["=", "<>", "<", "<=", ">", ">="].includes(e.op)) return compare(scope, e.op as "=", left, right, pos);
  const l = typed(scope, left, right.type);
  const r = typed(scope, right, l.type);
  if ((!isNumber(l.type) && l.type.kind !== "unknown") || (!isNumber(r.type) && r.type.kind !== "unknown"))
    fail(`${e.op} needs numbers, not ${describeType(l.type)} and ${describeType(r.type)}`, pos);
  const kind = (t: QType) => (t.kind === "number" ? t.numeric : "double");
  const numeric = promote(kind(l.type), kind(r.type));
  return node({ kind: "arith", op: e.op as "+", left: l, right: r, integer: isIntegral(numeric), type: { kind: "number", numeric } }, pos);
}

/** `TYPE(e) = Exempt`: an exact-class test (subclasses of Exempt are other types). */
function typeComparison(scope: JScope, typeSide: JExpr, other: JExpr, op: "=" | "<>", pos: Pos): QExpr | undefined {
  if (typeSide.type !== "Type") return undefined;
  const operand = bindJpqlExpr(scope, typeSide.arg as JExpr);
  if (operand.type.kind !== "entity") fail("TYPE needs an entity", pos);
  if (other.type === "NamedParam" || other.type === "PositionalParam") {
    // TYPE(e) = :t, the entity bound by its entity name or class name.
    const param = bindJpqlExpr(scope, other, entityTypeParamType(scope.model));
    const test = typeEqualsParam(scope.model, operand as QExpr & { type: { kind: "entity" } }, param, pos);
    return op === "=" ? test : node({ kind: "not", operand: test, type: BOOLEAN }, pos);
  }
  let meta: ClassMeta;
  if (other.type === "Path" && typeof other.head === "string") meta = entityNamed(scope.model, [other.head, ...other.names].join("."), other.pos);
  else return fail("TYPE(...) is compared with an entity name or a parameter", other.pos);
  if (!isAncestor(scope.model, operand.type.meta.name, meta.name) && !isAncestor(scope.model, meta.name, operand.type.meta.name))
    fail(`${meta.name} is not a type of ${operand.type.meta.name}`, pos);
  const test = node({ kind: "instanceOf", operand, classes: [meta], type: BOOLEAN }, pos);
  return op === "=" ? test : node({ kind: "not", operand: test, type: BOOLEAN }, pos);
}

function fn(scope: JScope, name: string, rawArgs: JExpr[], pos: Pos): QExpr {
  const arg = (i: number, t?: QType) => typed(scope, bindJpqlExpr(scope, rawArgs[i]!, t), t ?? UNKNOWN);
  const call = (f: FnName, args: QExpr[], type: QType) => node({ kind: "fn", name: f, args, type }, pos);
  const minus1 = (e: QExpr) => node({ kind: "arith", op: "-", left: e, right: ONE(pos), integer: true, type: INT }, pos);
  const plus1 = (e: QExpr) => node({ kind: "arith", op: "+", left: e, right: ONE(pos), integer: true, type: INT }, pos);
  switch (name) {
    case "CONCAT":
      return node({ kind: "concat", items: rawArgs.map((_, i) => arg(i, STRING)), type: STRING }, pos);
    case "SUBSTRING": {
      // 1-based start and a length → the model's 0-based [begin, end).
      const s = arg(0, STRING);
      const begin = minus1(arg(1, INT));
      if (rawArgs.length < 3) return call("substring", [s, begin], STRING);
      const end = node({ kind: "arith", op: "+", left: begin, right: arg(2, INT), integer: true, type: INT }, pos);
      return call("substring", [s, begin, end], STRING);
    }
    case "LOCATE": {
      // LOCATE(search, s[, start]): 1-based, 0 when absent.
      const args = [arg(1, STRING), arg(0, STRING), ...(rawArgs.length > 2 ? [minus1(arg(2, INT))] : [])];
      return plus1(call("indexOf", args, INT));
    }
    case "LOWER":
      return call("lower", [arg(0, STRING)], STRING);
    case "UPPER":
      return call("upper", [arg(0, STRING)], STRING);
    case "LENGTH":
      return call("length", [arg(0, STRING)], INT);
    case "LEFT":
      return call("left", [arg(0, STRING), arg(1, INT)], STRING);
    case "RIGHT":
      return call("right", [arg(0, STRING), arg(1, INT)], STRING);
    case "REPLACE":
      return call("replace", [arg(0, STRING), arg(1, STRING), arg(2, STRING)], STRING);
    case "ABS": {
      const a = arg(0, DOUBLE);
      return call("abs", [a], a.type);
    }
    case "SQRT":
      return call("sqrt", [arg(0, DOUBLE)], DOUBLE);
    case "MOD":
      return call("mod", [arg(0, INT), arg(1, INT)], INT);
    case "CEILING":
      return call("ceil", [arg(0, DOUBLE)], DOUBLE);
    case "FLOOR":
      return call("floor", [arg(0, DOUBLE)], DOUBLE);
    case "EXP":
      return call("exp", [arg(0, DOUBLE)], DOUBLE);
    case "LN":
      return call("log", [arg(0, DOUBLE)], DOUBLE);
    case "POWER":
      return call("power", [arg(0, DOUBLE), arg(1, DOUBLE)], DOUBLE);
    case "ROUND":
      return call("roundTo", [arg(0, DOUBLE), arg(1, INT)], DOUBLE);
    case "SIGN":
      return call("sign", [arg(0, DOUBLE)], INT);
    case "SIZE": {
      const c = arg(0);
      if (c.type.kind !== "collection" && c.type.kind !== "map") fail("SIZE needs a collection", pos);
      return node({ kind: "size", collection: c, type: INT }, pos);
    }
    case "ID": {
      const e = arg(0);
      if (e.type.kind !== "entity") fail("ID needs an entity", pos);
      return idOf(scope.model, e as QExpr & { type: { kind: "entity" } }, pos);
    }
    case "VERSION": {
      const e = arg(0);
      if (e.type.kind !== "entity") fail("VERSION needs an entity", pos);
      return node({ kind: "version", operand: e, type: LONG }, pos);
    }
    case "CURRENT_DATE":
    case "LOCAL DATE":
      return call("currentDate", [], { kind: "temporal", basic: "local-date" });
    case "CURRENT_TIME":
    case "LOCAL TIME":
      return call("currentTime", [], { kind: "temporal", basic: "local-time" });
    case "CURRENT_TIMESTAMP":
    case "LOCAL DATETIME":
      return call("currentTimestamp", [], { kind: "temporal", basic: "local-date-time" });
    case "INDEX":
      return listIndex(scope, rawArgs[0], pos);
    case "FUNCTION": {
      const fnName = rawArgs[0] as Extract<JExpr, { type: "Literal" }>;
      const args = rawArgs.slice(1).map((a) => bindJpqlExpr(scope, a));
      return databaseFunction(String(fnName.value), fnName.pos, args, pos);
    }
    default:
      return fail(`${name}(...) is not supported`, pos);
  }
}

export type { JPathExpr };
