/**
 * JDOQL's methods: String, Collection, Map, date parts, enum, Math and JDOHelper, each checked
 * for its receiver and arguments and turned into a query-model node. Positions are Java's
 * (0-based); the SQL generator does the conversion.
 */
import { fail } from "../shared/errors.ts";
import { RegexRefusal, regexToGlob } from "../shared/java-regex.ts";
import { type FnName, type Pos, type QExpr, type QType, node } from "../shared/model.ts";
import { BOOLEAN, DOUBLE, INT, STRING, comparable, describeType, hasPart } from "../shared/types.ts";
import { type Scope, retypeParam } from "./scope.ts";
import { positionInLiteral } from "./literal-positions.ts";
import type { SExpr } from "./syntax.ts";

type Call = Extract<SExpr, { type: "Call" }>;

function arity(call: Call, ...allowed: number[]): void {
  if (!allowed.includes(call.args.length))
    fail(`${call.name} takes ${allowed.join(" or ")} argument${allowed.at(-1) === 1 ? "" : "s"}, not ${call.args.length}`, call.pos);
}

function args(scope: Scope, call: Call, types: QType[]): QExpr[] {
  return call.args.map((a, i) => {
    const bound = scope.binders.expr(scope, a, types[i]);
    const want = types[i];
    const typed = bound.kind === "param" && bound.type.kind === "unknown" && want ? retypeParam(scope, bound, want) : bound;
    if (want && !accepts(want, typed.type)) fail(`argument ${i + 1} of ${call.name} must be ${describeType(want)}, not ${describeType(typed.type)}`, a.pos);
    return typed;
  });
}

function accepts(want: QType, got: QType): boolean {
  if (got.kind === "unknown" || got.kind === "null") return true;
  if (want.kind === "number") return got.kind === "number" || (got.kind === "string" && got.char === true);
  if (want.kind === "string") return got.kind === "string";
  return want.kind === got.kind;
}

const UNKNOWN_TYPE: QType = { kind: "unknown" };

const asCollection = (scope: Scope, e: QExpr): QExpr =>
  e.kind === "param" && e.type.kind === "unknown" ? retypeParam(scope, e, { kind: "collection", element: UNKNOWN_TYPE }) : e;

const STRING_METHODS = new Set([
  "startsWith",
  "endsWith",
  "indexOf",
  "substring",
  "toLowerCase",
  "toUpperCase",
  "length",
  "trim",
  "trimLeft",
  "trimRight",
  "charAt",
  "matches",
  "equals",
  "equalsIgnoreCase",
  "concat",
]);

const fn = (name: FnName, a: QExpr[], type: QType, pos: Pos) => node({ kind: "fn", name, args: a, type }, pos);

const STATIC_RECEIVERS = new Set(["Math", "java.lang.Math", "JDOHelper", "javax.jdo.JDOHelper"]);

function staticName(e: SExpr | null): string | undefined {
  if (!e) return undefined;
  if (e.type === "Name") return e.name;
  if (e.type === "Member") {
    const head = staticName(e.object);
    return head && `${head}.${e.name}`;
  }
  return undefined;
}

export function bindCall(scope: Scope, call: Call): QExpr {
  const receiverName = staticName(call.object);
  if (receiverName && STATIC_RECEIVERS.has(receiverName) && !scope.variables.has(receiverName)) return bindStatic(scope, receiverName, call);
  if (!call.object) fail(`unknown method ${call.name}(): JDOQL has no functions besides aggregates and the methods of values`, call.pos);
  const receiver = scope.binders.expr(scope, call.object);
  const t = receiver.type;
  const pos = call.pos;
  if (isOptional(receiver) && OPTIONAL_METHODS.has(call.name)) return bindOptional(scope, receiver, call);

  if (t.kind === "string" || (t.kind === "unknown" && receiver.kind === "param" && STRING_METHODS.has(call.name))) {
    const s = t.kind === "unknown" ? retypeParam(scope, receiver, STRING) : receiver;
    switch (call.name) {
      case "startsWith":
        arity(call, 1, 2);
        return fn("startsWith", [s, ...args(scope, call, [STRING, INT])], BOOLEAN, pos);
      case "endsWith":
        arity(call, 1);
        return fn("endsWith", [s, ...args(scope, call, [STRING])], BOOLEAN, pos);
      case "indexOf":
        arity(call, 1, 2);
        return fn("indexOf", [s, ...args(scope, call, [STRING, INT])], INT, pos);
      case "substring": {
        arity(call, 1, 2);
        const indexes = args(scope, call, [INT, INT]);
        checkIndexes(s, indexes, "substring");
        return node({ kind: "fn", name: "substring", args: [s, ...indexes], javaBounds: true, type: STRING }, pos);
      }
      case "toLowerCase":
      case "toUpperCase":
        arity(call, 0);
        return fn(call.name === "toLowerCase" ? "lower" : "upper", [s], STRING, pos);
      case "length":
        arity(call, 0);
        return fn("length", [s], INT, pos);
      case "trim":
      case "trimLeft":
      case "trimRight":
        arity(call, 0);
        return fn(call.name, [s], STRING, pos);
      case "charAt": {
        arity(call, 1);
        const index = args(scope, call, [INT]);
        checkIndexes(s, index, "charAt");
        return node({ kind: "fn", name: "charAt", args: [s, ...index], javaBounds: true, type: { kind: "string", char: true } }, pos);
      }
      case "matches": {
        arity(call, 1);
        const [pattern] = args(scope, call, [STRING]);
        if (pattern!.kind !== "literal" && pattern!.kind !== "param") fail("matches() takes a literal or parameter pattern", call.args[0]!.pos);
        if (pattern!.kind === "param") scope.params.specs.get(pattern!.ref.key)!.pattern = true;
        else checkPattern(call.args[0]!);
        return fn("matches", [s, pattern!], BOOLEAN, pos);
      }
      case "equals":
        arity(call, 1);
        return node({ kind: "compare", op: "=", left: s, right: args(scope, call, [STRING])[0]!, nullEquals: true, type: BOOLEAN }, pos);
      case "equalsIgnoreCase":
        arity(call, 1);
        return fn("equalsIgnoreCase", [s, ...args(scope, call, [STRING])], BOOLEAN, pos);
      case "concat":
        arity(call, 1);
        return node({ kind: "concat", items: [s, ...args(scope, call, [STRING])], type: STRING }, pos);
    }
    if (t.kind === "string") fail(`String has no method ${call.name}() that JDOQL supports`, pos);
  }

  if (t.kind === "collection" || (t.kind === "unknown" && receiver.kind === "param")) {
    switch (call.name) {
      case "contains": {
        arity(call, 1);
        const element = scope.binders.expr(scope, call.args[0]!, t.kind === "collection" ? t.element : undefined);
        const elementType = t.kind === "collection" ? t.element : element.type;
        // A collection parameter takes its element type from what it is asked to contain.
        const untypedElements = t.kind === "unknown" || (t.kind === "collection" && t.element.kind === "unknown");
        const coll =
          receiver.kind === "param" && untypedElements
            ? retypeParam(scope, { ...receiver, type: UNKNOWN_TYPE }, { kind: "collection", element: element.type })
            : receiver;
        const typedElement = element.kind === "param" && element.type.kind === "unknown" ? retypeParam(scope, element, elementType) : element;
        return node({ kind: "contains", collection: coll, element: typedElement, type: BOOLEAN }, pos);
      }
      // A parameter asked for its size is a collection (a JSON array), not any value.
      case "isEmpty":
        arity(call, 0);
        return node({ kind: "isEmpty", collection: asCollection(scope, receiver), type: BOOLEAN }, pos);
      case "size":
        arity(call, 0);
        return node({ kind: "size", collection: asCollection(scope, receiver), type: INT }, pos);
      case "get":
        arity(call, 1);
        if (t.kind !== "collection") break;
        if (!t.ordered) fail("get(index) needs a List; this collection has no order", pos);
        return node({ kind: "listGet", list: receiver, index: args(scope, call, [INT])[0]!, type: t.element }, pos);
    }
    fail(`a collection has no method ${call.name}() that JDOQL supports`, pos);
  }

  if (t.kind === "map") {
    switch (call.name) {
      case "get":
        arity(call, 1);
        return node({ kind: "mapGet", map: receiver, key: args(scope, call, [t.key])[0]!, type: t.value }, pos);
      case "containsKey":
        arity(call, 1);
        return node({ kind: "containsKey", map: receiver, key: args(scope, call, [t.key])[0]!, type: BOOLEAN }, pos);
      case "containsValue":
        arity(call, 1);
        return node({ kind: "containsValue", map: receiver, value: args(scope, call, [t.value])[0]!, type: BOOLEAN }, pos);
      case "isEmpty":
        arity(call, 0);
        return node({ kind: "isEmpty", collection: receiver, type: BOOLEAN }, pos);
      case "size":
        arity(call, 0);
        return node({ kind: "size", collection: receiver, type: INT }, pos);
    }
    fail(`a map has no method ${call.name}() that JDOQL supports`, pos);
  }

  if (t.kind === "temporal") {
    const parts: Record<string, FnName> = {
      getYear: "year",
      getMonth: "month0",
      getMonthValue: "month1",
      getDate: "day",
      getDayOfMonth: "day",
      getHour: "hour",
      getHours: "hour",
      getMinute: "minute",
      getMinutes: "minute",
      getSecond: "second",
      getSeconds: "second",
      getDayOfWeek: "dayOfWeek",
    };
    const part = parts[call.name];
    if (part) {
      arity(call, 0);
      if (!hasPart(t.basic, part)) fail(`a ${describeType(t)} has no ${call.name}()`, pos);
      return fn(part, [receiver], INT, pos);
    }
    fail(`a ${describeType(t)} has no method ${call.name}() that JDOQL supports`, pos);
  }

  if (t.kind === "enum") {
    if (call.name === "ordinal") {
      arity(call, 0);
      return fn("ordinal", [receiver], INT, pos);
    }
    if (call.name === "toString" || call.name === "name") {
      arity(call, 0);
      return fn("enumName", [receiver], STRING, pos);
    }
    fail(`an enum has no method ${call.name}() that JDOQL supports`, pos);
  }

  return fail(`${describeType(t)} has no method ${call.name}()`, pos);
}

const OPTIONAL_METHODS = new Set(["isPresent", "isEmpty", "get", "orElse"]);

/** A field declared `java.util.Optional<T>`: its value is T's, or null when empty. */
const isOptional = (e: QExpr): boolean => e.kind === "field" && e.field.optional === true;

/**
 * Optional's methods (JDO 3.2 §14.6.2): `isPresent()` is `!= null`, `isEmpty()` is `== null`,
 * `get()` is the value itself (as the bare field is: JDOQL dereferences an Optional implicitly),
 * `orElse(v)` the value or v. A navigation through an empty Optional is null, as through null.
 */
function bindOptional(scope: Scope, optional: QExpr, call: Call): QExpr {
  const pos = call.pos;
  switch (call.name) {
    case "isPresent":
    case "isEmpty":
      arity(call, 0);
      return node({ kind: "isNull", operand: optional, negated: call.name === "isPresent", type: BOOLEAN }, pos);
    case "get":
      arity(call, 0);
      return { ...optional, pos };
    default: {
      arity(call, 1);
      if (optional.type.kind === "entity") fail("orElse() of an Optional persistent object is not supported: test isPresent() instead", pos);
      const other = scope.binders.expr(scope, call.args[0]!, optional.type);
      const typed = other.kind === "param" && other.type.kind === "unknown" ? retypeParam(scope, other, optional.type) : other;
      if (!comparable(scope.model, optional.type, typed.type) || typed.type.kind === "entity")
        fail(`orElse's argument must be ${describeType(optional.type)}, not ${describeType(typed.type)}`, call.args[0]!.pos);
      return fn("coalesce", [optional, typed], optional.type, pos);
    }
  }
}

/** A literal matches() pattern SQL cannot evaluate exactly: the query's 400, at the construct itself. */
function checkPattern(literal: SExpr): void {
  if (literal.type !== "Literal" || typeof literal.value !== "string") return;
  try {
    regexToGlob(literal.value);
  } catch (e) {
    if (e instanceof RegexRefusal) fail(`matches(): ${e.message}`, positionInLiteral(literal, e.index));
    throw e;
  }
}

/**
 * Indexes written as numbers that no string has (below 0, an end before its begin, past the end of
 * a literal string), where Java would throw StringIndexOutOfBoundsException for every candidate:
 * the query's error, at the index. Indexes known only per row are checked when the query runs
 * (a value out of range is null: see `javaBounds`).
 */
function checkIndexes(s: QExpr, indexes: QExpr[], method: "substring" | "charAt"): void {
  const known = indexes.map((i) => (i.kind === "literal" && typeof i.value === "number" ? i.value : undefined));
  const [first, second] = known;
  const what = method === "charAt" ? "charAt's index" : "substring's begin index";
  if (first !== undefined && first < 0) fail(`${what} ${first} is below 0: no string has it (Java throws StringIndexOutOfBoundsException)`, indexes[0]!.pos);
  if (first !== undefined && second !== undefined && second < first)
    fail(`substring's end index ${second} is before its begin index ${first} (Java throws StringIndexOutOfBoundsException)`, indexes[1]!.pos);
  if (s.kind !== "literal" || typeof s.value !== "string") return;
  const length = [...s.value].length;
  const last = method === "charAt" ? length - 1 : length;
  known.forEach((index, i) => {
    if (index !== undefined && index > last)
      fail(
        `${method === "charAt" ? "charAt's index" : "substring's index"} ${index} is past the end of ${JSON.stringify(s.value)} (length ${length}; Java throws StringIndexOutOfBoundsException)`,
        indexes[i]!.pos,
      );
  });
}

const MATH: Record<string, { fn: FnName; args: number }> = {
  abs: { fn: "abs", args: 1 },
  sqrt: { fn: "sqrt", args: 1 },
  ceil: { fn: "ceil", args: 1 },
  floor: { fn: "floor", args: 1 },
  exp: { fn: "exp", args: 1 },
  log: { fn: "log", args: 1 },
  sin: { fn: "sin", args: 1 },
  cos: { fn: "cos", args: 1 },
  tan: { fn: "tan", args: 1 },
  asin: { fn: "asin", args: 1 },
  acos: { fn: "acos", args: 1 },
  atan: { fn: "atan", args: 1 },
  round: { fn: "round", args: 1 },
  signum: { fn: "sign", args: 1 },
  pow: { fn: "power", args: 2 },
};

function bindStatic(scope: Scope, receiver: string, call: Call): QExpr {
  const pos = call.pos;
  if (receiver.endsWith("JDOHelper")) {
    arity(call, 1);
    const operand = scope.binders.expr(scope, call.args[0]!);
    if (operand.type.kind !== "entity") fail(`JDOHelper.${call.name} needs a persistent object`, call.args[0]!.pos);
    if (call.name === "getObjectId") return node({ kind: "objectId", operand, type: operand.type }, pos);
    if (call.name === "getVersion") return node({ kind: "version", operand, nullWhenUnversioned: true, type: { kind: "number", numeric: "long" } }, pos);
    fail(`JDOHelper.${call.name} is not supported in queries`, pos);
  }
  const m = MATH[call.name];
  if (!m) fail(`Math.${call.name} is not supported`, pos);
  arity(call, m.args);
  const a = args(scope, call, Array(m.args).fill({ kind: "number", numeric: "double" }));
  const first = a[0]!.type;
  const type: QType =
    m.fn === "abs" || m.fn === "sign" ? (first.kind === "number" ? first : DOUBLE) : m.fn === "round" ? { kind: "number", numeric: "long" } : DOUBLE;
  return fn(m.fn, a, type, pos);
}
