/**
 * JSON numbers that a double cannot hold, read and written digit for digit. JSON numbers have any
 * precision; JavaScript's are doubles, so `JSON.parse` turns 9223372036854775807 (Java's largest
 * long) into 9223372036854775808 and `JSON.stringify` has no way to write more digits than a
 * double holds. Here:
 *
 * - `parseJson` reads JSON text as `JSON.parse` does, except that a number whose value a double
 *   does not hold exactly becomes a `JsonNumber` holding its text. Only text that may hold such a
 *   number (sixteen digits or more, or an exponent, where a value starts) is read a second time,
 *   by the exact reader below: other bodies cost one `JSON.parse`.
 * - `JsonNumber` is also how exact values are written: `stringify` writes its digits as a JSON
 *   number. (`JSON.stringify` calls its `toJSON`, which marks the digits with a lone surrogate,
 *   U+DFFF, that no stored text holds: bodies and parameters refuse it, SQLite's UTF-8 cannot keep
 *   it. `stringify` then takes the quotes and the mark away.)
 */

/** A JSON number a double does not hold exactly, by its text. */
export class JsonNumber {
  constructor(readonly text: string) {}

  toJSON(): string {
    return MARK + this.text;
  }

  toString(): string {
    return this.text;
  }
}

const MARK = "\uDFFF";
/** A marked number as `JSON.stringify` writes the mark: escaped, first thing in a string. */
const MARKED = /"\\udfff([-+.0-9eE]*)"/g;

/** `JSON.stringify`, with `JsonNumber`s written as their digits. */
export function stringify(value: unknown): string {
  const text = JSON.stringify(value);
  return text.includes("\\udfff") ? text.replace(MARKED, "$1") : text;
}

/**
 * A number where a value starts (the text's start, or after `[`, `,` or `:`) with sixteen digits
 * or more, or with an exponent: the only numbers a double may not hold exactly. A double holds
 * every decimal of fifteen significant digits (within its range), and writes it back the same.
 */
const MAY_BE_INEXACT = /(?:^|[[,:])\s*-?(?:(?:\d\.?){16}|\d+(?:\.\d+)?[eE])/;
/**
 * What every such number holds, tested first: a run of eight digits (sixteen digits with at most
 * one point between them) or a digit before an exponent. It scans a text in a quarter of the time
 * (a POST's 358 characters: 0.3 against 1.2 µs on Bun, 0.55 against 1.2 on Node), and few bodies have either.
 */
const MAY_HOLD_ONE = /\d{8}|\d[eE]/;

/** Parses JSON text (throwing as `JSON.parse` does); numbers a double cannot hold are `JsonNumber`s. */
export function parseJson(text: string): unknown {
  const value = JSON.parse(text);
  return MAY_HOLD_ONE.test(text) && MAY_BE_INEXACT.test(text) ? readExact(text) : value;
}

/** The number a JSON number token is: a double when it holds the token's value exactly, else a `JsonNumber`. */
export function numberOf(token: string): number | JsonNumber {
  const x = Number(token);
  // Fifteen characters hold fifteen digits at most, which a double writes back as it read them
  // (the key of a path, a version: the common case, without the two regular expressions below).
  if (token.length <= 15 && !token.includes("e") && !token.includes("E")) return x;
  return sameDecimal(decimalOf(token), decimalOf(String(x))) ? x : new JsonNumber(token);
}

/**
 * A decimal number as digits and exponent: its value is ±0.`digits` × 10^`exponent`, `digits`
 * without leading or trailing zeros ("" for zero, whose exponent is 0). Every spelling of one
 * number gives the same parts (`1.50`, `15e-1`, `0.015E2`).
 */
export interface Decimal {
  negative: boolean;
  digits: string;
  exponent: number;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?$/;

/** The parts of a decimal number's text (JSON's number syntax, leading zeros allowed), or undefined. */
export function decimalOf(text: string): Decimal | undefined {
  const m = DECIMAL.exec(text);
  if (!m) return undefined;
  const all = m[2]! + (m[3] ?? "");
  const first = all.search(/[1-9]/);
  if (first < 0) return { negative: false, digits: "", exponent: 0 };
  let end = all.length;
  while (all.charCodeAt(end - 1) === 48) end--;
  return { negative: m[1] === "-", digits: all.slice(first, end), exponent: m[2]!.length - first + Number(m[4] ?? 0) };
}

const sameDecimal = (a: Decimal | undefined, b: Decimal | undefined): boolean =>
  !!a && !!b && a.negative === b.negative && a.digits === b.digits && a.exponent === b.exponent;

/**
 * A whole number's exact value, or undefined when `json` is not a whole number. A value far past
 * 64 bits comes back as ±10^40 (enough to be out of every range) rather than as its digits.
 */
export function wholeNumber(json: unknown): bigint | undefined {
  if (typeof json === "number") return Number.isInteger(json) ? BigInt(json) : undefined;
  if (!(json instanceof JsonNumber)) return undefined;
  const d = decimalOf(json.text);
  if (!d || d.digits.length > d.exponent) return undefined;
  const magnitude = d.exponent > 40 ? 10n ** 40n : BigInt(d.digits + "0".repeat(d.exponent - d.digits.length));
  return d.negative ? -magnitude : magnitude;
}

/**
 * Whole numbers as Extent holds them in memory (and binds them): a number within ±(2^53 − 1),
 * else its decimal digits, canonical as SQLite writes an integer as text. SQLite stores digits
 * bound to an INTEGER column as the integer, and a read gives such a value back as the same text
 * (see `exactIntegerSql`), so each value has one form whichever way it came.
 */
export function integerValue(n: bigint): number | string {
  return n >= -MAX_SAFE && n <= MAX_SAFE ? Number(n) : String(n);
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A whole number as held (`integerValue`), or as a driver gives it, to JSON: exactly. */
export function integerJson(held: unknown): unknown {
  if (typeof held === "number") return held;
  if (typeof held === "bigint") return Number.isSafeInteger(Number(held)) ? Number(held) : new JsonNumber(String(held));
  if (typeof held === "string" && /^-?\d+$/.test(held)) return Number.isSafeInteger(Number(held)) ? Number(held) : new JsonNumber(held);
  // A fraction (or text) another writer left in an INTEGER column.
  return typeof held === "string" ? Number(held) : held;
}

/**
 * The exact reader, for valid JSON (`JSON.parse` has read it): one token at a time, containers
 * on an explicit stack (a body may nest deeper than the call stack allows).
 */
const TOKEN = /\s*(?:("[^"\\]*(?:\\.[^"\\]*)*")|(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)|(true|false|null)|([[\]{},:]))/y;

function readExact(text: string): unknown {
  const open: (unknown[] | Record<string, unknown>)[] = [];
  const keys: (string | undefined)[] = [];
  let root: unknown;
  let key: string | undefined;
  let expectKey = false;
  const put = (value: unknown) => {
    const into = open[open.length - 1];
    if (!into) root = value;
    else if (Array.isArray(into)) into.push(value);
    // An own member, as JSON.parse makes it: assigning "__proto__" would set the prototype.
    else if (key === "__proto__") Object.defineProperty(into, key, { value, writable: true, enumerable: true, configurable: true });
    else into[key!] = value;
  };
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m; m = TOKEN.exec(text)) {
    if (m[1] !== undefined) {
      const s = m[1].includes("\\") ? (JSON.parse(m[1]) as string) : m[1].slice(1, -1);
      if (expectKey) ((key = s), (expectKey = false));
      else put(s);
    } else if (m[2] !== undefined) put(numberOf(m[2]));
    else if (m[3] !== undefined) put(m[3] === "null" ? null : m[3] === "true");
    else if (m[4] === "{" || m[4] === "[") {
      const container = m[4] === "{" ? {} : [];
      put(container);
      open.push(container);
      keys.push(key);
      expectKey = m[4] === "{";
    } else if (m[4] === "}" || m[4] === "]") {
      open.pop();
      key = keys.pop();
      expectKey = false;
    } else if (m[4] === ",") expectKey = !Array.isArray(open[open.length - 1]);
  }
  return root;
}
