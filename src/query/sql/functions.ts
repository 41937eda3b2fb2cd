/**
 * Scalar functions in SQLite, with Java's conventions: 0-based positions, end-exclusive
 * substrings, -1 for "not found", prefix tests that treat `%` and `_` as ordinary characters.
 * Dates are epoch milliseconds (UTC).
 */
import { fail } from "../shared/errors.ts";
import { type GlobMatch, LINE_TERMINATORS, RegexRefusal, regexToGlob } from "../shared/java-regex.ts";
import type { QExpr } from "../shared/model.ts";
import { type SQL, join, sql, unplanned } from "../../store/sql.ts";
import { placeholder } from "./context.ts";
import { computedOnce } from "./once.ts";

/** The current instant in epoch milliseconds (dates and times are stored that way). */
const NOW_MS = sql`CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)`;

const part = (format: string, v: SQL) => sql`CAST(strftime(${sql.raw(`'${format}'`)}, ${v} / 1000.0, 'unixepoch') AS INTEGER)`;

export function fnSql(e: Extract<QExpr, { kind: "fn" }>, a: SQL[]): SQL {
  const { name, args } = e;
  const [s, x, y] = a;
  switch (name) {
    case "lower":
      return sql`lower(${s})`;
    case "upper":
      return sql`upper(${s})`;
    case "length":
      return sql`length(${s})`;
    case "trim":
      return x ? sql`trim(${s}, ${x})` : sql`trim(${s})`;
    case "trimLeft":
      return x ? sql`ltrim(${s}, ${x})` : sql`ltrim(${s})`;
    case "trimRight":
      return x ? sql`rtrim(${s}, ${x})` : sql`rtrim(${s})`;
    // Java: an offset outside the string starts with nothing (false, not an error).
    case "startsWith":
      return y
        ? computedOnce([s!, x!, y], ([v, p, at]) => sql`(${at} >= 0 AND ${at} <= length(${v}) AND substr(${v}, ${at} + 1, length(${p})) = ${p})`)
        : sql`(substr(${s}, 1, length(${x})) = ${x})`;
    case "endsWith":
      return sql`(length(${x}) = 0 AND ${s} IS NOT NULL OR substr(${s}, -length(${x})) = ${x} AND length(${s}) >= length(${x}))`;
    case "indexOf":
      if (!y) return sql`(instr(${s}, ${x}) - 1)`;
      // Java: a negative start searches from 0.
      return computedOnce(
        [s!, x!, sql`max(${y}, 0)`],
        ([v, p, from]) => sql`(CASE WHEN instr(substr(${v}, ${from} + 1), ${p}) = 0 THEN -1 ELSE instr(substr(${v}, ${from} + 1), ${p}) + ${from} - 1 END)`,
      );
    case "substring":
      if (e.javaBounds) return y ? javaSubstring(s!, x!, y) : javaSubstring(s!, x!);
      return y ? sql`substr(${s}, ${x} + 1, ${y} - ${x})` : sql`substr(${s}, ${x} + 1)`;
    case "charAt":
      if (e.javaBounds) return computedOnce([s!, x!], ([v, i]) => sql`(CASE WHEN ${i} >= 0 AND ${i} < length(${v}) THEN substr(${v}, ${i} + 1, 1) END)`);
      return sql`substr(${s}, ${x} + 1, 1)`;
    case "equalsIgnoreCase":
      return sql`(lower(${s}) = lower(${x}))`;
    case "matches":
      return matches(s!, args[1]!);
    case "abs":
      return sql`abs(${s})`;
    // Outside their domains Java answers NaN, which JSON has not: null (SQLite would raise an error).
    case "sqrt":
      return sql`(CASE WHEN ${s} >= 0 THEN sqrt(${s}) END)`;
    case "ceil":
      return sql`ceil(${s})`;
    case "floor":
      return sql`floor(${s})`;
    case "exp":
      return sql`exp(${s})`;
    case "log":
      return sql`(CASE WHEN ${s} > 0 THEN ln(${s}) END)`;
    case "asin":
    case "acos":
      return sql`(CASE WHEN ${s} BETWEEN -1 AND 1 THEN ${sql.raw(name)}(${s}) END)`;
    case "sin":
    case "cos":
    case "tan":
    case "atan":
      return sql`${sql.raw(name)}(${s})`;
    case "round":
      return sql`CAST(floor(${s} + 0.5) AS INTEGER)`;
    case "sign":
      return sql`sign(${s})`;
    case "power":
      return sql`power(${s}, ${x})`;
    case "mod":
      return sql`(${s} % ${x})`;
    case "year":
      return part("%Y", s!);
    case "month0":
      return sql`(${part("%m", s!)} - 1)`;
    case "month1":
      return part("%m", s!);
    case "day":
      return part("%d", s!);
    case "hour":
      return part("%H", s!);
    case "minute":
      return part("%M", s!);
    case "second":
      return part("%S", s!);
    case "dayOfWeek":
      return sql`(${part("%w", s!)} + 1)`;
    case "quarter":
      return sql`((${part("%m", s!)} - 1) / 3 + 1)`;
    // ISO 8601 week: the day of the year of this week's Thursday, in weeks.
    case "isoWeek":
      return sql`((CAST(strftime('%j', ${s} / 1000.0, 'unixepoch', '-3 days', 'weekday 4') AS INTEGER) - 1) / 7 + 1)`;
    // Floor, not truncation: dates before 1970 are negative milliseconds.
    case "datePart":
      return sql`(${s} - ((${s} % 86400000) + 86400000) % 86400000)`;
    case "timePart":
      return sql`(((${s} % 86400000) + 86400000) % 86400000)`;
    case "ordinal":
      return enumOrdinal(s!, args[0]!);
    case "enumName":
      return enumName(s!, args[0]!);
    case "coalesce":
      return sql`coalesce(${join(a)})`;
    case "like":
      return like(s!, args[1]!, args[2]);
    case "left":
      return sql`substr(${s}, 1, ${x})`;
    case "right":
      return sql`(CASE WHEN ${x} <= 0 THEN '' ELSE substr(${s}, -(${x})) END)`;
    case "replace":
      return sql`replace(${s}, ${x}, ${y})`;
    case "roundTo":
      return roundTo(s!, x!, args[1]!);
    case "currentTimestamp":
      return NOW_MS;
    case "database":
      // The name is one of a fixed list of SQLite functions (src/query/jpql/database-functions.ts).
      return sql`${sql.raw(e.database!)}(${join(a)})`;
    case "currentDate":
      return sql`(${NOW_MS} / 86400000 * 86400000)`;
    case "currentTime":
      return sql`(${NOW_MS} % 86400000)`;
    case "nullif":
      return sql`nullif(${s}, ${x})`;
  }
}

/**
 * Java's substring(begin[, end]): when 0 <= begin <= end <= length, else null (Java throws
 * StringIndexOutOfBoundsException; JDOQL treats a failed evaluation as null, so a comparison with
 * it does not hold). SQLite's substr would clamp the indexes and answer some text.
 */
function javaSubstring(s: SQL, begin: SQL, end?: SQL): SQL {
  if (!end) return computedOnce([s, begin], ([v, b]) => sql`(CASE WHEN ${b} >= 0 AND ${b} <= length(${v}) THEN substr(${v}, ${b} + 1) END)`);
  return computedOnce(
    [s, begin, end],
    ([v, b, e]) => sql`(CASE WHEN ${b} >= 0 AND ${b} <= ${e} AND ${e} <= length(${v}) THEN substr(${v}, ${b} + 1, ${e} - ${b}) END)`,
  );
}

/**
 * ROUND(n, places): a negative count of places rounds to tens, hundreds... (ROUND(38, -1) is 40,
 * as BigDecimal's setScale rounds), where SQLite's round() takes it as 0. Halves go away from zero
 * either way. Beyond 308 places every double rounds to 0 (and 10^309 is no double).
 */
function roundTo(n: SQL, places: SQL, placesExpr: QExpr): SQL {
  const tens = (v: SQL, p: SQL) => sql`(CASE WHEN ${p} < -308 THEN 0.0 ELSE round(${v} / power(10, -${p})) * power(10, -${p}) END)`;
  if (placesExpr.kind === "literal" && typeof placesExpr.value === "number") return placesExpr.value >= 0 ? sql`round(${n}, ${places})` : tens(n, places);
  return computedOnce([n, places], ([v, p]) => sql`(CASE WHEN ${p!} >= 0 THEN round(${v!}, ${p!}) ELSE ${tens(v!, p!)} END)`);
}

function enumOrdinal(v: SQL, e: QExpr): SQL {
  if (e.type.kind !== "enum" || e.type.ordinal) return v;
  return sql`(CASE ${v} ${join(
    e.type.type.constants.map((c, i) => sql`WHEN ${c} THEN ${i}`),
    sql` `,
  )} END)`;
}

function enumName(v: SQL, e: QExpr): SQL {
  if (e.type.kind !== "enum" || !e.type.ordinal) return v;
  return sql`(CASE ${v} ${join(
    e.type.type.constants.map((c, i) => sql`WHEN ${i} THEN ${c}`),
    sql` `,
  )} END)`;
}

/**
 * `matches` takes the Java regular expressions GLOB can state exactly (shared/java-regex.ts):
 * GLOB is case-sensitive (unlike LIKE), `(?i)` compares lower(s) with a lower-cased pattern, and
 * an unbounded `.` also requires a string without line terminators. A parameter's pattern is
 * translated when the query runs (see params.ts: placeholders `.glob`, `.ci` and `.nl`).
 */
function matches(s: SQL, pattern: QExpr): SQL {
  if (pattern.kind === "param") {
    const subject = sql`(CASE WHEN ${placeholder(pattern.ref, "ci")} = 1 THEN lower(${s}) ELSE ${s} END)`;
    return sql`(${subject} GLOB ${unplanned(placeholder(pattern.ref, "glob"))} AND NOT (${placeholder(pattern.ref, "nl")} = 1 AND ${s} GLOB ${unplanned(ANY_LINE_TERMINATOR)}))`;
  }
  if (pattern.kind !== "literal" || typeof pattern.value !== "string") return fail("matches() takes a literal or parameter pattern", pattern.pos);
  let m: GlobMatch;
  try {
    m = regexToGlob(pattern.value);
  } catch (e) {
    if (e instanceof RegexRefusal) fail(`matches(): ${e.message}`, pattern.pos);
    throw e;
  }
  const test = m.caseInsensitive ? sql`(lower(${s}) GLOB ${unplanned(m.glob)})` : sql`(${s} GLOB ${unplanned(m.glob)})`;
  return m.singleLine ? sql`(${test} AND ${s} NOT GLOB ${unplanned(ANY_LINE_TERMINATOR)})` : test;
}

const ANY_LINE_TERMINATOR = `*[${LINE_TERMINATORS}]*`;

const globLiteral = (c: string) => (c === "*" || c === "?" || c === "[" ? `[${c}]` : c);

/**
 * JPQL LIKE is case-sensitive (SQLite's LIKE is not, for ASCII): `%` and `_` become GLOB's `*`
 * and `?`. A parameter's pattern is translated when the query runs (placeholder `.glob`).
 */
function like(s: SQL, pattern: QExpr, escape: QExpr | undefined): SQL {
  if (pattern.kind === "param") return sql`(${s} GLOB ${unplanned(placeholder(pattern.ref, "glob"))})`;
  if (pattern.kind !== "literal" || typeof pattern.value !== "string") return fail("LIKE takes a literal or parameter pattern", pattern.pos);
  const esc = escape && escape.kind === "literal" && typeof escape.value === "string" ? escape.value : undefined;
  if (escape && esc === undefined) fail("ESCAPE takes a one-character string literal", escape.pos);
  return sql`(${s} GLOB ${unplanned(likeToGlob(pattern.value, esc))})`;
}

export function likeToGlob(pattern: string, escape?: string): string {
  let glob = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (escape && c === escape && i + 1 < pattern.length) glob += globLiteral(pattern[++i]!);
    else if (c === "%") glob += "*";
    else if (c === "_") glob += "?";
    else glob += globLiteral(c);
  }
  return glob;
}
