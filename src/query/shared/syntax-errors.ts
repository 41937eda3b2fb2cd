/**
 * Syntax errors of both query languages, from Peggy's failures: a position, and what the parser
 * would have accepted there as readable, deduplicated strings ("an expression", "an operator"
 * stand for the long lists of operand starts and operators).
 */
import type { Pos } from "./model.ts";

export class QuerySyntaxError extends Error {
  /** Where the error was found (1-based line and column, 0-based offset). */
  readonly position: Pos;
  /** What the parser would have accepted there, e.g. `"&&"`, `"FROM"`, `identifier`, `end of input`. */
  readonly expected: string[];

  constructor(message: string, position: Pos, expected: string[]) {
    super(message);
    this.position = position;
    this.expected = expected;
  }
}

/** Peggy's description of an expectation (the generated parsers' `Expectation`). */
export type Expectation =
  | { type: "literal"; text: string }
  | { type: "other"; description: string }
  | { type: "end" }
  | { type: "any" }
  | { type: "class"; inverted: boolean; parts: (string | string[])[] };

export const END = "end of input";

/** Quoted tokens first, then descriptions, `end of input` last. */
export function describeExpectations(expectations: readonly Expectation[]): string[] {
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
      case "class": {
        // Peggy merges single-character alternatives ("<" / "=" / ">") into a class, even a short range: list them.
        const small = (p: string | string[]) => typeof p === "string" || p[1]!.charCodeAt(0) - p[0]!.charCodeAt(0) < 8;
        if (!x.inverted && x.parts.every(small)) {
          for (const p of x.parts) {
            if (typeof p === "string") out.add(JSON.stringify(p));
            else for (let c = p[0]!.charCodeAt(0); c <= p[1]!.charCodeAt(0); c++) out.add(JSON.stringify(String.fromCharCode(c)));
          }
        } else {
          out.add(`[${x.inverted ? "^" : ""}${x.parts.map((p) => (Array.isArray(p) ? `${p[0]}-${p[1]}` : p)).join("")}]`);
        }
        break;
      }
    }
  }
  const rank = (s: string) => (s === END ? 2 : s.startsWith('"') ? 0 : 1);
  return [...out].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

export interface Vocabulary {
  /** What can start an operand: all of them at once read "an expression". */
  operandStarts: ReadonlySet<string>;
  /** What may follow an operand: all of them at once read "an operator". */
  operators: ReadonlySet<string>;
  /** The operator whose presence means "an operator is expected here". */
  operatorMarker: string;
  /** Operators kept visible even when folded (e.g. BETWEEN's AND). */
  keep?: (expected: readonly string[]) => readonly string[];
}

/** `a, b or c`, with operand starts and operators folded into "an expression" / "an operator". */
export function summarise(expected: readonly string[], vocabulary: Vocabulary): string {
  let items = [...expected];
  const tail: string[] = [];
  if (items.includes("literal")) {
    items = items.filter((s) => !vocabulary.operandStarts.has(s));
    tail.push("an expression");
  }
  if (items.includes(vocabulary.operatorMarker)) {
    const keep = vocabulary.keep?.(items) ?? [];
    items = items.filter((s) => !vocabulary.operators.has(s) || keep.includes(s));
    tail.push("an operator");
  }
  const hasEnd = items.includes(END);
  const words = [...items.filter((s) => s !== END), ...tail, ...(hasEnd ? [END] : [])];
  if (words.length === 0) return "nothing more";
  if (words.length === 1) return words[0]!;
  return `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`;
}

/** The token at `offset` (a word, a number, an operator or one character); null at the end. */
export function tokenAt(text: string, offset: number): string | null {
  if (offset >= text.length) return null;
  const rest = text.slice(offset);
  const token =
    /^[\p{L}\p{Nl}\p{Sc}\p{Pc}][\p{L}\p{Nl}\p{Sc}\p{Pc}\p{Nd}\p{Mn}\p{Mc}\p{Cf}]*/u.exec(rest) ??
    /^[0-9.][0-9a-zA-Z_.]*/.exec(rest) ??
    /^[=<>!&|+\-*/%^~]+/.exec(rest) ??
    /^[\s\S]/u.exec(rest);
  return token ? token[0] : rest[0]!;
}
