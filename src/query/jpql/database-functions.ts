/**
 * JPQL `FUNCTION('name', args...)` (Jakarta Persistence 3.2 §4.6.17.3): the database functions a
 * query may call, a fixed list of SQLite's own scalar functions, each with its arity and the type
 * of its value (the query model types every expression). A name outside the list is a 400 at
 * the name: a function SQLite lacks, a user-defined one, an aggregate, or one whose value the
 * stored forms would make misleading (SQLite's date functions read text dates; Extent stores
 * dates as epoch milliseconds). `printf`/`format` are left out: a width in a 20-character query
 * (`'%.900000000c'`) makes the database build a string of 900 million characters.
 */
import { fail } from "../shared/errors.ts";
import { type Pos, type QExpr, type QType, node } from "../shared/model.ts";
import { DOUBLE, INT, LONG, STRING, describeType } from "../shared/types.ts";

/** The value's type: a fixed one, or the type of the first argument (`abs`, `max`, `coalesce`...). */
type Result = QType | "first" | "second";

interface DatabaseFunction {
  min: number;
  max: number;
  result: Result;
}

const fixed = (min: number, max: number, result: Result): DatabaseFunction => ({ min, max, result });
const MANY = 127;

/** The functions, by lower-case name (SQLite's names are case-insensitive). */
export const DATABASE_FUNCTIONS: ReadonlyMap<string, DatabaseFunction> = new Map([
  // Text.
  ...["lower", "upper", "hex", "quote", "typeof"].map((n) => [n, fixed(1, 1, STRING)] as const),
  ...["trim", "ltrim", "rtrim"].map((n) => [n, fixed(1, 2, STRING)] as const),
  ["substr", fixed(2, 3, STRING)],
  ["substring", fixed(2, 3, STRING)],
  ["replace", fixed(3, 3, STRING)],
  ["char", fixed(1, MANY, STRING)],
  ["concat", fixed(1, MANY, STRING)],
  ["concat_ws", fixed(2, MANY, STRING)],
  ...["length", "octet_length", "unicode"].map((n) => [n, fixed(1, 1, INT)] as const),
  ["instr", fixed(2, 2, INT)],
  // Numbers and choices.
  ["abs", fixed(1, 1, "first")],
  ["round", fixed(1, 2, DOUBLE)],
  ["sign", fixed(1, 1, INT)],
  ["random", fixed(0, 0, LONG)],
  ["max", fixed(2, MANY, "first")],
  ["min", fixed(2, MANY, "first")],
  ["coalesce", fixed(2, MANY, "first")],
  ["ifnull", fixed(2, 2, "first")],
  ["nullif", fixed(2, 2, "first")],
  ["iif", fixed(3, 3, "second")],
  // Mathematics: libSQL's math functions (it has no log2, pow, mod, nor log(b, x); its log(x)
  // is the natural logarithm where SQLite's is base 10, so log is left out). Outside a
  // function's domain (sqrt(-1), ln(0)) the database refuses the statement (src/store/store-errors.ts).
  ...["ceil", "ceiling", "floor", "exp", "ln", "log10", "sqrt", "degrees", "radians"].map((n) => [n, fixed(1, 1, DOUBLE)] as const),
  ...["sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"].map((n) => [n, fixed(1, 1, DOUBLE)] as const),
  ...["power", "atan2"].map((n) => [n, fixed(2, 2, DOUBLE)] as const),
  ["pi", fixed(0, 0, DOUBLE)],
]);

/** `FUNCTION(name, args)`: `nameExpr` is the string literal naming the function, `args` the bound arguments. */
export function databaseFunction(name: string, namePos: Pos, args: QExpr[], pos: Pos): QExpr {
  const key = name.toLowerCase();
  const f = DATABASE_FUNCTIONS.get(key);
  if (!f) fail(`FUNCTION('${name}'): not a database function a query may call; the SQLite functions are ${[...DATABASE_FUNCTIONS.keys()].join(", ")}`, namePos);
  if (args.length < f.min || args.length > f.max) {
    const arity = f.min === f.max ? `${f.min}` : f.max === MANY ? `at least ${f.min}` : `${f.min} to ${f.max}`;
    fail(`FUNCTION('${name}') takes ${arity} argument${f.min === 1 && f.max === 1 ? "" : "s"}, not ${args.length}`, pos);
  }
  for (const a of args) {
    const k = a.type.kind;
    if (k === "entity" || k === "embedded" || k === "collection" || k === "map" || k === "key")
      fail(`FUNCTION('${name}') takes values, not ${describeType(a.type)}: give one of its fields`, a.pos);
  }
  const type = f.result === "first" ? (args[0]?.type ?? STRING) : f.result === "second" ? (args[1]?.type ?? STRING) : f.result;
  return node({ kind: "fn", name: "database", database: key, args, type }, pos);
}
