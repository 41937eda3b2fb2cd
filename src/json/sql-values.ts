/**
 * Stored values to JSON text, written by SQLite: the SQL twin of `encodeValue` and `encodeField`
 * (src/json/values.ts), for reads whose SQL writes the answer (src/read/json-select.ts). Every
 * expression here yields JSON text and is never NULL (a NULL value is the text `null`), so the
 * pieces of an object can be concatenated without checks.
 *
 * SQLite has no base64: a `byte[]` is written as its hex between two U+0001 marks, inside the
 * string's quotes (a character JSON text never holds raw: json_quote escapes it), and
 * `base64Marks` turns each into base64 when the row is read.
 *
 * What SQLite cannot write as JavaScript does is refused with `NotInSql`, and the read takes the
 * object path instead: ancestor keys (nested JSON with the key class added at every level).
 */
import type { FieldMeta, FieldType, ValueType } from "../metadata/model.ts";
import { type SQL, join, literal, sql } from "../store/sql.ts";

/**
 * A value or field the SQL writer cannot express; the caller falls back to the object path.
 * `tooLarge`: the plan itself is too large for one statement (a fetch plan that deep or wide).
 */
export class NotInSql extends Error {
  constructor(
    message: string,
    readonly tooLarge = false,
  ) {
    super(message);
  }
}

/** JSON text of a constant, as an SQL literal. */
const jsonLiteral = (value: unknown): SQL => literal(JSON.stringify(value));

/**
 * A REAL as JavaScript writes it: the shortest of 15, 16 or 17 significant digits that reads back
 * as the same double. (`json_quote` writes 15 digits and loses precision: 0.1 + 0.2 became 0.3.)
 * The digits are JavaScript's; an exponent may be spelt differently (`1e-07` for `1e-7`), which
 * every JSON reader takes as the same number. Infinities are `null`, as JSON.stringify writes them.
 */
function real(x: SQL): SQL {
  const g = (digits: number) => sql`printf(${sql.raw(`'%.${digits}g'`)}, ${x})`;
  return sql`CASE WHEN ${x} = 0 THEN '0' WHEN ${x} IN (9e999, -9e999) THEN 'null' WHEN CAST(${g(15)} AS REAL) = ${x} THEN ${g(15)} WHEN CAST(${g(16)} AS REAL) = ${x} THEN ${g(16)} ELSE printf('%!.17g', ${x}) END`;
}

/** A number of any storage class: integers exactly, reals as above, anything else (not a number) null. */
export function numberJson(x: SQL): SQL {
  return sql`CASE typeof(${x}) WHEN 'integer' THEN ${x} WHEN 'real' THEN ${real(x)} ELSE 'null' END`;
}

/**
 * A whole number (INTEGER columns: integer kinds, dates, versions, sequence keys), in a short
 * expression (keys and references repeat it at every level of a plan). INTEGER affinity stores
 * every whole number as an integer; a fraction another writer stored is written as SQLite writes
 * a REAL (15 digits), anything else as null.
 */
export function integerJson(x: SQL): SQL {
  return sql`iif(typeof(${x}) IN ('integer', 'real'), ${x}, 'null')`;
}

/** Kinds stored in INTEGER columns. */
const INTEGER_KINDS = new Set([
  "byte",
  "short",
  "int",
  "long",
  "biginteger",
  "date",
  "sql-date",
  "timestamp",
  "local-date",
  "local-date-time",
  "local-time",
  "instant",
]);

export const isWholeNumber = (type: ValueType): boolean => type.kind === "basic" && INTEGER_KINDS.has(type.basic);

/** A stored BigDecimal as a double, for arithmetic (src/json/decimal.ts): its number, after the sort key. */
export function decimalRealSql(x: SQL): SQL {
  return sql`CAST(substr(${x}, instr(${x}, ' ') + 1) AS REAL)`;
}

/** Kinds whose values may pass 2^53 (a long, a BigInteger): held as their digits beyond it (src/json/exact.ts). */
export const isWideInteger = (type: ValueType): boolean => type.kind === "basic" && (type.basic === "long" || type.basic === "biginteger");

/**
 * A whole number as the object path reads it into JavaScript: as it is within ±(2^53 − 1), else
 * its digits as text, the form Extent holds it in (`integerValue`). No driver gives the digits of
 * an integer past 2^53: D1 and the embedded binding round it to a double, @libsql/client refuses
 * it. (SQL that writes JSON needs none of this: SQLite writes every integer's digits.)
 */
export function exactIntegerSql(x: SQL): SQL {
  return sql`iif(${x} BETWEEN -9007199254740991 AND 9007199254740991, ${x}, CAST(${x} AS TEXT))`;
}

/**
 * A key part's JSON text: as `valueJson`, except that a whole-number key is its column as it is
 * (a key is never NULL, and a single INTEGER key is the table's rowid: always an integer; a
 * foreign key holding one is NULL or such a key).
 */
export function keyJson(x: SQL, type: ValueType): SQL {
  return isWholeNumber(type) ? x : valueJson(x, type, false);
}

/** A single value's JSON text, as `encodeValue(stored, type, ordinal)` writes it. */
export function valueJson(x: SQL, type: ValueType, ordinal: boolean): SQL {
  if (type.kind === "enum") {
    if (!ordinal) return sql`json_quote(${x})`;
    const arms = type.constants.map((c, i) => sql`WHEN ${sql.raw(String(i))} THEN ${jsonLiteral(c)}`);
    return arms.length ? sql`CASE ${x} ${join(arms, sql` `)} ELSE 'null' END` : sql`'null'`;
  }
  if (type.kind !== "basic") throw new NotInSql(`${type.kind} values`);
  switch (type.basic) {
    case "boolean":
      return sql`CASE WHEN ${x} IS NULL THEN 'null' WHEN ${x} THEN 'true' ELSE 'false' END`;
    case "char":
      // The char U+0000 is stored as '' (see NUL_CHAR).
      return sql`CASE WHEN ${x} IS NULL THEN 'null' WHEN ${x} = '' THEN ${jsonLiteral("\u0000")} ELSE json_quote(CAST(${x} AS TEXT)) END`;
    case "string":
    case "uuid":
      // TEXT affinity stores numbers as text, so the column holds text (or NULL, written null).
      return sql`json_quote(${x})`;
    case "bytes":
      return sql`CASE WHEN ${x} IS NULL THEN 'null' ELSE '"' || char(1) || hex(${x}) || char(1) || '"' END`;
    case "float":
    case "double":
      return numberJson(x);
    case "decimal":
      // Its stored text ends with its JSON number (src/json/decimal.ts); a number an earlier release left is written as one.
      return sql`CASE typeof(${x}) WHEN 'text' THEN substr(${x}, instr(${x}, ' ') + 1) ELSE ${numberJson(x)} END`;
    default:
      return integerJson(x);
  }
}

/**
 * A field stored in its owner's row, as `encodeField` writes it: `columns` are the field's own
 * column, or its embedded object's columns by embedded field name.
 */
export function storedFieldJson(field: FieldMeta, column: SQL | undefined, embedded?: { fields: Iterable<FieldMeta>; columns: ReadonlyMap<string, SQL> }): SQL {
  const t: FieldType = field.type;
  if (t.kind === "embedded") {
    if (!embedded) throw new NotInSql("an embedded field without columns");
    const refs = [...embedded.columns.values()];
    const parts: Piece[] = [];
    let first = true;
    for (const f of embedded.fields) {
      const col = embedded.columns.get(f.name);
      parts.push(`${first ? "{" : ","}${JSON.stringify(f.name)}:`, col ? storedFieldJson(f, col) : "null");
      first = false;
    }
    parts.push(first ? "{}" : "}");
    // An embedded object whose columns are all NULL is null.
    const allNull = refs.length
      ? join(
          refs.map((r) => sql`${r} IS NULL`),
          sql` AND `,
        )
      : sql`1`;
    return sql`CASE WHEN ${allNull} THEN 'null' ELSE ${concat(parts)} END`;
  }
  if (!column) return sql`'null'`;
  if (t.kind === "collection" || t.kind === "map") {
    if (field.relation) throw new NotInSql("a relation stored as a value");
    // Stored as the JSON text of its JSON form; json() checks it and writes it compact.
    return sql`coalesce(json(${column}), 'null')`;
  }
  return valueJson(column, t, field.enumOrdinal);
}

/** A piece of JSON text: constant text, or an SQL expression yielding (non-NULL) text. */
export type Piece = string | SQL;

/**
 * Pieces joined into one text: adjacent constants merged into one literal, the rest joined by
 * `concat()` (which takes NULL as '': every piece here is non-NULL by construction) in slices well
 * under SQLite's limit on a function's arguments.
 */
export function concat(pieces: readonly Piece[]): SQL {
  return concatSql(merge(pieces));
}

/** Pieces joined by `||`: NULL when any expression piece is NULL (where concat() would drop it). */
export function pipes(pieces: readonly Piece[]): SQL {
  return sql.join(merge(pieces), sql` || `);
}

/** Adjacent constant pieces merged into one literal each. */
function merge(pieces: readonly Piece[]): SQL[] {
  const merged: SQL[] = [];
  let text = "";
  for (const p of pieces) {
    if (typeof p === "string") text += p;
    else {
      if (text) merged.push(literal(text));
      text = "";
      merged.push(p);
    }
  }
  if (text || !merged.length) merged.push(literal(text));
  return merged;
}

function concatSql(parts: SQL[]): SQL {
  if (parts.length === 1) return parts[0]!;
  const SLICE = 60;
  if (parts.length <= SLICE) return sql`concat(${join(parts)})`;
  const slices: SQL[] = [];
  for (let i = 0; i < parts.length; i += SLICE) slices.push(concatSql(parts.slice(i, i + SLICE)));
  return concatSql(slices);
}

const BYTES = /\u0001([0-9A-F]*)\u0001/g;

/** A JSON select's text with its `byte[]` values (hex between U+0001 marks) as base64. */
export function base64Marks(json: string): string {
  if (!json.includes("\u0001")) return json;
  return json.replace(BYTES, (_, hex: string) => {
    let binary = "";
    for (let i = 0; i < hex.length; i += 2) binary += String.fromCharCode(parseInt(hex.slice(i, i + 2), 16));
    return btoa(binary);
  });
}
