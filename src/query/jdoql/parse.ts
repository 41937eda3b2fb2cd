/**
 * JDOQL parsing: the Peggy parser generated from `grammar/jdoql.peggy` (`npm run grammar`),
 * with its errors turned into `JdoqlSyntaxError`s that carry a position and readable expectations.
 */
import * as parser from "../generated/jdoql-parser.js";
import { END, type Expectation, QuerySyntaxError, describeExpectations, summarise, tokenAt } from "../shared/syntax-errors.ts";
import type { OrderItem, SExpr, SStatement } from "./syntax.ts";

export class JdoqlSyntaxError extends QuerySyntaxError {
  override readonly name = "JdoqlSyntaxError";
}

/** Parses a single-string query (`SELECT ...`, or DataNucleus's `DELETE FROM ...` / `UPDATE ...`). */
export function parseJdoql(text: string): SStatement {
  return run(text, "Query") as SStatement;
}

/** Parses a bare filter expression (the `filter=` of `GET /{class}`). */
export function parseJdoqlFilter(text: string): SExpr {
  return run(text, "Filter") as SExpr;
}

/** Parses an ordering clause without `ORDER BY` (the `ordering=` of `GET /{class}`). */
export function parseJdoqlOrdering(text: string): OrderItem[] {
  return run(text, "Ordering") as OrderItem[];
}

function run(text: string, startRule: "Query" | "Filter" | "Ordering"): unknown {
  try {
    return parser.parse(text, { startRule });
  } catch (e) {
    if (e instanceof parser.SyntaxError) throw toJdoqlError(e, text);
    throw e;
  }
}

// --- Error messages -----------------------------------------------------------------------------

/** Binary operators, as the parser describes them; many of them at once read "an operator". */
const OPERATORS = new Set(["*", "/", "%", "+", "-", "<", "<=", ">", ">=", "==", "!=", "&", "^", "|", "&&", "||", "instanceof"].map((op) => JSON.stringify(op)));

/** What can start an operand; all of them at once read "an expression". */
const OPERAND_STARTS = new Set([
  "literal",
  "identifier",
  "primitive type",
  ...["(", "{", "!", "~", "+", "-", ":", "?", "this", "new", "IF", "COUNT", "SUM", "AVG", "MIN", "MAX", "SELECT"].map((t) => JSON.stringify(t)),
]);

const VOCABULARY = { operandStarts: OPERAND_STARTS, operators: OPERATORS, operatorMarker: JSON.stringify("&&") };

/** Words the grammar refuses as bare names (JDOQL keywords in either case, Java's reserved words). */
const RESERVED_WORDS = new Set([
  ..."as asc ascending avg by count desc descending distinct exclude first from group having into last max min nulls order parameters range select subclasses sum unique variables where if else this new instanceof import true false null"
    .split(" ")
    .flatMap((k) => [k, k.toUpperCase()]),
  ..."abstract assert boolean break byte case catch char class const continue default do double enum extends final finally float for goto implements int interface long native package private protected public return short static strictfp super switch synchronized throw throws transient try void volatile while".split(
    " ",
  ),
]);

function toJdoqlError(e: parser.SyntaxError, text: string): JdoqlSyntaxError {
  const { line, column, offset } = e.location.start;
  const position = { line, column, offset };
  const where = `line ${line}, column ${column}`;
  if (!e.expected) {
    // A rule called error(): the grammar's message is already specific.
    return new JdoqlSyntaxError(`${where}: ${e.message}`, position, []);
  }
  const expected = describeExpectations(e.expected as readonly Expectation[]);
  const token = tokenAt(text, offset);
  const found = token === null ? END : JSON.stringify(token);
  // Where a name (not any expression) is expected, say why a keyword does not do.
  const reserved = token !== null && expected.includes("identifier") && !expected.includes("literal") && RESERVED_WORDS.has(token);
  return new JdoqlSyntaxError(
    `${where}: expected ${summarise(expected, VOCABULARY)}, found ${found}${reserved ? " (a reserved word, not allowed as a name)" : ""}`,
    position,
    expected,
  );
}
