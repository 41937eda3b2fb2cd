/**
 * How a BigDecimal is stored: exactly, as text that sorts as the numbers do.
 *
 * SQLite has no decimal type (and the builds Extent runs on have no decimal extension): a REAL
 * keeps 15 to 17 digits, so 123456789012345678901234567890.123456789 came back as
 * 1.2345678901234568e+29. A BigDecimal column is TEXT instead, holding
 *
 *     <sort key> " " <the number as JSON writes it>
 *
 * - The number is the value's canonical JSON text, spelt as JavaScript spells a number (so a
 *   value a double holds reads as JavaScript would write it: 12.5, 1e+21, 1e-7): every spelling
 *   of one value (12.50, 1.25e1) is the same text.
 * - The sort key orders as the numbers do under SQLite's BINARY collation: a sign class (`1`
 *   negative, `2` zero, `3` positive), then for a positive value 0.d1d2… × 10^n the exponent n as
 *   five digits (n + 50000) and the digits d1d2… without trailing zeros; for a negative value the
 *   same with every digit complemented (9 − d) and a `~` after the digits, so that a larger
 *   magnitude sorts lower. The space after the key sorts below every digit, so 0.12 < 0.123.
 *
 * So `=`, `<`, `ORDER BY`, `min`/`max`, `GROUP BY` and DISTINCT work on the column (and its
 * index) as on numbers, exactly; literals and parameters compared with such a column are encoded
 * the same way (src/query/sql/expressions.ts). Arithmetic and the aggregates that compute (`sum`,
 * `avg`, `+`, `*`, functions) read the value as a double (`decimalRealSql`): the one
 * approximation. JSON selects write the text after the space as it is.
 */
import { type Decimal, JsonNumber, decimalOf } from "./exact.ts";

/** The exponents a stored decimal may have (0.d × 10^n): down to 10^-50000, up to a double's range. */
const EXPONENT_BIAS = 50000;

/**
 * A value for a BigDecimal (a number, or its text as a JSON number or a numeric string) in its
 * stored form; undefined when it is no decimal number at all.
 */
export function storedDecimal(json: unknown): { ok: true; value: string } | { ok: false; message: string } | undefined {
  const text =
    json instanceof JsonNumber
      ? json.text
      : typeof json === "number"
        ? Number.isFinite(json)
          ? String(json)
          : undefined
        : typeof json === "string"
          ? json
          : undefined;
  const d = text === undefined ? undefined : decimalOf(text);
  if (!d) return undefined;
  // A JSON reader of JavaScript (and the double that arithmetic reads) could not hold it.
  if (!Number.isFinite(Number(text))) return { ok: false, message: `${text} is out of range for a decimal (beyond ±${Number.MAX_VALUE}, a double's range)` };
  if (d.digits && d.exponent <= -EXPONENT_BIAS) return { ok: false, message: `${text} is out of range for a decimal (smaller than 1e-${EXPONENT_BIAS})` };
  return { ok: true, value: decimalKey(d) };
}

/** The stored text of a decimal: sort key, space, JSON number. */
export function decimalKey(d: Decimal): string {
  const text = decimalText(d);
  if (!d.digits) return `2 ${text}`;
  const exponent = String(d.exponent + EXPONENT_BIAS).padStart(5, "0");
  if (!d.negative) return `3${exponent}${d.digits} ${text}`;
  return `1${complement(exponent)}${complement(d.digits)}~ ${text}`;
}

const complement = (digits: string): string => digits.replace(/\d/g, (c) => String(9 - Number(c)));

/**
 * The value as JavaScript writes a number (ECMA-262 Number::toString), with all its digits; and,
 * as no double has more than 17 of them, in plain notation too when its digits reach the
 * decimal point (123456789012345678901234567890.123456789, not 1.23456789…e+29).
 */
export function decimalText(d: Decimal): string {
  const { digits, exponent: n } = d;
  const k = digits.length;
  if (!k) return "0";
  let text: string;
  if (0 < n && (n <= 21 || n <= k)) text = k <= n ? digits + "0".repeat(n - k) : `${digits.slice(0, n)}.${digits.slice(n)}`;
  else if (-6 < n && n <= 0) text = `0.${"0".repeat(-n)}${digits}`;
  else text = `${digits[0]}${k > 1 ? `.${digits.slice(1)}` : ""}e${n - 1 >= 0 ? "+" : "-"}${Math.abs(n - 1)}`;
  return d.negative ? `-${text}` : text;
}

/**
 * A stored decimal to JSON: its number, as a double where the double writes the same text (so
 * most values cost nothing more), else a `JsonNumber` of its digits. A number another writer (or
 * an earlier release, see src/mapping/migrate.ts) left in the column is answered as it is.
 */
export function decimalJson(stored: unknown): unknown {
  if (typeof stored !== "string") return typeof stored === "bigint" ? Number(stored) : stored;
  const text = stored.slice(stored.indexOf(" ") + 1);
  const x = Number(text);
  return String(x) === text ? x : decimalOf(text) ? new JsonNumber(text) : null;
}
