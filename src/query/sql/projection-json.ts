/**
 * Projections whose SQL writes the answer, as JSON selects do for objects: one row whatever the
 * number of rows projected, `a` their JSON joined by commas (in the query's order) and `n` how
 * many. A projected row never crosses into JavaScript (about 1 µs a value there, on the thread
 * that answers requests, and memory for each), and the answer's text is held to `answerBytes` in
 * SQL (the `$answerBytes` placeholder): past it the statement stops with SQLITE_TOOBIG.
 *
 * Each value is written as `decodeCell` (src/service/query.ts) writes it, through the same SQL twins
 * of `encodeValue` the JSON selects use (src/json/sql-values.ts); test/projection-json.test.ts
 * holds the two equal. Items SQL cannot write this way (objects, embedded values, ancestor keys,
 * collections, maps, untyped parameters) leave the projection to JavaScript: `undefined`.
 */
import { type Piece, concat, numberJson, valueJson } from "../../json/sql-values.ts";
import { type SQL, boundedText, param, qualified, sql, unplanned } from "../../store/sql.ts";
import type { QExpr, QQuery } from "../shared/model.ts";
import type { ResultColumn } from "./select.ts";

/** The placeholders of the answer's limit, and of the most rows read (one more than answerBytes holds). */
export const ANSWER_BYTES = "$answerBytes";
export const MOST_ROWS = "$mostRows";

export interface ProjectionJson {
  sql: SQL;
  /** The fewest characters a row takes in the answer: answerBytes / rowBytes rows at most. */
  rowBytes: number;
}

/**
 * The statement writing `projection`'s answer, or undefined when an item is not SQL's to write.
 * An aggregate's text is checked when it ends, so the rows it reads are bounded first: at most
 * one more than answerBytes holds of the shortest row (a cartesian product of eight extents
 * stops there, not at its 16 million rows).
 */
export function projectionJson(projection: SQL, columns: readonly ResultColumn[], shape: QQuery["shape"]): ProjectionJson | undefined {
  const values: SQL[] = [];
  let rowBytes = shape === "value" ? 1 : 2; // the comma between rows, and the brackets
  let at = 0;
  for (const c of columns) {
    const value = c.width === 1 && !c.parts ? cellJson(qualified("p", `r${at}`), c.expr) : undefined;
    if (!value) return undefined;
    values.push(value);
    rowBytes += (SHORTEST[c.expr.type.kind] ?? 1) + (shape === "object" ? JSON.stringify(c.alias).length + 1 : shape === "value" ? 0 : 1);
    at += c.width;
  }
  const pieces: Piece[] = [];
  if (shape === "value") pieces.push(values[0]!);
  else if (shape === "object") columns.forEach((c, i) => pieces.push(`${i ? "," : "{"}${JSON.stringify(c.alias)}:`, values[i]!));
  else values.forEach((v, i) => pieces.push(i ? "," : "[", v));
  if (shape === "object") pieces.push(columns.length ? "}" : "{}");
  else if (shape !== "value") pieces.push(values.length ? "]" : "[]");
  const joined = sql`group_concat(${concat(pieces)}, ',')`;
  const rows = sql`SELECT * FROM (${projection}) LIMIT ${unplanned(param(MOST_ROWS))}`;
  return {
    // The whole array, brackets too, so that the answer goes out as SQLite wrote it (src/read/json-rows.ts, JsonArray).
    sql: sql`SELECT '[' || coalesce(${boundedText(joined, param(ANSWER_BYTES))}, '') || ']' AS a, count(*) AS n FROM (${rows}) AS ${sql.identifier("p")}`,
    rowBytes,
  };
}

/** The shortest JSON a value of each kind is written as (every value may be `null`: 4). */
const SHORTEST: Partial<Record<QExpr["type"]["kind"], number>> = { number: 1, temporal: 1, string: 2, uuid: 2, bytes: 2, enum: 1, boolean: 4, null: 4 };

/** A projected value's JSON text, never NULL; undefined where JavaScript must write it. */
function cellJson(x: SQL, expr: QExpr): SQL | undefined {
  const type = expr.type;
  switch (type.kind) {
    case "null":
      return sql`'null'`;
    case "boolean":
      return valueJson(x, { kind: "basic", basic: "boolean", primitive: false }, false);
    case "number":
      // A long or BigInteger past 2^53 is selected as its digits (exactIntegerSql, select.ts), a
      // BigDecimal with a sort key as its stored text (src/json/decimal.ts): each its number.
      if (type.numeric === "decimal") return valueJson(x, { kind: "basic", basic: "decimal", primitive: false }, false);
      if (type.numeric === "long" || type.numeric === "biginteger")
        return sql`CASE typeof(${x}) WHEN 'text' THEN ${numberJson(sql`CAST(${x} AS NUMERIC)`)} ELSE ${numberJson(x)} END`;
      return numberJson(x);
    case "temporal":
      return numberJson(x);
    case "string":
      // A stored char U+0000 is '' (valueJson's char); a char the query gives is never '', and is
      // written as any string is, so that its SQL is a longer string's.
      if (type.char && expr.kind !== "literal" && expr.kind !== "param") return valueJson(x, { kind: "basic", basic: "char", primitive: false }, false);
      // A string item is text, whatever a function made of it (String(v) in JavaScript).
      return sql`CASE typeof(${x}) WHEN 'null' THEN 'null' WHEN 'text' THEN json_quote(${x}) ELSE json_quote(CAST(${x} AS TEXT)) END`;
    case "uuid":
      return sql`json_quote(${x})`;
    case "bytes":
      return valueJson(x, { kind: "basic", basic: "bytes", primitive: false }, false);
    case "enum":
      return valueJson(x, type.type, type.ordinal);
    default:
      return undefined;
  }
}
