/**
 * JPQL parsing: the Peggy parser generated from `grammar/jpql.peggy` (`npm run grammar`), with
 * its errors turned into `JpqlSyntaxError`s that carry a position and readable expectations.
 */
import * as parser from "../generated/jpql-parser.js";
import { END, type Expectation, QuerySyntaxError, describeExpectations, summarise, tokenAt } from "../shared/syntax-errors.ts";
import type { JParam, JStatement } from "./syntax.ts";

export class JpqlSyntaxError extends QuerySyntaxError {
  override readonly name = "JpqlSyntaxError";
}

/** Parses a JPQL statement: SELECT (set operations included), UPDATE or DELETE. */
export function parseJpql(text: string): JStatement {
  let statement: JStatement;
  try {
    statement = parser.parse(text, { startRule: "Statement" }) as JStatement;
  } catch (e) {
    if (e instanceof parser.SyntaxError) throw toJpqlError(e, text);
    throw e;
  }
  checkParameterStyle(statement);
  return statement;
}

// --- Parameter style ----------------------------------------------------------------------------

/** A statement uses named (`:p`) or positional (`?1`) parameters, never both (JPQL 3.2 §4.7.4). */
function checkParameterStyle(statement: JStatement): void {
  const params: JParam[] = [];
  collectParams(statement, params);
  params.sort((a, b) => a.pos.offset - b.pos.offset);
  const first = params[0];
  const other = params.find((p) => p.type !== first?.type);
  if (first && other) {
    const { line, column } = other.pos;
    throw new JpqlSyntaxError(`line ${line}, column ${column}: named and positional parameters cannot be mixed in one statement`, { ...other.pos }, []);
  }
}

/** The parameters of a tree, in document order. */
function collectParams(node: unknown, out: JParam[]): void {
  if (Array.isArray(node)) {
    for (const n of node) collectParams(n, out);
  } else if (node !== null && typeof node === "object") {
    const type = (node as { type?: unknown }).type;
    if (type === "NamedParam" || type === "PositionalParam") out.push(node as JParam);
    for (const [key, value] of Object.entries(node)) if (key !== "pos") collectParams(value, out);
  }
}

// --- Error messages -----------------------------------------------------------------------------

const quoted = (tokens: string[]) => tokens.map((t) => JSON.stringify(t));

/** What may follow an operand; all of them at once read "an operator". */
const OPERATORS = new Set(quoted([..."* / + - || = <> < <= > >=".split(" "), ..."NOT BETWEEN LIKE IN IS MEMBER AND OR".split(" ")]));

/** What can start an operand; all of them at once read "an expression". */
const OPERAND_STARTS = new Set([
  "literal",
  "identifier",
  "function name",
  "string literal",
  ...quoted(["(", "{", "+", "-", ":", "?"]),
  ...quoted(
    ("NOT EXISTS CASE COALESCE NULLIF COUNT SUM AVG MIN MAX TRIM EXTRACT CAST FUNCTION REPLACE CONCAT " + "LOCAL TYPE TREAT KEY VALUE ENTRY").split(" "),
  ),
]);

const VOCABULARY = {
  operandStarts: OPERAND_STARTS,
  operators: OPERATORS,
  operatorMarker: JSON.stringify("||"),
  // A lone "AND" (no "OR") is BETWEEN's: keep it visible.
  keep: (items: readonly string[]) => (items.includes(JSON.stringify("OR")) ? [] : [JSON.stringify("AND")]),
};

/** The reserved identifiers of JPQL 3.2 (case-insensitive). */
const RESERVED_WORDS = new Set(
  (
    "ABS ALL AND ANY AS ASC AVG BETWEEN BIT_LENGTH BOTH BY CASE CEILING CHAR_LENGTH CHARACTER_LENGTH CLASS " +
    "COALESCE CONCAT COUNT CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP DELETE DESC DISTINCT ELSE EMPTY END " +
    "ENTRY ESCAPE EXISTS EXP EXTRACT FALSE FETCH FIRST FLOOR FROM FUNCTION GROUP HAVING IN INDEX INNER IS " +
    "JOIN KEY LEADING LAST LEFT LENGTH LIKE LOCAL LN LOCATE LOWER MAX MEMBER MIN MOD NEW NOT NULL NULLS " +
    "NULLIF OBJECT OF ON OR ORDER OUTER POSITION POWER REPLACE RIGHT ROUND SELECT SET SIGN SIZE SOME SQRT " +
    "SUBSTRING SUM THEN TRAILING TREAT TRIM TRUE TYPE UNKNOWN UPDATE UPPER VALUE WHEN WHERE"
  ).split(" "),
);

/** Expectations that mean "a name goes here". */
const NAME_EXPECTATIONS = ["identifier", "identification variable", "result variable"];

function toJpqlError(e: parser.SyntaxError, text: string): JpqlSyntaxError {
  const { line, column, offset } = e.location.start;
  const position = { offset, line, column };
  const where = `line ${line}, column ${column}`;
  if (!e.expected) {
    // A rule called error(): the grammar's message is already specific.
    return new JpqlSyntaxError(`${where}: ${e.message}`, position, []);
  }
  const expected = describeExpectations(e.expected as readonly Expectation[]);
  const token = tokenAt(text, offset);
  const found = token === null ? END : /^\s$/.test(token) ? "whitespace" : JSON.stringify(token);
  // Where a name (not any expression) is expected, say why a reserved identifier does not do.
  const reserved =
    token !== null && NAME_EXPECTATIONS.some((x) => expected.includes(x)) && !expected.includes("literal") && RESERVED_WORDS.has(token.toUpperCase());
  return new JpqlSyntaxError(
    `${where}: expected ${summarise(expected, VOCABULARY)}, found ${found}${reserved ? " (a reserved identifier, not allowed as a name)" : ""}`,
    position,
    expected,
  );
}
