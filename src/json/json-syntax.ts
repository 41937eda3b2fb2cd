/**
 * Where a malformed JSON body goes wrong, said the same way on every runtime. `JSON.parse` parses;
 * only when it fails does this scanner walk the text again to find the first offending character,
 * because engines word (and place) their own errors differently.
 */
export interface JsonSyntaxError {
  message: string;
  offset: number;
  line: number;
  column: number;
}

class Stop {
  constructor(
    readonly at: number,
    readonly expected: string,
  ) {}
}

/** The first syntax error in `text` (which `JSON.parse` refused), or undefined if there is none; `what` names the text. */
export function findJsonSyntaxError(text: string, what = "the body"): JsonSyntaxError | undefined {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const expect = (what: string): never => {
    throw new Stop(i, what);
  };
  const literal = (word: string) => {
    for (const ch of word) if (text[i++] !== ch) (i--, expect(`"${word}"`));
  };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      const ch = text[i];
      if (ch === undefined) expect('a closing "');
      if (ch === '"') return void i++;
      if (ch! < " ") expect("an escaped control character");
      if (ch === "\\") {
        i++;
        if (text[i] === "u") {
          for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? "")) ((i += k), expect("four hex digits after \\u"));
          i += 5;
        } else if ('"\\/bfnrt'.includes(text[i] ?? "x")) i++;
        else expect('an escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)');
      } else i++;
    }
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) expect("a number");
    i += m![0].length;
  };
  const member = () => {
    if (text[i] !== '"') expect("a property name in double quotes");
    string();
    ws();
    if (text[i] !== ":") expect('":"');
    i++;
  };
  const scalar = () => {
    const ch = text[i];
    if (ch === '"') return string();
    if (ch === "t") return literal("true");
    if (ch === "f") return literal("false");
    if (ch === "n") return literal("null");
    if (ch === "-" || (ch !== undefined && ch >= "0" && ch <= "9")) return number();
    expect("a value");
  };
  // Open arrays and objects are kept on a stack of their closing brackets, not on the call
  // stack: a body within the size limit may open a million of them.
  const value = (): void => {
    const open: ("]" | "}")[] = [];
    for (;;) {
      // A value is expected here.
      ws();
      const ch = text[i];
      if (ch === "{" || ch === "[") {
        const close = ch === "{" ? "}" : "]";
        i++;
        ws();
        if (text[i] !== close) {
          open.push(close);
          if (close === "}") member();
          continue;
        }
        i++;
      } else scalar();
      // After a value: close what it ends, or go on to the next element or member.
      for (;;) {
        const close = open[open.length - 1];
        if (close === undefined) return;
        ws();
        if (text[i] === close) {
          i++;
          open.pop();
        } else if (text[i] === ",") {
          i++;
          if (close === "}") (ws(), member());
          break;
        } else expect(close === "}" ? '"," or "}"' : '"," or "]"');
      }
    }
  };
  try {
    value();
    ws();
    if (i < text.length) expect(`the end of ${what}`);
    return undefined;
  } catch (stop) {
    if (!(stop instanceof Stop)) throw stop;
    const before = text.slice(0, stop.at);
    const line = before.split("\n").length;
    const column = stop.at - before.lastIndexOf("\n");
    const found = stop.at < text.length ? JSON.stringify(text[stop.at]) : `the end of ${what}`;
    return { message: `expected ${stop.expected} at line ${line}, column ${column}, found ${found}`, offset: stop.at, line, column };
  }
}
