/**
 * JDOQL expressions: a parse-tree expression becomes a typed query-model node. Names are
 * resolved in JDOQL's order (parameters, variables, fields of the candidate, types); method
 * calls are bound in methods.ts.
 */
import { type ClassMeta, subtree } from "../../metadata/model.ts";
import { fail } from "../shared/errors.ts";
import { type Pos, type QExpr, type QType, node } from "../shared/model.ts";
import { fieldExpr } from "../shared/navigate.ts";
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
  isIntegral,
  isNumber,
  longValue,
  orderable,
  promote,
} from "../shared/types.ts";
import { containsAggregate } from "../shared/validate.ts";
import { declaredType, enumNamed, wrapperLimit } from "./declared-types.ts";
import { literalKeyAsObjectId } from "./object-ids.ts";
import { bindCall } from "./methods.ts";
import { resolveClass } from "./names.ts";
import { type Scope, retypeParam } from "./scope.ts";
import type { SExpr } from "./syntax.ts";

export function bindExpr(scope: Scope, e: SExpr, expected?: QType): QExpr {
  switch (e.type) {
    case "Literal":
      return bindLiteral(e, expected);
    case "This":
      return thisOf(scope, e.pos);
    case "Param":
      return paramExpr(scope, e.name, expected, e.pos, "implicit");
    case "PositionalParam":
      return paramExpr(scope, e.index, expected, e.pos, "positional");
    case "Name":
      return bindName(scope, e.name, e.pos);
    case "Member":
      return bindMember(scope, e);
    case "Call":
      return bindCall(scope, e);
    case "Aggregate":
      return bindAggregate(scope, e);
    case "Unary":
      return bindUnary(scope, e);
    case "Binary":
      return bindBinary(scope, e);
    case "InstanceOf": {
      const operand = bindExpr(scope, e.operand);
      if (operand.type.kind !== "entity") fail(`instanceof needs a persistent object, not ${describeType(operand.type)}`, e.pos);
      const cls = resolveClass(scope.model, scope.names, e.typeName, e.pos) ?? fail(`unknown class "${e.typeName}"`, e.pos);
      return node({ kind: "instanceOf", operand, classes: subtree(scope.model, cls.name), type: BOOLEAN }, e.pos);
    }
    case "Cast":
      return bindCast(scope, e.typeName, bindExpr(scope, e.operand), e.pos);
    case "Conditional": {
      const when = bindExpr(scope, e.test);
      requireBoolean(when, "the IF condition");
      const then = bindExpr(scope, e.consequent, expected);
      const otherwise = bindExpr(scope, e.alternate, then.type);
      if (!comparable(scope.model, then.type, otherwise.type))
        fail(`IF and ELSE give different types (${describeType(then.type)} and ${describeType(otherwise.type)})`, e.pos);
      const type =
        then.type.kind === "null"
          ? otherwise.type
          : then.type.kind === "number" && otherwise.type.kind === "number"
            ? { kind: "number" as const, numeric: promote(then.type.numeric, otherwise.type.numeric) }
            : then.type;
      return node({ kind: "case", whens: [{ when, then }], otherwise, type }, e.pos);
    }
    case "Subquery": {
      const query = scope.binders.subquery(scope, e.query);
      if (!query.result || query.result.length !== 1) fail("a subquery must select exactly one expression", e.pos);
      return node({ kind: "subquery", query, type: query.result[0]!.expr.type }, e.pos);
    }
    case "ArrayLiteral": {
      const items = e.elements.map((x) => bindExpr(scope, x));
      return node({ kind: "list", items, type: { kind: "collection", element: items[0]?.type ?? UNKNOWN } }, e.pos);
    }
    case "New":
      return fail("object construction is only allowed as the whole result clause", e.pos);
  }
}

/** A number literal's decimal digits as written (without a type suffix); undefined for hex and octal. */
const numberText = (raw: string | undefined): string | undefined => {
  const text = raw?.replace(/[lLfFdD]$/, "");
  return text && /^(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text) && !/^0\d/.test(text) ? text.replace(/^\./, "0.").replace(/\.(?=$|[eE])/, "") : undefined;
};

function bindLiteral(e: Extract<SExpr, { type: "Literal" }>, expected?: QType): QExpr {
  switch (e.kind) {
    case "null":
      return node({ kind: "literal", value: null, type: NULL }, e.pos);
    case "boolean":
      return node({ kind: "literal", value: e.value, type: BOOLEAN }, e.pos);
    case "string": {
      const value = String(e.value);
      // Stored text never holds U+0000 (bodies refuse it), and SQLite's pattern functions stop at it.
      if (value.includes("\u0000")) fail("a string literal holds the character U+0000, which no stored text can hold", e.pos);
      // A one-character literal is a char too (one UTF-16 unit, as Java's): in numeric context it is its code.
      if (expected && isNumber(expected) && expected.kind === "number" && value.length === 1)
        return node({ kind: "literal", value: value.charCodeAt(0), type: INT }, e.pos);
      return node({ kind: "literal", value, type: value.length === 1 ? { kind: "string", char: true } : STRING }, e.pos);
    }
    case "float":
    case "double":
      return node({ kind: "literal", value: e.value, text: numberText(e.raw), type: { kind: "number", numeric: e.kind } }, e.pos);
    default:
      return node(
        { kind: "literal", value: e.kind === "biginteger" ? Number(e.value) : e.value, text: numberText(e.raw), type: { kind: "number", numeric: e.kind } },
        e.pos,
      );
  }
}

function thisOf(scope: Scope, pos: Pos): QExpr {
  // In a subquery with an alias, `this` is the outer query's candidate.
  const target = scope.alias && scope.outer ? scope.outer : scope;
  return node({ kind: "binding", binding: target.query.candidate, type: target.query.candidate.type }, pos);
}

function paramExpr(scope: Scope, key: string | number, expected: QType | undefined, pos: Pos, style: "implicit" | "positional"): QExpr {
  const collector = scope.params;
  if (style === "implicit") collector.implicit = true;
  else collector.positional = true;
  if (collector.declared) fail("a query uses declared parameters or implicit ones, not both", pos);
  if (collector.implicit && collector.positional) fail("a query uses named (:name) or numbered (?1) parameters, not both", pos);
  const spec = collector.use(key, expected && expected.kind !== "null" ? expected : UNKNOWN, pos);
  return node({ kind: "param", ref: { key, pos }, type: spec.type }, pos);
}

function bindName(scope: Scope, name: string, pos: Pos): QExpr {
  for (let s: Scope | undefined = scope; s; s = s.outer) {
    const declared = s.declaredParams.get(name);
    if (declared) return node({ kind: "param", ref: { key: name, pos }, type: declared.type }, pos);
    const variable = s.variables.get(name);
    if (variable) return node({ kind: "binding", binding: variable, type: variable.type }, pos);
    if (s.alias === name) return node({ kind: "binding", binding: s.query.candidate, type: s.query.candidate.type }, pos);
    const candidate = (s.query.candidate.type as { meta: ClassMeta }).meta;
    // In an aliased subquery, bare names are the outer candidate's fields.
    if (!s.alias || !s.outer) {
      if (candidate.fields.has(name))
        return fieldExpr(s.model, node({ kind: "binding", binding: s.query.candidate, type: s.query.candidate.type }, pos), name, pos);
    }
  }
  if (
    resolveClass(scope.model, scope.names, name) ||
    enumNamed(scope.model, name, scope.names) ||
    ["Math", "JDOHelper", "java.lang.Math", "javax.jdo.JDOHelper"].includes(name)
  ) {
    return fail(`"${name}" is a type, not a value`, pos);
  }
  // An implicit variable must come from a collection (`coll.contains(v)`): otherwise it has no type.
  return fail(`unknown name "${name}": not a parameter, variable or field of ${(scope.query.candidate.type as { meta: ClassMeta }).meta.name}`, pos);
}

/** A dotted name that is not a value: a class, enum or static member, e.g. `org.x.Status.ACTIVE`. */
function qualifiedName(e: SExpr): string | undefined {
  if (e.type === "Name") return e.name;
  if (e.type === "Member") {
    const head = qualifiedName(e.object);
    return head === undefined ? undefined : `${head}.${e.name}`;
  }
  return undefined;
}

function isValueName(scope: Scope, e: SExpr): boolean {
  let head = e;
  while (head.type === "Member") head = head.object;
  return head.type !== "Name" || !isUnresolvedName(scope, head.name) || scope.variables.has(head.name);
}

function bindMember(scope: Scope, e: Extract<SExpr, { type: "Member" }>): QExpr {
  if (!isValueName(scope, e.object)) {
    const typeName = qualifiedName(e.object);
    if (typeName) {
      const enumType = enumNamed(scope.model, typeName, scope.names);
      if (enumType && enumType.kind === "enum") {
        const index = enumType.type.constants.indexOf(e.name);
        if (index < 0) fail(`${typeName} has no constant ${e.name}`, e.pos);
        return node({ kind: "literal", value: enumType.ordinal ? index : e.name, type: enumType }, e.pos);
      }
      if (resolveClass(scope.model, scope.names, typeName)) fail(`static field ${typeName}.${e.name} is not known to the model`, e.pos);
      const limit = wrapperLimit(typeName, e.name);
      if (limit) return node({ kind: "literal", value: limit.value, type: limit.type }, e.pos);
      if (typeName === "Math" || typeName === "java.lang.Math") {
        if (e.name === "PI") return node({ kind: "literal", value: Math.PI, type: DOUBLE }, e.pos);
        if (e.name === "E") return node({ kind: "literal", value: Math.E, type: DOUBLE }, e.pos);
      }
      // `a.b.c` where nothing resolves: report the first part.
      let head: SExpr = e.object;
      while (head.type === "Member") head = head.object;
      fail(`unknown name "${(head as { name: string }).name}"`, head.pos);
    }
  }
  return fieldExpr(scope.model, bindExpr(scope, e.object), e.name, e.pos);
}

function bindAggregate(scope: Scope, e: Extract<SExpr, { type: "Aggregate" }>): QExpr {
  const arg = bindExpr(scope, e.arg);
  if (containsAggregate(arg)) fail("aggregates cannot be nested", e.pos);
  let type: QType;
  switch (e.fn) {
    case "count":
      type = LONG;
      break;
    case "avg":
      if (arg.type.kind !== "number" && arg.type.kind !== "unknown") fail(`avg needs a number, not ${describeType(arg.type)}`, e.arg.pos);
      type = arg.type.kind === "number" && arg.type.numeric === "decimal" ? arg.type : DOUBLE;
      break;
    case "sum":
      if (arg.type.kind !== "number" && arg.type.kind !== "unknown") fail(`sum needs a number, not ${describeType(arg.type)}`, e.arg.pos);
      type = arg.type.kind === "number" ? (isIntegral(arg.type.numeric) && arg.type.numeric !== "biginteger" ? LONG : arg.type) : DOUBLE;
      break;
    default:
      if (!orderable(arg.type)) fail(`${e.fn} needs values that can be ordered, not ${describeType(arg.type)}`, e.arg.pos);
      type = arg.type;
  }
  return node({ kind: "aggregate", fn: e.fn, distinct: e.distinct, arg, type }, e.pos);
}

function bindUnary(scope: Scope, e: Extract<SExpr, { type: "Unary" }>): QExpr {
  const operand = bindExpr(scope, e.operand, e.op === "!" ? BOOLEAN : undefined);
  if (e.op === "!") {
    requireBoolean(operand, "the operand of !");
    return node({ kind: "not", operand, type: BOOLEAN }, e.pos);
  }
  if (operand.type.kind !== "number" && operand.type.kind !== "unknown") fail(`${e.op} needs a number, not ${describeType(operand.type)}`, e.pos);
  if (e.op === "+") return operand;
  if (e.op === "~") {
    if (operand.type.kind === "number" && !isIntegral(operand.type.numeric)) fail("~ needs an integral number", e.pos);
    return node({ kind: "bitnot", operand, type: operand.type }, e.pos);
  }
  if (operand.kind === "literal" && typeof operand.value === "number") return { ...operand, value: -operand.value, pos: e.pos };
  if (operand.kind === "literal" && typeof operand.value === "bigint") return { ...operand, value: longValue(-operand.value), pos: e.pos };
  return node({ kind: "negate", operand, type: operand.type }, e.pos);
}

function bindBinary(scope: Scope, e: Extract<SExpr, { type: "Binary" }>): QExpr {
  const model = scope.model;
  switch (e.op) {
    case "&&":
    case "||":
    case "&":
    case "|": {
      const left = bindExpr(scope, e.left, BOOLEAN);
      const right = bindExpr(scope, e.right, BOOLEAN);
      if ((left.type.kind !== "boolean" && left.type.kind !== "unknown") || (right.type.kind !== "boolean" && right.type.kind !== "unknown")) {
        if ((e.op === "&" || e.op === "|") && left.type.kind === "number") fail(`bitwise ${e.op} on numbers is not supported`, e.pos);
        fail(`${e.op} needs booleans, not ${describeType(left.type)} and ${describeType(right.type)}`, e.pos);
      }
      const kind = e.op === "&&" || e.op === "&" ? "and" : "or";
      const flat = (x: QExpr) => (x.kind === kind ? x.items : [x]);
      return node({ kind, items: [...flat(left), ...flat(right)], type: BOOLEAN }, e.pos);
    }
    case "^":
      return fail("^ (exclusive or) is not supported", e.pos);
    case "==":
    case "!=":
    case "<":
    case "<=":
    case ">":
    case ">=": {
      let left = bindExpr(scope, e.left);
      let right = bindExpr(scope, e.right, left.type);
      if (left.type.kind === "unknown" && left.kind === "param") left = retypeParam(scope, left, right.type);
      if (right.type.kind === "unknown" && right.kind === "param") right = retypeParam(scope, right, left.type);
      right = literalKeyAsObjectId(model, left, right);
      left = literalKeyAsObjectId(model, right, left);
      if (!comparable(model, left.type, right.type)) fail(`cannot compare ${describeType(left.type)} with ${describeType(right.type)}`, e.pos);
      if (e.op !== "==" && e.op !== "!=" && (!orderable(left.type) || !orderable(right.type)))
        fail(`${e.op} needs values that can be ordered, not ${describeType(left.type)}`, e.pos);
      const op = e.op === "==" ? "=" : e.op === "!=" ? "<>" : e.op;
      if (right.type.kind === "null" || left.type.kind === "null") {
        if (op !== "=" && op !== "<>") return node({ kind: "literal", value: null, type: BOOLEAN }, e.pos);
        const operand = right.type.kind === "null" ? left : right;
        return node({ kind: "isNull", operand, negated: op === "<>", type: BOOLEAN }, e.pos);
      }
      return node({ kind: "compare", op, left, right, nullEquals: true, type: BOOLEAN }, e.pos);
    }
    default: {
      let left = bindExpr(scope, e.left);
      const right = bindExpr(scope, e.right, left.type);
      if (left.type.kind === "unknown" && left.kind === "param") left = retypeParam(scope, left, right.type);
      if (e.op === "+" && ((left.type.kind === "string" && !left.type.char) || (right.type.kind === "string" && !right.type.char))) {
        return node({ kind: "concat", items: [left, right], type: STRING }, e.pos);
      }
      const numeric = (t: QType) => t.kind === "number" || t.kind === "unknown" || (t.kind === "string" && t.char);
      if (!numeric(left.type) || !numeric(right.type)) fail(`${e.op} needs numbers, not ${describeType(left.type)} and ${describeType(right.type)}`, e.pos);
      const kindOf = (t: QType) => (t.kind === "number" ? t.numeric : t.kind === "string" ? "int" : "double");
      const numericKind = promote(kindOf(left.type), kindOf(right.type));
      return node(
        {
          kind: "arith",
          op: e.op as "+" | "-" | "*" | "/" | "%",
          left,
          right,
          integer: isIntegral(numericKind),
          type: { kind: "number", numeric: numericKind },
        },
        e.pos,
      );
    }
  }
}

function bindCast(scope: Scope, typeName: string, operand: QExpr, pos: Pos): QExpr {
  const target = declaredType(scope, typeName, pos);
  if (target.kind === "entity") {
    if (operand.type.kind !== "entity" && operand.type.kind !== "unknown") fail(`cannot cast ${describeType(operand.type)} to ${typeName}`, pos);
    if (operand.type.kind === "entity" && !comparable(scope.model, operand.type, target))
      fail(`cannot cast ${operand.type.meta.name} to ${typeName}: the classes are unrelated`, pos);
    return node({ kind: "cast", operand, type: target }, pos);
  }
  if (
    target.kind === "number" &&
    (operand.type.kind === "number" || operand.type.kind === "unknown" || (operand.type.kind === "string" && operand.type.char))
  ) {
    return node({ kind: "cast", operand, type: target }, pos);
  }
  if (comparable(scope.model, target, operand.type)) return { ...operand, type: operand.type.kind === "unknown" ? target : operand.type };
  return fail(`cannot cast ${describeType(operand.type)} to ${typeName}`, pos);
}

export function requireBoolean(e: QExpr, what: string): void {
  if (e.type.kind !== "boolean" && e.type.kind !== "unknown") fail(`${what} must be a boolean expression, not ${describeType(e.type)}`, e.pos);
}

/** A name that is no parameter, variable, field or class in reach: an implicit variable, once its collection is known. */
export function isUnresolvedName(scope: Scope, name: string): boolean {
  for (let s: Scope | undefined = scope; s; s = s.outer) {
    if (s.declaredParams.has(name) || s.variables.has(name) || s.alias === name) return false;
    const candidate = (s.query.candidate.type as { meta: ClassMeta }).meta;
    if ((!s.alias || !s.outer) && candidate.fields.has(name)) return false;
  }
  return !resolveClass(scope.model, scope.names, name);
}
