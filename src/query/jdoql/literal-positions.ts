/**
 * Positions inside a string literal: an error about the literal's value (a matches() pattern)
 * points at the character it is about, though escapes make the written text longer than the value.
 */
import type { Pos } from "../shared/model.ts";
import type { SExpr } from "./syntax.ts";

/** The position of the value's UTF-16 unit `index` in the literal as written (a literal holds no line break). */
export function positionInLiteral(literal: Extract<SExpr, { type: "Literal" }>, index: number): Pos {
  const raw = literal.raw;
  let at = 1; // after the opening quote
  for (let unit = 0; unit < index && at < raw.length - 1; unit++) at = afterCharacter(raw, at);
  return { line: literal.pos.line, column: literal.pos.column + at, offset: literal.pos.offset + at };
}

/** Where the written character at `at` (one value unit, an escape included) ends. */
function afterCharacter(raw: string, at: number): number {
  if (raw[at] !== "\\") return at + 1;
  const rest = raw.slice(at + 1);
  const unicode = /^u+[0-9a-fA-F]{4}/.exec(rest);
  if (unicode) return at + 1 + unicode[0].length;
  const octal = /^([0-3][0-7][0-7]|[0-7][0-7]?)/.exec(rest);
  if (octal) return at + 1 + octal[0].length;
  return at + 2;
}
