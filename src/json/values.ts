/**
 * Values between JSON and the store, per the contract: dates and times as epoch milliseconds
 * (ISO-8601 accepted on input), `char` a one-character string, `byte[]` base64, enums by constant
 * name, BigDecimal/BigInteger as numbers, collections as arrays and maps as objects (stored as
 * JSON text). Decoding validates; each failure says what was expected. Numbers a double cannot
 * hold (a long past 2^53) come from the body as `JsonNumber`s and go back to JSON as such, digit
 * for digit (src/json/exact.ts).
 */
import type { BasicKind, FieldMeta, FieldType, ValueType } from "../metadata/model.ts";
import { decimalJson, storedDecimal } from "./decimal.ts";
import { JsonNumber, integerJson, integerValue, numberOf, parseJson, stringify, wholeNumber } from "./exact.ts";

/**
 * A JSON pointer (RFC 6901) one step below `path`. Bodies' pointers are made per field read, so a
 * key with nothing to escape (almost every one) skips the two replacements.
 */
export const pointer = (path: string, key: string | number): string => {
  if (typeof key === "number") return `${path}/${key}`;
  return key.includes("~") || key.includes("/") ? `${path}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}` : `${path}/${key}`;
};

export type Decoded = { ok: true; value: unknown } | { ok: false; message: string };

const ok = (value: unknown): Decoded => ({ ok: true, value });

/**
 * libSQL's client cuts text at U+0000, so the char U+0000 (Java's default char) is stored as ''
 * and read back as U+0000; strings containing U+0000 are refused.
 */
export const NUL_CHAR = "";
const bad = (message: string): Decoded => ({ ok: false, message });

/** Java's ranges; a BigInteger is stored in a 64-bit INTEGER column, so it holds a long's range. */
const INT_RANGE: Partial<Record<BasicKind, [bigint, bigint]>> = {
  byte: [-128n, 127n],
  short: [-32768n, 32767n],
  int: [-2147483648n, 2147483647n],
  long: [-(2n ** 63n), 2n ** 63n - 1n],
  biginteger: [-(2n ** 63n), 2n ** 63n - 1n],
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;
const DAY_MS = 86_400_000;
const FLOAT_MAX = 3.4028234663852886e38;

function describe(json: unknown): string {
  if (json === null) return "null";
  if (json instanceof JsonNumber) return `number ${json.text}`;
  if (Array.isArray(json)) return "an array";
  return typeof json === "object" ? "an object" : `${typeof json} ${JSON.stringify(json)}`;
}

/**
 * Why a value is no `char`. Java's char is one UTF-16 unit: a character beyond U+FFFF (an emoji)
 * takes two, a surrogate pair, and only a String holds it.
 */
export function charMessage(json: unknown): string {
  const astral = typeof json === "string" && json.length === 2 && [...json].length === 1;
  return astral
    ? `expected a one-character string (a char is one UTF-16 unit), got ${JSON.stringify(json)}, U+${json.codePointAt(0)!.toString(16).toUpperCase()}, which takes two: only a String holds it`
    : `expected a one-character string, got ${describe(json)}`;
}

/**
 * The range of a JavaScript Date: ±100,000,000 days around the epoch (ECMA-262 §21.4.1.1), about
 * ±275,000 years. Java's date and time types hold all of it; a value past it, which no Date can
 * hold, is refused rather than stored to read back as null.
 */
const DATE_LIMIT_MS = 8.64e15;

/** UTC midnight of a day; years 0 to 99 are those years (Date.UTC would read them as 1900 to 1999). */
function utcDay(year: number, month: number, day: number): Date {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return d;
}

/** Whether the `YYYY-MM-DD` at the start of an ISO string is a real calendar day (Date.parse rolls Feb 30 over). */
function realDay(iso: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!m) return false;
  const d = utcDay(+m[1]!, +m[2]!, +m[3]!);
  return d.getUTCMonth() === +m[2]! - 1 && d.getUTCDate() === +m[3]!;
}

const outOfDateRange = (ms: unknown) =>
  `${ms} is out of range for a date: a JavaScript Date holds epoch milliseconds from -8.64e15 to 8.64e15 (about 275,000 years either side of 1970)`;

function decodeDate(json: unknown, kind: BasicKind): Decoded {
  if (json instanceof JsonNumber) return bad(wholeNumber(json) === undefined ? `expected epoch milliseconds (an integer), got ${json}` : outOfDateRange(json));
  if (typeof json === "number") {
    if (!Number.isInteger(json)) return bad(`expected epoch milliseconds (an integer), got ${json}`);
    if (Math.abs(json) > DATE_LIMIT_MS) return bad(outOfDateRange(json));
    if (kind === "local-time") return json >= 0 && json < DAY_MS ? ok(json) : bad(`a time is milliseconds since midnight (0 to ${DAY_MS - 1}), got ${json}`);
    // A LocalDate is a day: its UTC midnight.
    return ok(kind === "local-date" ? Math.floor(json / DAY_MS) * DAY_MS : json);
  }
  if (typeof json !== "string") return bad(`expected epoch milliseconds or an ISO-8601 string, got ${describe(json)}`);
  if (kind === "local-time") {
    const m = LOCAL_TIME.exec(json);
    if (!m || +m[1]! > 23 || +m[2]! > 59 || +(m[3] ?? 0) > 59) return bad(`expected a time "HH:MM[:SS[.sss]]", got ${JSON.stringify(json)}`);
    return ok(((+m[1]! * 60 + +m[2]!) * 60 + +(m[3] ?? 0)) * 1000 + Math.floor(+`0.${m[4] ?? 0}` * 1000));
  }
  if (!realDay(json)) return bad(`expected an ISO-8601 date or epoch milliseconds, got ${JSON.stringify(json)}`);
  if (LOCAL_DATE.test(json)) {
    const m = LOCAL_DATE.exec(json)!;
    return ok(utcDay(+m[1]!, +m[2]!, +m[3]!).getTime());
  }
  // A date-time without a zone is read as UTC, as the contract defines times.
  const text = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(json) ? json + "Z" : json;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return bad(`expected an ISO-8601 date or epoch milliseconds, got ${JSON.stringify(json)}`);
  return ok(kind === "local-date" ? Math.floor(ms / DAY_MS) * DAY_MS : ms);
}

function decodeBasic(json: unknown, kind: BasicKind): Decoded {
  switch (kind) {
    case "boolean":
      return typeof json === "boolean" ? ok(json ? 1 : 0) : bad(`expected true or false, got ${describe(json)}`);
    case "byte":
    case "short":
    case "int":
    case "long":
    case "biginteger": {
      const [min, max] = INT_RANGE[kind]!;
      // Every whole number exactly, whatever its size (a long reaches 2^63 - 1; a double holds 2^53).
      if (typeof json === "number" && Number.isSafeInteger(json) && json >= Number(min) && json <= Number(max)) return ok(json);
      const n = wholeNumber(json);
      if (n === undefined) return bad(`expected an integer (${kind}), got ${describe(json)}`);
      if (n < min || n > max)
        return bad(`${json} is out of range for ${kind} (${min} to ${max})${kind === "biginteger" ? ": a BigInteger is stored as a 64-bit integer" : ""}`);
      return ok(integerValue(n));
    }
    case "float": {
      const x = json instanceof JsonNumber ? Number(json.text) : json;
      if (typeof x !== "number" || !Number.isFinite(x)) return bad(`expected a number (float), got ${describe(json)}`);
      return Math.abs(x) > FLOAT_MAX ? bad(`${json} is out of range for float (±${FLOAT_MAX})`) : ok(x);
    }
    case "double": {
      // The double nearest to the digits, as Java reads them.
      const x = json instanceof JsonNumber ? Number(json.text) : json;
      if (json instanceof JsonNumber && !Number.isFinite(x)) return bad(`${json} is out of range for double`);
      return typeof x === "number" && Number.isFinite(x) ? ok(x) : bad(`expected a number (double), got ${describe(json)}`);
    }
    case "decimal": {
      // Exactly, digit for digit (src/json/decimal.ts); a numeric string is taken too.
      const d = storedDecimal(json);
      return !d ? bad(`expected a decimal number, got ${describe(json)}`) : d.ok ? ok(d.value) : bad(d.message);
    }
    case "char":
      if (typeof json !== "string" || json.length !== 1) return bad(charMessage(json));
      return ok(json === "\u0000" ? NUL_CHAR : json);
    case "string":
      if (typeof json !== "string") return bad(`expected a string, got ${describe(json)}`);
      return json.includes("\u0000") ? bad("strings cannot contain U+0000: libSQL does not keep text past it") : ok(json);
    case "uuid":
      return typeof json === "string" && UUID.test(json) ? ok(json.toLowerCase()) : bad(`expected a UUID string, got ${describe(json)}`);
    case "bytes":
      if (typeof json !== "string" || !BASE64.test(json)) return bad(`expected base64 text, got ${describe(json)}`);
      return ok(Uint8Array.from(atob(json), (c) => c.charCodeAt(0)));
    default:
      return decodeDate(json, kind);
  }
}

/**
 * A single value to its stored form. `null` is handled by the caller (it knows nullability);
 * references, embedded objects and keys are handled by the graph reader.
 */
export function decodeValue(json: unknown, type: ValueType, ordinal: boolean): Decoded {
  if (type.kind === "basic") return decodeBasic(json, type.basic);
  if (type.kind === "enum") {
    let index = -1;
    if (typeof json === "string") index = type.constants.indexOf(json);
    else if (typeof json === "number" && Number.isInteger(json) && json >= 0 && json < type.constants.length) index = json;
    if (index < 0) return bad(`expected one of ${type.constants.map((c) => JSON.stringify(c)).join(", ")}, got ${describe(json)}`);
    return ok(ordinal ? index : type.constants[index]);
  }
  return bad(`internal: ${type.kind} values are not plain values`);
}

/** Stored value to JSON. */
export function encodeValue(stored: unknown, type: ValueType, ordinal: boolean): unknown {
  if (stored === null || stored === undefined) return null;
  if (type.kind === "enum") return ordinal ? (type.constants[Number(stored)] ?? null) : stored;
  if (type.kind !== "basic") return stored;
  switch (type.basic) {
    case "boolean":
      return Boolean(Number(stored));
    case "char":
      return stored === NUL_CHAR ? "\u0000" : String(stored);
    case "string":
    case "uuid":
      return String(stored);
    case "bytes":
      return toBase64(stored);
    case "long":
    case "biginteger":
      return integerJson(stored);
    case "decimal":
      return decimalJson(stored);
    default:
      return typeof stored === "bigint" ? Number(stored) : typeof stored === "string" ? Number(stored) : stored;
  }
}

function toBase64(stored: unknown): string {
  const bytes = stored instanceof Uint8Array ? stored : stored instanceof ArrayBuffer ? new Uint8Array(stored) : new TextEncoder().encode(String(stored));
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text);
}

/** Collections and maps of values are stored as JSON text of their JSON form. */
export function decodeContainer(json: unknown, type: FieldType): { ok: true; value: string } | { ok: false; errors: { path: string; message: string }[] } {
  const errors: { path: string; message: string }[] = [];
  const element = (v: unknown, t: ValueType, path: string): unknown => {
    if (v === null) return null;
    const d = decodeValue(v, t, false);
    if (!d.ok) {
      errors.push({ path, message: d.message });
      return null;
    }
    return encodeValue(d.value, t, false);
  };
  if (type.kind === "collection") {
    if (!Array.isArray(json)) return { ok: false, errors: [{ path: "", message: `expected an array, got ${describe(json)}` }] };
    let values = json.map((v, i) => element(v, type.element, pointer("", i)));
    if (type.collection === "set") values = [...new Map(values.map((v) => [stringify(v), v])).values()];
    return errors.length ? { ok: false, errors } : { ok: true, value: stringify(values) };
  }
  if (type.kind === "map") {
    if (json === null || typeof json !== "object" || Array.isArray(json))
      return { ok: false, errors: [{ path: "", message: `expected an object, got ${describe(json)}` }] };
    // No prototype: a key "__proto__" is a key like any other, not a prototype to set (and lose).
    const out: Record<string, unknown> = Object.create(null);
    for (const [k, v] of Object.entries(json)) {
      const keyJson = type.key.kind === "basic" && type.key.basic !== "string" && type.key.basic !== "char" && /^-?\d+(\.\d+)?$/.test(k) ? numberOf(k) : k;
      const key = element(keyJson, type.key, pointer("", k));
      out[String(key)] = element(v, type.value, pointer("", k));
    }
    return errors.length ? { ok: false, errors } : { ok: true, value: stringify(out) };
  }
  return { ok: false, errors: [{ path: "", message: "internal: not a container" }] };
}

export function encodeField(stored: unknown, field: FieldMeta): unknown {
  const t = field.type;
  if (t.kind === "collection" || t.kind === "map") return stored === null || stored === undefined ? null : parseJson(String(stored));
  return encodeValue(stored, t as ValueType, field.enumOrdinal);
}
