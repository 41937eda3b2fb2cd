/**
 * JDOQL parsing: the Peggy parser generated from `grammar/jdoql.peggy` (`npm run grammar`),
 * with its errors turned into `JdoqlSyntaxError`s that carry a position and readable expectations.
 */
import * as parser from "../generated/jdoql-parser.js";
import type { SExpr, SStatement } from "./syntax.ts";

export interface JdoqlPosition {
  line: number;
  column: number;
  offset: number;
}

export class JdoqlSyntaxError extends Error {
  override readonly name = "JdoqlSyntaxError";
  /** Where the error was found (1-based line and column, 0-based offset). */
  readonly position: JdoqlPosition;
  /** What the parser would have accepted there, e.g. `"&&"`, `"FROM"`, `identifier`, `end of input`. */
  readonly expected: string[];

  constructor(message: string, position: JdoqlPosition, expected: string[]) {
    super(message);
    this.position = position;
    this.expected = expected;
  }
}

/** Parses a single-string query (`SELECT ...`, or DataNucleus's `DELETE FROM ...` / `UPDATE ...`). */
export function parseJdoql(text: string): SStatement {
  return run(text, "Query") as SStatement;
}

/** Parses a bare filter expression (the `filter=` of `GET /{class}`). */
export function parseJdoqlFilter(text: string): SExpr {
  return run(text, "Filter") as SExpr;
}

function run(text: string, startRule: "Query" | "Filter"): unknown {
  try {
    return parser.parse(text, { startRule });
  } catch (e) {
    if (e instanceof parser.SyntaxError) throw toJdoqlError(e, text);
    throw e;
  }
}

// --- Error messages -----------------------------------------------------------------------------

/** Binary operators, as the parser describes them; many of them at once read "an operator". */
const OPERATORS = new Set(
  ["*", "/", "%", "+", "-", "<", "<=", ">", ">=", "==", "!=", "&", "^", "|", "&&", "||", "instanceof"].map((op) =>
    JSON.stringify(op),
  ),
);

/** What can start an operand; all of them at once read "an expression". */
const OPERAND_STARTS = new Set([
  "literal",
  "identifier",
  "primitive type",
  ...["(", "{", "!", "~", "+", "-", ":", "?", "this", "new", "IF", "COUNT", "SUM", "AVG", "MIN", "MAX", "SELECT"].map((t) =>
    JSON.stringify(t),
  ),
]);

const END = "end of input";

/** Words the grammar refuses as bare names (JDOQL keywords in either case, Java's reserved words). */
const RESERVED_WORDS = new Set(
  [
    ..."as asc ascending avg by count desc descending distinct exclude first from group having into last max min nulls order parameters range select subclasses sum unique variables where if else this new instanceof import true false null"
      .split(" ")
      .flatMap((k) => [k, k.toUpperCase()]),
    ..."abstract assert boolean break byte case catch char class const continue default do double enum extends final finally float for goto implements int interface long native package private protected public return short static strictfp super switch synchronized throw throws transient try void volatile while".split(
      " ",
    ),
  ],
);

function toJdoqlError(e: parser.SyntaxError, text: string): JdoqlSyntaxError {
  const { line, column, offset } = e.location.start;
  const position = { line, column, offset };
  const where = `line ${line}, column ${column}`;
  if (!e.expected) {
    // A rule called error(): the grammar's message is already specific.
    return new JdoqlSyntaxError(`${where}: ${e.message}`, position, []);
  }
  const expected = describeExpectations(e.expected);
  const token = tokenAt(text, offset);
  const found = token === null ? END : JSON.stringify(token);
  // Where a name (not any expression) is expected, say why a keyword does not do.
  const reserved =
    token !== null && expected.includes("identifier") && !expected.includes("literal") && RESERVED_WORDS.has(token);
  return new JdoqlSyntaxError(
    `${where}: expected ${summarise(expected)}, found ${found}${reserved ? " (a reserved word, not allowed as a name)" : ""}`,
    position,
    expected,
  );
}

/** Peggy's expectations as readable, deduplicated strings: quoted tokens first, `end of input` last. */
function describeExpectations(expectations: readonly parser.Expectation[]): string[] {
  const out = new Set<string>();
  for (const x of expectations) {
    switch (x.type) {
      case "literal":
        out.add(JSON.stringify(x.text));
        break;
      case "other":
        out.add(x.description);
        break;
      case "end":
        out.add(END);
        break;
      case "any":
        out.add("any character");
        break;
      case "class":
        // Peggy merges single-character alternatives ("*" / "/" / "%") into a class: list them.
        if (!x.inverted && x.parts.every((p) => typeof p === "string")) {
          for (const p of x.parts) out.add(JSON.stringify(p));
        } else {
          out.add(`[${x.inverted ? "^" : ""}${x.parts.map((p) => (Array.isArray(p) ? `${p[0]}-${p[1]}` : p)).join("")}]`);
        }
        break;
    }
  }
  const rank = (s: string) => (s === END ? 2 : s.startsWith('"') ? 0 : 1);
  return [...out].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** `a, b or c`, with operand starts and operators folded into "an expression" / "an operator". */
function summarise(expected: string[]): string {
  let items = expected;
  const tail: string[] = [];
  if (items.includes("literal")) {
    items = items.filter((s) => !OPERAND_STARTS.has(s));
    tail.push("an expression");
  }
  if (items.includes(JSON.stringify("&&"))) {
    items = items.filter((s) => !OPERATORS.has(s));
    tail.push("an operator");
  }
  const hasEnd = items.includes(END);
  const words = [...items.filter((s) => s !== END), ...tail, ...(hasEnd ? [END] : [])];
  if (words.length === 0) return "nothing more";
  if (words.length === 1) return words[0];
  return `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`;
}

/** The token at `offset` (a word, a number, an operator or one character); null at the end. */
function tokenAt(text: string, offset: number): string | null {
  if (offset >= text.length) return null;
  const rest = text.slice(offset);
  const token =
    /^[\p{L}\p{Nl}\p{Sc}\p{Pc}][\p{L}\p{Nl}\p{Sc}\p{Pc}\p{Nd}\p{Mn}\p{Mc}\p{Cf}]*/u.exec(rest) ??
    /^[0-9.][0-9a-zA-Z_.]*/.exec(rest) ??
    /^[=<>!&|+\-*/%^~]+/.exec(rest) ??
    /^[\s\S]/u.exec(rest);
  return token ? token[0] : rest[0];
}
