/**
 * How deeply a statement nests, as SQLite's parser counts it. The parser is an LALR machine with
 * a fixed stack (YYSTACKDEPTH, 100 entries in SQLite, libSQL and D1): a statement that nests
 * deeper fails with "parser stack overflow", however short it is. Measured on SQLite 3.45, a
 * nested function argument, CASE or scalar subquery holds 3.3 to 5.6 entries (an ELSE 4.4), a subquery that is
 * a subquery that is an operand in a condition about 11, the first argument of a function 3.3
 * (a later one 5.6), a plain parenthesis about 1.
 *
 * `parserNesting` scans the text (string literals and quoted names skipped) and adds up, at the
 * deepest point, a cost per open construct a little above those measures, so a statement within
 * PARSER_BUDGET is read by the parser (test/json-select.test.ts checks it on nestings of every
 * construct, and prepares every JSON select of the test models).
 */

const COST = { firstArgument: 3.4, laterArgument: 5.7, case: 5.7, caseElse: 4.4, subquery: 5.7, conditionSubquery: 11.2, paren: 1.1 };

/** SQLite's stack, less a margin for the statement's own head. */
export const PARSER_BUDGET = 96;

/** Keywords after which `(` opens a list or a subquery, not a function call. */
const NOT_CALLS = new Set([
  "IN",
  "AND",
  "OR",
  "NOT",
  "WHEN",
  "THEN",
  "ELSE",
  "ON",
  "WHERE",
  "FROM",
  "JOIN",
  "SELECT",
  "AS",
  "BY",
  "VALUES",
  "EXISTS",
  "IS",
  "CASE",
  "LIMIT",
  "OFFSET",
]);
/** Words before a subquery that place it in a condition (a costlier parser state). */
const CONDITION = new Set(["IN", "EXISTS", "=", "<>", "<", ">", "<=", ">=", "AND", "OR", "NOT", "WHERE"]);

export function parserNesting(sql: string): number {
  const stack: { cost: number; call: boolean }[] = [];
  let depth = 0;
  let deepest = 0;
  let previous = "";
  const push = (cost: number, call = false) => {
    stack.push({ cost, call });
    depth += cost;
    if (depth > deepest) deepest = depth;
  };
  const pop = () => (depth -= stack.pop()?.cost ?? 0);
  /** The open construct at the top now holds `cost` (a call past its first argument, a CASE at its ELSE). */
  const setTop = (cost: number) => {
    const top = stack[stack.length - 1];
    if (!top) return;
    depth += cost - top.cost;
    top.cost = cost;
    if (depth > deepest) deepest = depth;
  };
  const word = /[A-Za-z_][A-Za-z0-9_$]*/y;
  for (let i = 0; i < sql.length;) {
    const ch = sql[i]!;
    if (ch === "'" || ch === '"' || ch === "`") {
      // A literal or quoted name: doubled quotes stay inside it.
      let j = i + 1;
      while (j < sql.length && !(sql[j] === ch && sql[j + 1] !== ch)) j += sql[j] === ch ? 2 : 1;
      previous = ch === "'" ? "'" : "name";
      i = j + 1;
      continue;
    }
    if (ch === "(") {
      const next = /^\s*SELECT\b/i.test(sql.slice(i + 1, i + 12));
      if (next) push(CONDITION.has(previous) ? COST.conditionSubquery : COST.subquery);
      else if (/^[A-Za-z_]/.test(previous) && !NOT_CALLS.has(previous)) push(COST.firstArgument, true);
      else push(COST.paren);
      previous = "(";
      i++;
      continue;
    }
    if (ch === ")") {
      pop();
      previous = ")";
      i++;
      continue;
    }
    word.lastIndex = i;
    const m = word.exec(sql);
    if (m) {
      const upper = m[0].toUpperCase();
      if (upper === "CASE") push(COST.case);
      else if (upper === "END") pop();
      else if (upper === "ELSE") setTop(COST.caseElse);
      previous = upper;
      i += m[0].length;
      continue;
    }
    // Past its first argument, a call holds more of the stack.
    const top = stack[stack.length - 1];
    if (ch === "," && top?.call && top.cost < COST.laterArgument) setTop(COST.laterArgument);
    if (!/\s/.test(ch)) previous = /[=<>!]/.test(ch) ? (/[=<>]/.test(sql[i + 1] ?? "") ? ch + sql[i + 1] : ch) : ch;
    i++;
  }
  return deepest;
}
