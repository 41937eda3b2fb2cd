/**
 * Text read as a number, as Java reads it (Integer.parseInt, Long.parseLong, Float.parseFloat,
 * Double.parseDouble), for JPQL's CAST(text AS INTEGER|LONG|FLOAT|DOUBLE). SQLite's CAST reads any
 * text as the longest number at its start, else 0 (CAST('Alice' AS REAL) is 0, CAST('12abc' AS
 * INTEGER) 12): a number no one wrote. Here text that Java would refuse (or read as an infinity or
 * NaN, which JSON cannot hold) is no number: a literal is the query's error, and a value of a row
 * converts to null, as a failed evaluation does.
 *
 * Integers: an optional sign and decimal digits, within the type's range. Decimals: surrounding
 * blanks, an optional sign, digits with an optional point (or a point and digits), an optional
 * exponent and an optional f/F/d/D suffix.
 */
import { type SQL, sql } from "../../store/sql.ts";
import type { NumericKind } from "../shared/model.ts";
import { longValue } from "../shared/types.ts";
import { computedOnce } from "./once.ts";

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?$/;
/** Java's trim(): every character up to U+0020 (in SQL without U+0000, which ends a C string there and no stored text holds). */
const BLANKS = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;
const BLANK_CHARS = sql.raw(`char(${Array.from({ length: 32 }, (_, i) => i + 1).join(", ")})`);

const INTEGER_LIMITS: Partial<Record<NumericKind, [bigint, bigint]>> = {
  byte: [-128n, 127n],
  short: [-32768n, 32767n],
  int: [-(2n ** 31n), 2n ** 31n - 1n],
  long: [-(2n ** 63n), 2n ** 63n - 1n],
};
const DECIMAL_LIMITS: Partial<Record<NumericKind, number>> = { float: 3.4028234663852886e38, double: Number.MAX_VALUE };

/** The number a literal text is for `numeric`, or undefined when it is none. */
export function numberOfText(text: string, numeric: NumericKind): number | bigint | undefined {
  const limits = INTEGER_LIMITS[numeric];
  if (limits) {
    if (!INTEGER.test(text)) return undefined;
    const n = BigInt(text);
    return n < limits[0] || n > limits[1] ? undefined : longValue(n);
  }
  const trimmed = text.replace(BLANKS, "");
  if (!DECIMAL.test(trimmed)) return undefined;
  const n = Number(trimmed.replace(/[fFdD]$/, ""));
  return Math.abs(n) <= (DECIMAL_LIMITS[numeric] ?? Number.MAX_VALUE) ? n : undefined;
}

/** The same reading in SQL, of a text value: its number, or NULL. */
export function numberOfTextSql(text: SQL, numeric: NumericKind): SQL {
  const limits = INTEGER_LIMITS[numeric];
  if (limits) return computedOnce([text], ([t]) => integerSql(t!, limits));
  const max = sql.raw(String(DECIMAL_LIMITS[numeric] ?? Number.MAX_VALUE));
  // The text without blanks, then without its sign and suffix: a mantissa and an optional exponent.
  const trimmed = sql`trim(${text}, ${BLANK_CHARS})`;
  return computedOnce([trimmed], ([t]) =>
    computedOnce(
      [sql`rtrim(CASE WHEN ${t} GLOB '[+-]*' THEN substr(${t}, 2) ELSE ${t} END, 'fFdD')`, sql`length(${t}) - length(rtrim(${t}, 'fFdD'))`, t!],
      ([body, suffix, whole]) =>
        computedOnce([sql`instr(lower(${body}), 'e')`, body!, suffix!, whole!], ([e, b, suffixes, w]) => {
          const mantissa = sql`(CASE WHEN ${e} > 0 THEN substr(${b}, 1, ${e} - 1) ELSE ${b} END)`;
          const exponent = sql`(CASE WHEN substr(${b}, ${e} + 1, 1) IN ('+', '-') THEN substr(${b}, ${e} + 2) ELSE substr(${b}, ${e} + 1) END)`;
          const valid = sql`${suffixes} <= 1 AND ${mantissa} GLOB '*[0-9]*' AND ${mantissa} NOT GLOB '*[^0-9.]*' AND ${mantissa} NOT GLOB '*.*.*' AND (${e} = 0 OR (${exponent} <> '' AND ${exponent} NOT GLOB '*[^0-9]*'))`;
          return sql`(CASE WHEN ${valid} AND abs(CAST(${w} AS REAL)) <= ${max} THEN CAST(${w} AS REAL) END)`;
        }),
    ),
  );
}

/**
 * Digits with an optional sign, within [min, max]: compared as text once leading zeros are gone
 * (same length, then the digits), so that no step leaves 64 bits.
 */
function integerSql(t: SQL, [min, max]: [bigint, bigint]): SQL {
  const lowest = sql.raw(`'${(-min).toString()}'`);
  const highest = sql.raw(`'${max.toString()}'`);
  return computedOnce(
    [
      sql`ltrim(CASE WHEN ${t} GLOB '[+-]*' THEN substr(${t}, 2) ELSE ${t} END, '0')`,
      sql`CASE WHEN ${t} GLOB '[+-]*' THEN substr(${t}, 2) ELSE ${t} END`,
      sql`${t} GLOB '-*'`,
      t,
    ],
    ([digits, unsigned, negative, whole]) => {
      const limit = sql`(CASE WHEN ${negative} THEN ${lowest} ELSE ${highest} END)`;
      const valid = sql`${unsigned} <> '' AND ${unsigned} NOT GLOB '*[^0-9]*' AND (length(${digits}) < length(${limit}) OR (length(${digits}) = length(${limit}) AND ${digits} <= ${limit}))`;
      return sql`(CASE WHEN ${valid} THEN CAST(${whole} AS INTEGER) END)`;
    },
  );
}
