/**
 * Values between JSON and the store, per the contract: dates and times as epoch milliseconds
 * (ISO-8601 accepted on input), `char` a one-character string, `byte[]` base64, enums by constant
 * name, BigDecimal/BigInteger as numbers, collections as arrays and maps as objects (stored as
 * JSON text). Decoding validates; each failure says what was expected.
 */
import type { BasicKind, FieldMeta, FieldType, ValueType } from "../metadata/model.ts";

export type Decoded = { ok: true; value: unknown } | { ok: false; message: string };

const ok = (value: unknown): Decoded => ({ ok: true, value });
const bad = (message: string): Decoded => ({ ok: false, message });

const INT_RANGE: Partial<Record<BasicKind, [number, number]>> = {
  byte: [-128, 127],
  short: [-32768, 32767],
  int: [-2147483648, 2147483647],
  long: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  biginteger: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;
const DAY_MS = 86_400_000;

function describe(json: unknown): string {
  if (json === null) return "null";
  if (Array.isArray(json)) return "an array";
  return typeof json === "object" ? "an object" : `${typeof json} ${JSON.stringify(json)}`;
}

function decodeDate(json: unknown, kind: BasicKind): Decoded {
  if (typeof json === "number") return Number.isSafeInteger(json) ? ok(json) : bad(`expected epoch milliseconds (an integer), got ${json}`);
  if (typeof json !== "string") return bad(`expected epoch milliseconds or an ISO-8601 string, got ${describe(json)}`);
  if (kind === "local-time") {
    const m = LOCAL_TIME.exec(json);
    if (!m || +m[1]! > 23 || +m[2]! > 59 || +(m[3] ?? 0) > 59) return bad(`expected a time "HH:MM[:SS[.sss]]", got ${JSON.stringify(json)}`);
    return ok(((+m[1]! * 60 + +m[2]!) * 60 + +(m[3] ?? 0)) * 1000 + Math.floor(+`0.${m[4] ?? 0}` * 1000));
  }
  if (kind === "local-date" || kind === "sql-date") {
    const m = LOCAL_DATE.exec(json);
    if (m) {
      const ms = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!);
      if (new Date(ms).getUTCDate() !== +m[3]!) return bad(`not a calendar date: ${JSON.stringify(json)}`);
      return ok(ms);
    }
  }
  // A date-time without a zone is read as UTC, as the contract defines times.
  const text = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(json) ? json + "Z" : json;
  const ms = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(json) || Number.isNaN(ms)) return bad(`expected an ISO-8601 date or epoch milliseconds, got ${JSON.stringify(json)}`);
  return ok(kind === "local-date" ? Math.floor(ms / DAY_MS) * DAY_MS : ms);
}

function decodeBasic(json: unknown, kind: BasicKind): Decoded {
  switch (kind) {
    case "boolean":
      return typeof json === "boolean" ? ok(json ? 1 : 0) : bad(`expected true or false, got ${describe(json)}`);
    case "byte": case "short": case "int": case "long": case "biginteger": {
      const [min, max] = INT_RANGE[kind]!;
      if (typeof json !== "number" || !Number.isInteger(json)) return bad(`expected an integer (${kind}), got ${describe(json)}`);
      return json < min || json > max ? bad(`${json} is out of range for ${kind} (${min} to ${max})`) : ok(json);
    }
    case "float": case "double":
      return typeof json === "number" && Number.isFinite(json) ? ok(json) : bad(`expected a number (${kind}), got ${describe(json)}`);
    case "decimal":
      if (typeof json === "number" && Number.isFinite(json)) return ok(json);
      if (typeof json === "string" && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(json)) return ok(Number(json));
      return bad(`expected a decimal number, got ${describe(json)}`);
    case "char":
      return typeof json === "string" && [...json].length === 1 ? ok(json) : bad(`expected a one-character string, got ${describe(json)}`);
    case "string":
      return typeof json === "string" ? ok(json) : bad(`expected a string, got ${describe(json)}`);
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
    case "string": case "char": case "uuid":
      return String(stored);
    case "bytes":
      return toBase64(stored);
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
    let values = json.map((v, i) => element(v, type.element, `/${i}`));
    if (type.collection === "set") values = [...new Map(values.map((v) => [JSON.stringify(v), v])).values()];
    return errors.length ? { ok: false, errors } : { ok: true, value: JSON.stringify(values) };
  }
  if (type.kind === "map") {
    if (json === null || typeof json !== "object" || Array.isArray(json)) return { ok: false, errors: [{ path: "", message: `expected an object, got ${describe(json)}` }] };
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(json)) {
      const keyJson = type.key.kind === "basic" && type.key.basic !== "string" && type.key.basic !== "char" && /^-?\d+(\.\d+)?$/.test(k) ? Number(k) : k;
      const key = element(keyJson, type.key, `/${k}`);
      out[String(key)] = element(v, type.value, `/${k}`);
    }
    return errors.length ? { ok: false, errors } : { ok: true, value: JSON.stringify(out) };
  }
  return { ok: false, errors: [{ path: "", message: "internal: not a container" }] };
}

export function encodeField(stored: unknown, field: FieldMeta): unknown {
  const t = field.type;
  if (t.kind === "collection" || t.kind === "map") return stored === null || stored === undefined ? null : JSON.parse(String(stored));
  return encodeValue(stored, t as ValueType, field.enumOrdinal);
}
