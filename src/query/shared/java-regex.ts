/**
 * `String.matches(regex)` as SQL: the Java regular expressions whose meaning SQLite's GLOB can
 * state exactly, translated; every other construct refused with its index in the pattern, so the
 * caller can point at it. Java's `matches` is a whole-string match, as GLOB is.
 *
 * What translates (Java's default flags, java.util.regex.Pattern):
 *   - literal characters, escaped metacharacters (`\.`, `\\`, `\*`...), `\t \n \r \f \a \e`,
 *     `\xhh`, `\uhhhh`, and `\Q...\E` quoting;
 *   - `.`, which matches any character but a line terminator (`\n \r \u0085 \u2028 \u2029`),
 *     `.*` (and its reluctant `.*?`), `.+`, `.{n}`, `.{n,}`;
 *   - character classes `[abc]`, `[a-z]`, `[^...]` of characters, ranges and `\d \s \w`;
 *     `\d \s \w \D \S \W` (ASCII, as Java's are without UNICODE_CHARACTER_CLASS);
 *   - any single-character atom repeated a fixed number of times, `x{n}`;
 *   - `^` first and `$` last (no-ops in a whole-string match);
 *   - leading flags `(?i)` (ASCII case-insensitive, as SQLite's lower() is), `(?s)` (DOTALL) and
 *     `(?m)` (only changes `^`/`$` in the middle, which are refused anyway).
 * An unbounded `.` (`.*`, `.+`, `.{n,}`) becomes GLOB's `*`, which also crosses line
 * terminators: without `(?s)` the translation then also requires the string to hold none, which
 * is exact only while nothing else in the pattern can match one (else: refused).
 */

/** A construct SQL cannot evaluate exactly; `index` is its position in the pattern (UTF-16 units). */
export class RegexRefusal extends Error {
  constructor(
    message: string,
    readonly index: number,
  ) {
    super(message);
  }
}

export interface GlobMatch {
  /** The GLOB pattern (already lower-case for ASCII letters when `caseInsensitive`). */
  glob: string;
  /** Compare `lower(s)`: `(?i)`. */
  caseInsensitive: boolean;
  /** The string must also hold no line terminator (an unbounded `.` without `(?s)`). */
  singleLine: boolean;
}

/** Java's line terminators: what `.` does not match without DOTALL. */
export const LINE_TERMINATORS = "\n\r\u0085\u2028\u2029";

const SUPPORTED = `literal text, ".", ".*", ".+", ".{n}", ".{n,}", character classes [...], \\d \\s \\w, x{n}, "^" first, "$" last, and leading (?i), (?s)`;

/** One position of the pattern: a set of characters (or any character). */
type Atom = { kind: "dot" } | { kind: "set"; negated: boolean; chars: string[]; ranges: [string, string][] };

const DIGITS: [string, string][] = [["0", "9"]];
const WORD: [string, string][] = [
  ["a", "z"],
  ["A", "Z"],
  ["0", "9"],
];
const SPACE = [" ", "\t", "\n", "\u000B", "\f", "\r"];

const isAsciiLetter = (c: string) => /^[A-Za-z]$/.test(c);
const asciiLower = (c: string) => (/^[A-Z]$/.test(c) ? c.toLowerCase() : c);
const single = (c: string): Atom => ({ kind: "set", negated: false, chars: [c], ranges: [] });

export function regexToGlob(regex: string): GlobMatch {
  return new Translator(regex).run();
}

class Translator {
  private i = 0;
  private caseInsensitive = false;
  private dotAll = false;
  /** Output items: an atom, or an unbounded run of `.` (GLOB `*`). */
  private readonly items: (Atom | "star")[] = [];
  /** Where a construct that can match a line terminator (other than `.`) first appears. */
  private terminatorAt = -1;
  private starAt = -1;

  constructor(private readonly re: string) {}

  private refuse(what: string, at = this.i): never {
    throw new RegexRefusal(
      `${what} at index ${at} of the regular expression ${JSON.stringify(this.re)} cannot be evaluated exactly in SQL; matches() supports ${SUPPORTED}`,
      at,
    );
  }

  private invalid(what: string, at = this.i): never {
    throw new RegexRefusal(`the regular expression ${JSON.stringify(this.re)} is not valid Java: ${what} at index ${at}`, at);
  }

  run(): GlobMatch {
    this.flags();
    if (this.re[this.i] === "^") this.i++;
    while (this.i < this.re.length) {
      const start = this.i;
      const c = this.re[this.i]!;
      if (c === "$" && this.i === this.re.length - 1) {
        this.i++;
        break;
      }
      const atom = this.atom();
      this.quantified(atom, start);
    }
    if (this.starAt >= 0 && this.terminatorAt >= 0 && !this.dotAll)
      this.refuse(
        `an unbounded "." (which does not match line terminators) together with a construct that does (add (?s) if "." may match them)`,
        Math.max(this.starAt, this.terminatorAt),
      );
    const singleLine = this.starAt >= 0 && !this.dotAll;
    // With an unbounded dot the whole string is free of terminators, so every `.` may be `?`.
    const dot = this.dotAll || singleLine ? "?" : `[^${LINE_TERMINATORS}]`;
    const glob = this.items.map((it) => (it === "star" ? "*" : it.kind === "dot" ? dot : this.setGlob(it))).join("");
    return { glob, caseInsensitive: this.caseInsensitive, singleLine };
  }

  /** Leading `(?i)`, `(?s)`, `(?m)` and their combinations. */
  private flags(): void {
    const m = /^\(\?([a-zA-Z]*)\)/.exec(this.re);
    if (!m) return;
    for (const [k, f] of [...m[1]!].entries()) {
      if (f === "i") this.caseInsensitive = true;
      else if (f === "s") this.dotAll = true;
      else if (f !== "m") this.refuse(`the flag "${f}"`, 2 + k);
    }
    this.i = m[0].length;
  }

  private atom(): Atom {
    const at = this.i;
    const c = this.re[this.i++]!;
    switch (c) {
      case ".":
        return { kind: "dot" };
      case "[":
        return this.charClass(at);
      case "\\":
        return this.escape(at, false);
      case "(":
        return this.refuse(this.re[this.i] === "?" ? `the group or flag "${this.re.slice(at, at + 3)}"` : `the group "("`, at);
      case ")":
        return this.invalid(`unmatched ")"`, at);
      case "|":
        return this.refuse(`the alternation "|"`, at);
      case "^":
        return this.refuse(`the anchor "^" (only first)`, at);
      case "$":
        return this.refuse(`the anchor "$" (only last)`, at);
      case "*":
      case "+":
      case "?":
        return this.invalid(`dangling "${c}"`, at);
      case "{":
        return this.invalid(`dangling "{"`, at);
      default: {
        const cp = this.re.codePointAt(at)!;
        const ch = String.fromCodePoint(cp);
        this.i = at + ch.length;
        if (LINE_TERMINATORS.includes(ch)) this.terminator(at);
        return single(ch);
      }
    }
  }

  private terminator(at: number): void {
    if (this.terminatorAt < 0) this.terminatorAt = at;
  }

  /** The quantifier after an atom, if any: the atom goes to the output accordingly. */
  private quantified(atom: Atom, start: number): void {
    const q = this.re[this.i];
    const lazyOrPossessive = () => {
      const next = this.re[this.i];
      if (next === "?")
        this.i++; // reluctant: in a whole-string match, the same strings match
      else if (next === "+") this.refuse(`the possessive quantifier "${this.re.slice(start, this.i + 1)}"`, this.i);
    };
    if (q === "*" || q === "+" || q === "?") {
      const at = this.i++;
      if (atom.kind !== "dot" || q === "?") this.refuse(`the quantifier "${q}" after "${this.re.slice(start, at)}"`, at);
      lazyOrPossessive();
      if (q === "+") this.items.push(atom);
      this.star(at);
      return;
    }
    if (q === "{") {
      const at = this.i;
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.re.slice(at));
      if (!m) this.invalid(`a malformed quantifier "{"`, at);
      this.i += m[0].length;
      lazyOrPossessive();
      const n = Number(m[1]);
      if (n > 1000) this.refuse(`the repetition count ${n} (more than 1000)`, at);
      const unbounded = m[2] !== undefined && m[3] === "";
      const bounded = m[3] !== undefined && m[3] !== "";
      if (bounded && Number(m[3]) !== n) this.refuse(`the quantifier "${m[0]}" (a range of counts)`, at);
      if (unbounded && atom.kind !== "dot") this.refuse(`the quantifier "${m[0]}" after "${this.re.slice(start, at)}"`, at);
      for (let k = 0; k < n; k++) this.items.push(atom);
      if (unbounded) this.star(at);
      return;
    }
    this.items.push(atom);
  }

  private star(at: number): void {
    if (this.starAt < 0) this.starAt = at;
    // Two stars in a row mean the same as one.
    if (this.items.at(-1) !== "star") this.items.push("star");
  }

  /** `\x` outside or inside a class. */
  private escape(at: number, inClass: boolean): Atom {
    const c = this.re[this.i++];
    if (c === undefined) return this.invalid(`a trailing "\\"`, at);
    const simple: Record<string, string> = { t: "\t", n: "\n", r: "\r", f: "\f", a: "\u0007", e: "\u001B" };
    if (simple[c] !== undefined) {
      if (c === "n" || c === "r") this.terminator(at);
      return single(simple[c]);
    }
    if (c === "d" || c === "D") return this.klass(c === "D", [], DIGITS, at, inClass);
    if (c === "w" || c === "W") return this.klass(c === "W", ["_"], WORD, at, inClass);
    if (c === "s" || c === "S") return this.klass(c === "S", SPACE, [], at, inClass);
    if (c === "x" || c === "u") {
      const m = c === "x" ? /^[0-9a-fA-F]{2}/.exec(this.re.slice(this.i)) : /^[0-9a-fA-F]{4}/.exec(this.re.slice(this.i));
      if (!m) this.refuse(`the escape "\\${c}${this.re.slice(this.i, this.i + 4)}"`, at);
      this.i += m[0].length;
      const ch = String.fromCharCode(parseInt(m[0], 16));
      if (LINE_TERMINATORS.includes(ch)) this.terminator(at);
      return single(ch);
    }
    if (c === "Q" && !inClass) {
      const end = this.re.indexOf("\\E", this.i);
      const text = end < 0 ? this.re.slice(this.i) : this.re.slice(this.i, end);
      const first = this.i;
      this.i = end < 0 ? this.re.length : end + 2;
      const atoms = [...text].map((ch, k) => {
        if (LINE_TERMINATORS.includes(ch)) this.terminator(first + k);
        return single(ch);
      });
      // Only the last character of a quotation takes a following quantifier.
      const last = atoms.pop();
      this.items.push(...atoms);
      return last ?? this.refuse(`the empty quotation "\\Q\\E"`, at);
    }
    if (/[a-zA-Z0-9]/.test(c)) return this.refuse(`the escape "\\${c}"`, at);
    return single(c);
  }

  /** `\d`-like classes: as an atom, or merged into the enclosing class by the caller. */
  private klass(negated: boolean, chars: string[], ranges: [string, string][], at: number, inClass: boolean): Atom {
    if (negated && inClass) this.refuse(`a negated class escape inside [...]`, at);
    if (negated || chars.includes("\n")) this.terminator(at);
    return { kind: "set", negated, chars: [...chars], ranges: [...ranges] };
  }

  /** `[...]`: characters, ranges and class escapes; no nesting, no intersections. */
  private charClass(at: number): Atom {
    const set: Atom & { kind: "set" } = { kind: "set", negated: false, chars: [], ranges: [] };
    if (this.re[this.i] === "^") {
      set.negated = true;
      this.i++;
    }
    let first = true;
    for (;;) {
      const here = this.i;
      const c = this.re[this.i];
      if (c === undefined) return this.invalid(`an unclosed "["`, at);
      if (c === "]" && !first) {
        this.i++;
        break;
      }
      first = false;
      if (c === "[") this.refuse(`a nested class "["`, here);
      if (c === "&" && this.re[this.i + 1] === "&") this.refuse(`the class intersection "&&"`, here);
      const lo = this.classChar(set);
      if (lo === undefined) continue;
      if (this.re[this.i] === "-" && this.re[this.i + 1] !== "]" && this.re[this.i + 1] !== undefined) {
        this.i++;
        const hi = this.classChar(set);
        if (hi === undefined) this.refuse(`a range ending in a class escape`, here);
        if (hi < lo) this.invalid(`the range "${lo}-${hi}" is out of order`, here);
        if ([lo, hi].some((b) => b === "]" || b === "-")) this.refuse(`the range "${lo}-${hi}" (a bound GLOB cannot write)`, here);
        if (this.caseInsensitive && !caseFoldable(lo, hi)) this.refuse(`the range "${lo}-${hi}" under (?i) (it spans letters and other characters)`, here);
        set.ranges.push([lo, hi]);
      } else set.chars.push(lo);
    }
    if (
      set.negated ||
      set.chars.some((ch) => LINE_TERMINATORS.includes(ch)) ||
      set.ranges.some(([lo, hi]) => [...LINE_TERMINATORS].some((t) => lo <= t && t <= hi))
    )
      this.terminator(at);
    return set;
  }

  /** One character of a class; a class escape (`\d`) is merged into `set` and gives undefined. */
  private classChar(set: Atom & { kind: "set" }): string | undefined {
    const at = this.i;
    if (this.re[this.i] === "\\") {
      this.i++;
      const a = this.escape(at, true);
      if (a.kind !== "set") return undefined;
      if (a.chars.length === 1 && a.ranges.length === 0 && !a.negated) return a.chars[0];
      set.chars.push(...a.chars);
      set.ranges.push(...a.ranges);
      return undefined;
    }
    const ch = String.fromCodePoint(this.re.codePointAt(this.i)!);
    this.i += ch.length;
    return ch;
  }

  /** A class as GLOB writes it: `]` first, `-` last, `^` never first. */
  private setGlob(set: Atom & { kind: "set" }): string {
    let chars = set.chars;
    let ranges = set.ranges;
    if (this.caseInsensitive) {
      chars = chars.map(asciiLower);
      ranges = ranges.map(([lo, hi]) => [asciiLower(lo), asciiLower(hi)]);
    }
    const unique = [...new Set(chars)];
    if (!set.negated && ranges.length === 0 && unique.length === 1) return literal(unique[0]!);
    const body = [
      ...(unique.includes("]") ? ["]"] : []),
      ...unique.filter((c) => c !== "]" && c !== "-" && c !== "^"),
      ...ranges.map(([lo, hi]) => `${lo}-${hi}`),
      ...(unique.includes("^") ? ["^"] : []),
      ...(unique.includes("-") ? ["-"] : []),
    ].join("");
    // `[^]` would read as a negation: a lone `^` is written as a range of itself.
    const safe = body === "^" ? "^-^" : body;
    return `[${set.negated ? "^" : ""}${safe}]`;
  }
}

/**
 * Whether a range means the same over lower-cased text with its bounds lower-cased: it holds no
 * ASCII letter, or only letters of one case (`A-Z`, `c-f`).
 */
function caseFoldable(lo: string, hi: string): boolean {
  const overlaps = (l: string, h: string) => lo <= h && l <= hi;
  if (!overlaps("A", "Z") && !overlaps("a", "z")) return true;
  return isAsciiLetter(lo) && isAsciiLetter(hi) && lo <= "Z" === hi <= "Z";
}

/** A character as GLOB text: `*`, `?` and `[` are written as one-character classes. */
function literal(c: string): string {
  return c === "*" || c === "?" || c === "[" ? `[${c}]` : c;
}

/** Lower-cases ASCII letters only, as SQLite's lower() does (and Java's (?i) without UNICODE_CASE). */
export function asciiLowerText(s: string): string {
  return s.replace(/[A-Z]/g, (c) => c.toLowerCase());
}
