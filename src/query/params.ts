/**
 * Parameter values from the `params=` request parameter: a JSON object (named parameters) or a
 * JSON array (positional `?1`, and implicit or declared parameters in order). Each value is
 * checked and converted to its stored form by the type the query gives the parameter; an
 * object is given by its identity.
 */
import { findJsonSyntaxError } from "../json/json-syntax.ts";
import { decimalKey } from "../json/decimal.ts";
import { JsonNumber, decimalOf, parseJson, stringify, wholeNumber } from "../json/exact.ts";
import { decodeKeyPart } from "../mapping/read-graph.ts";
import { charMessage, decodeValue } from "../json/values.ts";
import { keyClassProblem, keyFieldColumns, keyLengthProblem } from "../mapping/keys.ts";
import type { ClassMeta, Model, ValueType } from "../metadata/model.ts";
import { QueryError } from "../errors/query-error.ts";
import type { NumericKind, ParamSpec, QType } from "./shared/model.ts";
import { paramName } from "./sql/context.ts";
import { likeToGlob } from "./sql/functions.ts";
import { RegexRefusal, regexToGlob } from "./shared/java-regex.ts";
import { describeType, isIntegral } from "./shared/types.ts";

export function parseParams(raw: string | null): Record<string, unknown> | unknown[] | undefined {
  if (raw === null) return undefined;
  let parsed: unknown;
  try {
    // Numbers a double cannot hold keep their digits (src/json/exact.ts).
    parsed = parseJson(raw);
  } catch {
    // Where, as a body's JSON error says it: engines word their own messages differently.
    throw new QueryError(`params is not valid JSON: ${findJsonSyntaxError(raw, "params")?.message ?? "it cannot be parsed"}`);
  }
  if (parsed === null || typeof parsed !== "object" || parsed instanceof JsonNumber)
    throw new QueryError("params must be a JSON object (named parameters) or a JSON array (in order)");
  if (nestsDeeperThan(parsed, MAX_PARAMS_DEPTH)) throw new QueryError(`params nest deeper than ${MAX_PARAMS_DEPTH} levels of arrays and objects`);
  return parsed as Record<string, unknown> | unknown[];
}

/**
 * Parameter values are scalars, arrays of them and key objects (an ancestor key nests one level per
 * ancestor): far shallower than this. Deeper values are refused before they reach the recursive
 * conversions (and JSON.stringify) below, which a value ten thousand levels deep would overflow.
 */
const MAX_PARAMS_DEPTH = 64;

function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (depth > limit) return true;
    for (const child of Object.values(v as object))
      if (child !== null && typeof child === "object" && !(child instanceof JsonNumber)) stack.push([child, depth + 1]);
  }
  return false;
}

/** A value as it appears in a message, cut short: a parameter may be a megabyte of text. */
function preview(json: unknown): string {
  const text = json === undefined ? "undefined" : stringify(json);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** Placeholder values for a query's parameters; an object's key no longer than `keyBytes` (limits.keyBytes). */
export function bindParams(
  model: Model,
  specs: readonly ParamSpec[],
  given: Record<string, unknown> | unknown[] | undefined,
  keyBytes = Infinity,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  if (!specs.length) {
    if (given && (Array.isArray(given) ? given.length : Object.keys(given).length)) throw new QueryError("the query has no parameters, but params were given");
    return values;
  }
  if (!given) throw new QueryError(`the query needs parameters (${specs.map(label).join(", ")}): give them as params={...} or params=[...]`);
  const ordered = [...specs].sort((a, b) => (typeof a.key === "number" && typeof b.key === "number" ? a.key - b.key : a.pos.offset - b.pos.offset));
  if (Array.isArray(given)) {
    if (given.length !== ordered.length)
      throw new QueryError(`the query has ${ordered.length} parameter(s) (${ordered.map(label).join(", ")}) but params has ${given.length}`);
    ordered.forEach((spec, i) => convertInto(model, values, spec, given[i], keyBytes));
  } else {
    for (const name of Object.keys(given)) {
      if (!specs.some((s) => String(s.key) === name)) throw new QueryError(`params names "${name}", which the query does not use`);
    }
    for (const spec of specs) {
      // Own members only: `in` would find `:constructor` and `:toString` on Object.prototype.
      if (!Object.hasOwn(given, String(spec.key))) throw new QueryError(`parameter ${label(spec)} is not bound`, spec.pos);
      convertInto(model, values, spec, given[String(spec.key)], keyBytes);
    }
  }
  return values;
}

const label = (spec: ParamSpec) => (typeof spec.key === "number" ? `?${spec.key}` : `:${spec.key}`);

function convertInto(model: Model, values: Record<string, unknown>, spec: ParamSpec, json: unknown, keyBytes: number): void {
  const where = `parameter ${label(spec)}`;
  if (json === null || json === undefined) {
    if (spec.primitive) throw new QueryError(`${where} is declared ${describeType(spec.type)} and cannot be null`, spec.pos);
    if (spec.type.kind === "entity") spec.type.meta.keyColumns.forEach((_, i) => (values[paramName(spec.key, i)] = null));
    values[paramName(spec.key)] = null;
    // A null LIKE or matches() pattern matches nothing; its derived placeholders need values too.
    if (spec.like || spec.pattern) values[paramName(spec.key, "glob")] = null;
    if (spec.pattern) values[paramName(spec.key, "ci")] = values[paramName(spec.key, "nl")] = 0;
    if (comparesWithDecimals(spec.type)) values[paramName(spec.key, "key")] = null;
    return;
  }
  if (spec.type.kind === "entity") {
    keyOfParam(model, spec.type.meta, json, where, keyBytes).forEach((v, i) => (values[paramName(spec.key, i)] = v));
    values[paramName(spec.key)] = null;
    return;
  }
  values[paramName(spec.key)] = convert(model, spec.type, json, where, keyBytes);
  if (comparesWithDecimals(spec.type)) values[paramName(spec.key, "key")] = decimalKeys(spec.type, json);
  if (spec.like && typeof json === "string") values[paramName(spec.key, "glob")] = likeToGlob(json, spec.like.escape);
  if (spec.pattern && typeof json === "string") {
    const m = patternOf(json, where, spec);
    values[paramName(spec.key, "glob")] = m.glob;
    values[paramName(spec.key, "ci")] = m.caseInsensitive ? 1 : 0;
    values[paramName(spec.key, "nl")] = m.singleLine ? 1 : 0;
  }
}

/** A matches() parameter's regular expression as GLOB, or a 400 at the parameter naming what SQL cannot do. */
function patternOf(regex: string, where: string, spec: ParamSpec) {
  try {
    return regexToGlob(regex);
  } catch (e) {
    if (e instanceof RegexRefusal) throw new QueryError(`${where}: matches(): ${e.message}`, spec.pos);
    throw e;
  }
}

function convert(model: Model, type: QType, json: unknown, where: string, keyBytes: number): unknown {
  const bad = (expected: string): never => {
    throw new QueryError(`${where} must be ${expected}, not ${preview(json)}`);
  };
  switch (type.kind) {
    case "unknown":
      // Nothing gives the value a type: a number a double cannot hold is bound as the nearest double.
      if (json instanceof JsonNumber) return Number(json.text);
      return typeof json === "boolean" ? (json ? 1 : 0) : typeof json === "object" ? stringify(json) : json;
    case "boolean":
      return typeof json === "boolean" ? (json ? 1 : 0) : bad("true or false");
    case "number":
      return numberParam(type.numeric, json, bad);
    case "string":
      if (type.char && !(typeof json === "string" && json.length === 1)) throw new QueryError(`${where} is a char: ${charMessage(json)}`);
      return typeof json === "string" ? json : bad("a string");
    case "uuid":
      return typeof json === "string" ? json.toLowerCase() : bad("a UUID string");
    case "temporal": {
      const d = decodeValue(json, { kind: "basic", basic: type.basic, primitive: false }, false);
      return d.ok ? d.value : bad(`a date (epoch milliseconds or ISO-8601): ${d.message}`);
    }
    case "enum": {
      const d = decodeValue(json, type.type as ValueType, type.ordinal);
      return d.ok ? d.value : bad(`one of ${type.type.constants.join(", ")}`);
    }
    case "collection": {
      if (!Array.isArray(json)) return bad("a JSON array");
      // Whole numbers past 2^53, held as digits, are JSON numbers in the array (SQL reads it as JSON).
      const element = type.element;
      const asJson = (v: unknown) => (typeof v === "string" && element.kind === "number" ? new JsonNumber(v) : v);
      return stringify(
        json.map((e) =>
          element.kind === "entity" ? scalarKey(keyOfParam(model, element.meta, e, where, keyBytes)) : asJson(convert(model, element, e, where, keyBytes)),
        ),
      );
    }
    case "map":
      return json && typeof json === "object" && !Array.isArray(json) && !(json instanceof JsonNumber) ? stringify(json) : bad("a JSON object");
    default:
      return bad(describeType(type));
  }
}

const scalarKey = (key: unknown[]) => (key.length === 1 ? key[0] : key);

/** A number (or numbers) that a BigDecimal column may be compared with: also bound as sort keys. */
const comparesWithDecimals = (type: QType): boolean => type.kind === "number" || (type.kind === "collection" && type.element.kind === "number");

/**
 * A number parameter as a BigDecimal's sort key (`<name>.key`: src/json/decimal.ts), its digits
 * as given; a collection of numbers as a JSON array of them. Its value (`convert`) has been
 * checked already.
 */
function decimalKeys(type: QType, json: unknown): unknown {
  const key = (v: unknown) => {
    const d = v instanceof JsonNumber ? decimalOf(v.text) : typeof v === "number" ? decimalOf(String(v)) : undefined;
    return d ? decimalKey(d) : null;
  };
  return type.kind === "collection" ? JSON.stringify((json as unknown[]).map(key)) : key(json);
}

/**
 * A number parameter. An integral type takes a whole number of 64 bits as its digits, which the
 * query reads as an integer (sql/expressions.ts: drivers would bind a number as a REAL, and a
 * long past 2^53 has no number). Other numbers (fractions, and whole numbers past 64 bits, which
 * no integer column holds) are bound as doubles, compared as Java would compare them; a JSON
 * string is text even when it is one character long ("5" is not the number 53).
 */
function numberParam(numeric: NumericKind, json: unknown, bad: (expected: string) => never): unknown {
  if (!(json instanceof JsonNumber || typeof json === "number")) return bad(`a number (${numeric})`);
  const whole = isIntegral(numeric) ? wholeNumber(json) : undefined;
  if (whole !== undefined && whole >= -(2n ** 63n) && whole < 2n ** 63n) return String(whole);
  return json instanceof JsonNumber ? Number(json.text) : json;
}

/**
 * An object parameter is its identity: the key value, or an object of key fields (with an optional
 * `"class"`, which must be the parameter's class or a subclass), read as keys are read everywhere
 * (an ancestor key becomes the canonical text it is stored as), no longer than `keyBytes`.
 */
function keyOfParam(model: Model, meta: ClassMeta, json: unknown, where: string, keyBytes: number): unknown[] {
  const parts = keyFieldColumns(meta);
  const obj =
    json !== null && typeof json === "object" && !Array.isArray(json) && !(json instanceof JsonNumber)
      ? (json as Record<string, unknown>)
      : parts.length === 1
        ? { [parts[0]!.field]: json }
        : undefined;
  if (!obj) throw new QueryError(`${where} is a ${meta.name}: give its key as an object of ${parts.map((p) => p.field).join(", ")}`);
  const classProblem = keyClassProblem(model, meta, obj.class);
  if (classProblem) throw new QueryError(`${where} is a ${meta.name}: ${classProblem}`);
  const key = parts.map((p) => {
    const v = obj[p.field];
    if (v === undefined && p.type.kind !== "key") throw new QueryError(`${where} is a ${meta.name}: key field "${p.field}" is missing`);
    const d = decodeKeyPart(model, meta, p.type, v ?? null, `/${p.field}`);
    if (!d.ok)
      throw new QueryError(
        `${where} is a ${meta.name}: ${d.error.path === `/${p.field}` ? `key field "${p.field}"` : `at ${d.error.path}:`} ${d.error.message}`,
      );
    return d.value;
  });
  const tooLong = keyLengthProblem(key, keyBytes);
  if (tooLong) throw new QueryError(`${where} is a ${meta.name} whose key is too long: ${tooLong}`);
  return key;
}
