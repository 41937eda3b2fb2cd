/**
 * `String.matches` against a reference: generated Java regular expressions (from the constructs
 * src/query/shared/java-regex.ts translates, and some it refuses) over generated subjects holding
 * line breaks, case variants and metacharacters, asked through the real handler both as a literal
 * pattern and as a parameter. Each answer must be exactly the subjects Java's whole-string match
 * accepts (computed with a JavaScript RegExp written to mean what the Java pattern means), or a 400
 * when the pattern is refused; never a 500, never a wrong row.
 *
 * Run: node --import tsx --test test/jdoql-matches-differential.test.ts
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { type Harness, startHarness } from "./support/harness.ts";
import { queryClient } from "./support/query-client.ts";

const MODEL = {
  metadata: [
    {
      source: "lines.jdo",
      text: `<?xml version="1.0"?><jdo><package name="d"><class name="Line" identity-type="application">
        <field name="id" primary-key="true" field-type="long"/><field name="text" field-type="java.lang.String"/></class></package></jdo>`,
    },
  ],
};

/** A piece of pattern: its Java text and a JavaScript RegExp source that means the same (ASCII subjects). */
type Piece = { java: string; js: (dotAll: boolean) => string };
const fixed = (java: string, js: string): Piece => ({ java, js: () => js });
const JAVA_DOT = (dotAll: boolean) => (dotAll ? "[\\s\\S]" : "[^\\n\\r\\u0085\\u2028\\u2029]");
const PIECES: Piece[] = [
  fixed("a", "a"),
  fixed("b", "b"),
  fixed("A", "A"),
  fixed("1", "1"),
  fixed("-", "-"),
  fixed("\\.", "\\."),
  fixed("\\*", "\\*"),
  fixed("\\n", "\\n"),
  fixed("[ab]", "[ab]"),
  fixed("[a-c]", "[a-c]"),
  fixed("[^a]", "[^a]"),
  fixed("[A-Z]", "[A-Z]"),
  fixed("[.*]", "[.*]"),
  fixed("\\d", "[0-9]"),
  fixed("\\s", "[ \\t\\n\\x0B\\f\\r]"),
  fixed("\\w", "[a-zA-Z_0-9]"),
  fixed("\\W", "[^a-zA-Z_0-9]"),
  fixed("a{2}", "a{2}"),
  { java: ".", js: JAVA_DOT },
  { java: ".*", js: (d) => `${JAVA_DOT(d)}*` },
  { java: ".*?", js: (d) => `${JAVA_DOT(d)}*?` },
  { java: ".+", js: (d) => `${JAVA_DOT(d)}+` },
  { java: ".{2}", js: (d) => `${JAVA_DOT(d)}{2}` },
  { java: ".{1,}", js: (d) => `${JAVA_DOT(d)}{1,}` },
  // Refused constructs: the answer must be a 400.
  fixed("a+", "a+"),
  fixed("(a)", "(a)"),
  fixed("a|b", "a|b"),
];
const FLAGS = ["", "(?i)", "(?s)", "(?is)"];

const pattern = fc.record({
  flags: fc.constantFrom(...FLAGS),
  start: fc.boolean(),
  pieces: fc.array(fc.constantFrom(...PIECES), { maxLength: 4 }),
  end: fc.boolean(),
});
const SUBJECTS = [
  "",
  ...fc
    .sample(fc.array(fc.constantFrom("a", "b", "A", "B", "1", "-", ".", "*", "_", " ", "\n", "\r", "\u2028"), { maxLength: 5 }), { seed: 7, numRuns: 80 })
    .map((cs) => cs.join("")),
  "a",
  "aa",
  "ab",
  "a\nb",
  "A.",
];

let h: Harness;
const { filter } = queryClient(() => h);
const subjects = [...new Set(SUBJECTS)];

before(async () => {
  h = await startHarness(MODEL);
  for (const [i, text] of subjects.entries()) assert.equal((await h.post("/d.Line", { id: i + 1, text })).status, 201);
});
after(() => h?.close());

test("matches(): generated patterns answer exactly what Java's whole-string match does, or 400", async () => {
  const cases = fc.sample(pattern, { seed: 20261126, numRuns: 300 });
  let translated = 0;
  for (const [n, p] of cases.entries()) {
    const java = `${p.flags}${p.start ? "^" : ""}${p.pieces.map((x) => x.java).join("")}${p.end ? "$" : ""}`;
    const dotAll = p.flags.includes("s");
    const js = new RegExp(`^(?:${p.pieces.map((x) => x.js(dotAll)).join("")})$`, p.flags.includes("i") ? "i" : "");
    const expected = subjects.flatMap((s, i) => (js.test(s) ? [i + 1] : []));
    // Alternately a literal (Java escapes, as JSON writes them) and a parameter.
    const r = n % 2 === 0 ? await filter("d.Line", `text.matches(${JSON.stringify(java)})`) : await filter("d.Line", "text.matches(:re)", { re: java });
    const where = `${JSON.stringify(java)} (${n % 2 === 0 ? "literal" : "parameter"})`;
    // Refused: a construct GLOB cannot state, or an unbounded "." beside one that matches a line break.
    const names = p.pieces.map((x) => x.java);
    const unbounded = names.some((x) => [".*", ".*?", ".+", ".{1,}"].includes(x));
    const breaks = names.some((x) => ["\\n", "[^a]", "\\s", "\\W"].includes(x));
    const refused = names.some((x) => ["a+", "(a)", "a|b"].includes(x)) || (unbounded && breaks && !dotAll);
    if (refused) {
      assert.equal(r.status, 400, `${where} should be refused: ${r.text}`);
      assert.match(r.body.detail, /matches\(\)/, where);
      continue;
    }
    assert.equal(r.status, 200, `${where}: ${r.text}`);
    translated++;
    const ids = (r.body as { id: number }[]).map((o) => o.id).sort((a, b) => a - b);
    assert.deepEqual(ids, expected, `${where} over ${JSON.stringify(subjects)}`);
  }
  // Most generated patterns are translatable: the comparison is not vacuous.
  assert.ok(translated > 150, `only ${translated} patterns were translated`);
});
