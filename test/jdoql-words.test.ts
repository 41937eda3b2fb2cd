/**
 * JDOQL names and identities (issue 23, item 3): only JDOQL's own keywords and Java's reserved
 * words are reserved (JDO 3.2 §14.4: keywords may not be class, package, parameter or variable
 * names, and may be field names only after a dot), so fields, parameters, variables and aliases
 * named like method names, library classes, JPQL keywords or contextual words work;
 * `JDOHelper.getObjectId(x)` is the object's identity (compared with a parameter, a literal key
 * or another object id; in results the identity `{"class", key}`), `JDOHelper.getVersion(x)` its
 * version number; `String.matches` with the Java regular expressions SQL can answer exactly.
 *
 * Model: test/models/jdoql-words/package.jdo. Data (loaded once in `before`):
 *
 *   Word 1  value "changed" (PUT once: version 2)  parent null   text "t1"
 *   Word 2  value "v2"                  version 1   parent 1      text "t2"
 *   Kw   1  select "s1" count 3 order 4 range 5
 *   Tag  (datastore identity) _id 1 label "x"
 *   Part (composite key) id 1 kind "a"
 *   Line id → text: 1 "abc", 2 "aXc", 3 "a\nc" (a line break), 4 "ABC", 5 "a.c", 6 "123", 7 "É",
 *        8 "a*c", 9 "é", 10 null
 *
 * Run: node --import tsx --test test/jdoql-words.test.ts
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { type Harness, startHarness } from "./support/harness.ts";
import { ok, problem, queryClient } from "./support/query-client.ts";

const MODEL_FILE = new URL("./models/jdoql-words/package.jdo", import.meta.url);
const MODEL = { metadata: [{ source: "test/models/jdoql-words/package.jdo", text: readFileSync(MODEL_FILE, "utf8") }] };
const Word = "org.w.Word";
const Kw = "org.w.Kw";
const Tag = "org.w.Tag";
const Part = "org.w.Part";
const Line = "org.w.Line";
const LINES = ["abc", "aXc", "a\nc", "ABC", "a.c", "123", "É", "a*c", "é", null];

/** Every field is named like a word JDOQL does not reserve; each holds the object's id. */
const WORD_FIELDS = ["size", "length", "get", "Math", "JDOHelper", "delete", "update", "set", "not", "and", "or", "to", "like"];
const MORE_FIELDS = ["var", "record", "object", "type", "index", "entry"];

function word(id: number, extra: Record<string, unknown> = {}) {
  const w: Record<string, unknown> = { id, value: `v${id}`, key: `k${id}`, contains: id % 2 === 0, matches: "a.*", text: `t${id}` };
  for (const f of [...WORD_FIELDS, ...MORE_FIELDS]) w[f] = id;
  return { ...w, ...extra };
}

let h: Harness;
const { jdoql, filter } = queryClient(() => h);

before(async () => {
  h = await startHarness(MODEL);
  const created = [
    await h.post(`/${Word}`, word(1)),
    await h.post(`/${Word}`, word(2, { parent: { id: 1 } })),
    await h.put(`/${Word}/1`, word(1, { value: "changed" })),
    await h.post(`/${Kw}`, { id: 1, select: "s1", count: 3, order: 4, range: 5 }),
    await h.post(`/${Tag}`, { label: "x" }),
    await h.post(`/${Part}`, { id: 1, kind: "a", label: "x" }),
    ...(await Promise.all(LINES.map((text, i) => h.post(`/${Line}`, { id: i + 1, text })))),
  ];
  for (const r of created) assert.ok(r.status === 200 || r.status === 201, r.text);
});
after(() => h?.close());

const ids = (body: any[]) => body.map((o) => o.id).sort();
const queryIds = async (q: string, params?: unknown) => ids(ok(await jdoql(q, params)));

describe("names: only JDOQL keywords and Java reserved words are reserved", () => {
  for (const f of WORD_FIELDS) {
    test(`a field named ${f}: ${f} == 1`, async () => {
      assert.deepEqual(await queryIds(`SELECT FROM ${Word} WHERE ${f} == 1`), [1]);
    });
  }
  test("fields named var, record, object, type, index, entry (JPQL words, contextual Java words)", async () => {
    const where = MORE_FIELDS.map((f) => `${f} == 2`).join(" && ");
    assert.deepEqual(await queryIds(`SELECT FROM ${Word} WHERE ${where}`), [2]);
  });
  test("fields named value, key and contains, and the method name matches as a field", async () => {
    assert.deepEqual(await queryIds(`SELECT FROM ${Word} WHERE key == 'k2' && value == 'v2' && contains && matches == 'a.*'`), [2]);
  });
  test("a field named like a String method, called as one: value.length() == length + 6", async () => {
    assert.deepEqual(await queryIds(`SELECT FROM ${Word} WHERE value.length() == length + 6`), [1]);
  });
  test("the filter= form: GET /{class}?filter=size == 2 && delete == 2", async () => {
    assert.deepEqual(ids(ok(await filter(Word, "size == 2 && delete == 2"))), [2]);
  });
  test("result items and aliases named value, key, size: SELECT value AS key, key AS size ... INTO java.util.Map", async () => {
    const body = ok(await jdoql(`SELECT value AS key, key AS size, size AS value INTO java.util.Map FROM ${Word} ORDER BY size`));
    assert.deepEqual(body, [
      { key: "changed", size: "k1", value: 1 },
      { key: "v2", size: "k2", value: 2 },
    ]);
  });
  test("grouping and ordering by fields named size and value", async () => {
    const body = ok(await jdoql(`SELECT size, count(this) FROM ${Word} GROUP BY size ORDER BY size DESC`));
    assert.deepEqual(body, [
      [2, 1],
      [1, 1],
    ]);
  });
  test("a navigation through fields named like words: parent.value, parent.Math", async () => {
    assert.deepEqual(await queryIds(`SELECT FROM ${Word} WHERE parent.value == 'changed' && parent.Math == 1`), [2]);
  });
  test("declared parameters named size and value: PARAMETERS String value, int size (they hide the fields)", async () => {
    const q = `SELECT FROM ${Word} WHERE this.value == value && this.size == size PARAMETERS String value, int size`;
    assert.deepEqual(await queryIds(q, { value: "v2", size: 2 }), [2]);
  });
  test("implicit parameters named like words: :value, :delete, :get", async () => {
    assert.deepEqual(await queryIds(`SELECT FROM ${Word} WHERE value == :value && delete == :delete && get == :get`, { value: "v2", delete: 2, get: 2 }), [2]);
  });
  test("a declared variable named get: VARIABLES org.w.Word get", async () => {
    const q = `SELECT FROM ${Word} WHERE get.parent == this && get.size == 2 VARIABLES org.w.Word get`;
    assert.deepEqual(await queryIds(q), [1]);
  });
  test("a candidate alias named value: SELECT FROM org.w.Word value WHERE value.size == 1", async () => {
    assert.deepEqual(await queryIds(`SELECT FROM ${Word} value WHERE value.size == 1`), [1]);
  });
  test("TCK KeywordsAsFieldNames: SELECT this.select, this.count, this.order, this.range (keywords after a dot)", async () => {
    assert.deepEqual(ok(await jdoql(`SELECT this.select, this.count, this.order, this.range FROM ${Kw} WHERE this.count == 3`)), [["s1", 3, 4, 5]]);
  });
  test("TCK KeywordsAsFieldNames: a bare keyword field, SELECT select FROM Kw → 400 at the keyword", async () => {
    problem(await jdoql(`SELECT select FROM ${Kw}`), 400, { position: { line: 1, column: 8, offset: 7 } });
  });
  test("TCK InvalidUseOfKeywords: PARAMETERS int range → 400 naming the reserved word", async () => {
    problem(await jdoql(`SELECT FROM ${Word} PARAMETERS int range`), 400, { mentions: '"range" (a reserved word' });
  });
  test("TCK InvalidUseOfKeywords: VARIABLES long this, and a Java reserved word as a variable → 400", async () => {
    problem(await jdoql(`SELECT FROM ${Word} VARIABLES long this`), 400, { mentions: '"this" (a reserved word' });
    problem(await jdoql(`SELECT FROM ${Word} VARIABLES org.w.Word class`), 400, { mentions: '"class" (a reserved word' });
  });
});

describe("JDOHelper.getObjectId and getVersion", () => {
  test("SELECT JDOHelper.getObjectId(this): the identity {class, key} of each object", async () => {
    assert.deepEqual(ok(await jdoql(`SELECT JDOHelper.getObjectId(this) FROM ${Word} ORDER BY id`)), [
      { class: Word, id: 1 },
      { class: Word, id: 2 },
    ]);
  });
  test("getObjectId of a datastore-identity object and of a composite key", async () => {
    assert.deepEqual(ok(await jdoql(`SELECT JDOHelper.getObjectId(this) FROM ${Tag}`)), [{ class: Tag, _id: 1 }]);
    assert.deepEqual(ok(await jdoql(`SELECT JDOHelper.getObjectId(this) FROM ${Part}`)), [{ class: Part, id: 1, kind: "a" }]);
  });
  test("getObjectId of a reference that is null is null", async () => {
    assert.deepEqual(ok(await jdoql(`SELECT JDOHelper.getObjectId(parent) FROM ${Word} ORDER BY id`)), [null, { class: Word, id: 1 }]);
  });
  test("getObjectId(this) == :oid, the parameter as the key, as {id}, and as an identity from an answer", async () => {
    const q = `SELECT FROM ${Word} WHERE JDOHelper.getObjectId(this) == :oid`;
    assert.deepEqual(await queryIds(q, { oid: 2 }), [2]);
    assert.deepEqual(await queryIds(q, { oid: { id: 2 } }), [2]);
    assert.deepEqual(await queryIds(q, { oid: { class: Word, id: 2 } }), [2]);
  });
  test("getObjectId(this) == 2: a literal key is the identity it is the key of", async () => {
    assert.deepEqual(await queryIds(`SELECT FROM ${Word} WHERE JDOHelper.getObjectId(this) == 2`), [2]);
    assert.deepEqual(await queryIds(`SELECT FROM ${Word} WHERE 1 == JDOHelper.getObjectId(parent)`), [2]);
    assert.deepEqual(await queryIds(`SELECT FROM ${Word} WHERE JDOHelper.getObjectId(this) != 2`), [1]);
  });
  test("getObjectId of a datastore-identity object == 1", async () => {
    assert.deepEqual(ok(await jdoql(`SELECT label FROM ${Tag} WHERE JDOHelper.getObjectId(this) == 1`)), ["x"]);
  });
  test("getObjectId compared with another object id: getObjectId(parent) == getObjectId(w) VARIABLES Word w", async () => {
    const q = `SELECT FROM ${Word} WHERE JDOHelper.getObjectId(parent) == JDOHelper.getObjectId(w) && w.value == 'changed' VARIABLES org.w.Word w`;
    assert.deepEqual(await queryIds(q), [2]);
  });
  test("getObjectId == a string literal where the key is a long → 400 at the literal", async () => {
    const q = `SELECT FROM ${Word} WHERE JDOHelper.getObjectId(this) == 'x'`;
    problem(await jdoql(q), 400, { position: { line: 1, column: q.indexOf("'x'") + 1, offset: q.indexOf("'x'") }, mentions: "key" });
  });
  test("getObjectId of a composite key == a literal → 400 (give the key fields as a parameter)", async () => {
    problem(await jdoql(`SELECT FROM ${Part} WHERE JDOHelper.getObjectId(this) == 1`), 400, { mentions: "parameter" });
  });
  test("getObjectId of a value → 400", async () => {
    problem(await jdoql(`SELECT FROM ${Word} WHERE JDOHelper.getObjectId(size) == 1`), 400, { mentions: "persistent object" });
  });
  test("SELECT JDOHelper.getVersion(this): the version numbers (1 after POST, 2 after one PUT)", async () => {
    assert.deepEqual(ok(await jdoql(`SELECT id, JDOHelper.getVersion(this) FROM ${Word} ORDER BY id`)), [
      [1, 2],
      [2, 1],
    ]);
  });
  test("JDOHelper.getVersion of an object of an unversioned class is null, as JDO defines it", async () => {
    const all = await queryIds(`SELECT FROM ${Line}`);
    assert.ok(all.length > 0);
    assert.deepEqual(await queryIds(`SELECT FROM ${Line} WHERE JDOHelper.getVersion(this) == null`), all);
    assert.deepEqual(ok(await jdoql(`SELECT JDOHelper.getVersion(this) FROM ${Line} WHERE id == ${all[0]}`)), [null]);
  });
  test("JDOHelper.getVersion in a filter and through a navigation", async () => {
    assert.deepEqual(await queryIds(`SELECT FROM ${Word} WHERE JDOHelper.getVersion(this) == 2`), [1]);
    assert.deepEqual(await queryIds(`SELECT FROM ${Word} WHERE JDOHelper.getVersion(parent) > 1`), [2]);
  });
});

describe("String.matches: the Java regular expressions SQL can answer exactly", () => {
  const lines = async (regex: string) => queryIds(`SELECT FROM ${Line} WHERE text.matches(${JSON.stringify(regex)})`);
  const cases: [string, number[], string][] = [
    ["a.c", [1, 2, 5, 8], '"." matches any character but a line terminator'],
    ["a.*", [1, 2, 5, 8], '".*" does not cross a line break'],
    [".*?c", [1, 2, 5, 8], "a reluctant .*? matches what .* does"],
    ["(?s)a.c", [1, 2, 3, 5, 8], "(?s): . matches line terminators too"],
    ["(?s)a.*", [1, 2, 3, 5, 8], "(?s) with .*"],
    ["a.+", [1, 2, 5, 8], ".+"],
    [".{3}", [1, 2, 4, 5, 6, 8], ".{3}: exactly three characters, none a line break"],
    [".{2,}", [1, 2, 4, 5, 6, 8], ".{2,}"],
    ["(?i)abc", [1, 4], "(?i) folds ASCII letters"],
    ["(?i)É", [7], "(?i) folds ASCII letters only, as Java's default CASE_INSENSITIVE"],
    ["^abc$", [1], "^ first and $ last: a whole-string match anyway"],
    ["a\\.c", [5], "an escaped metacharacter is literal"],
    ["a\\*c", [8], "an escaped *"],
    ["\\Qa.c\\E", [5], "\\Q...\\E quotes"],
    ["[a-z]{3}", [1], "a range, repeated"],
    ["(?i)[a-z]{3}", [1, 2, 4], "a range under (?i)"],
    ["a[^b]c", [2, 3, 5, 8], "a negated class matches a line break, as in Java"],
    ["a[.*X]c", [2, 5, 8], "metacharacters are literal inside a class"],
    ["\\d{3}", [6], "\\d, repeated"],
    ["a\\nc", [3], "\\n is a line break"],
    ["a\\sc", [3], "\\s matches a line break"],
    ["\\w\\W\\w", [3, 5, 8], "\\w and \\W (which matches a line break)"],
    ["[é]", [9], "a non-ASCII class member"],
  ];
  for (const [regex, expected, why] of cases) {
    test(`text.matches(${JSON.stringify(regex)}): ${why}`, async () => {
      assert.deepEqual(await lines(regex), expected);
    });
  }
  test("the same patterns as a parameter: text.matches(:re)", async () => {
    for (const [regex, expected] of cases) {
      assert.deepEqual(await queryIds(`SELECT FROM ${Line} WHERE text.matches(:re)`, { re: regex }), expected, regex);
    }
  });
  test("matches in a result: SELECT id, text.matches('a.c')", async () => {
    assert.deepEqual(ok(await jdoql(`SELECT id, text.matches('a.c') FROM ${Line} WHERE id <= 3 ORDER BY id`)), [
      [1, true],
      [2, true],
      [3, false],
    ]);
  });
  const refused: [string, string, string][] = [
    ["a\\\\d+", "+", 'quantifier "+"'],
    ["ab|c", "|", "alternation"],
    ["a(b)c", "(", "group"],
    ["a?", "?", 'quantifier "?"'],
    ["ab\\\\b", "\\", "escape"],
    ["a.{1,3}", "{", "range of counts"],
    ["[a-c]*", "*", 'quantifier "*"'],
    [".*[^b].*", ".", "line terminators"],
    ["(?u)a", "u", 'flag "u"'],
    ["a^b", "^", "anchor"],
  ];
  for (const [written, at, mentions] of refused) {
    test(`text.matches('${written}') → 400 naming the construct at its line and column`, async () => {
      const q = `SELECT FROM ${Line}\nWHERE text.matches('${written}')`;
      const start = q.indexOf("'") + 1;
      // The construct's column in the query as written (the literal's escapes included).
      const offset = mentions === "line terminators" ? q.indexOf("[^", start) : q.indexOf(at, start + (at === "." ? 0 : 0));
      const column = offset - q.indexOf("\n");
      problem(await jdoql(q), 400, { position: { line: 2, column, offset }, mentions });
    });
  }
  test("a parameter pattern SQL cannot evaluate → 400 at the parameter, naming the construct and its index", async () => {
    const q = `SELECT FROM ${Line} WHERE text.matches(:re)`;
    const r = await jdoql(q, { re: "a\\d+" });
    problem(r, 400, { position: { line: 1, column: q.indexOf(":re") + 1, offset: q.indexOf(":re") }, mentions: 'quantifier "+"' });
    assert.match(r.body.detail, /parameter :re.*index 3/);
  });
  test("an invalid Java regular expression → 400", async () => {
    problem(await jdoql(`SELECT FROM ${Line} WHERE text.matches('[ab')`), 400, { mentions: "not valid Java" });
  });
});
