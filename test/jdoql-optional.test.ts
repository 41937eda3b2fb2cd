/**
 * `java.util.Optional<T>` fields (issue 23, item 3), as the JDO 3.2 TCK's SupportedOptionalMethods
 * queries them (assertion A14.6.2-9): an Optional is read and written as its value or null (an empty
 * Optional), JDOQL dereferences it implicitly (`optionalPC.id`, `optionalString == 'x'`), and
 * `isPresent()` (`!= null`), `isEmpty()` (`== null`), `get()` (the value) and `orElse(v)` work in
 * filters and results. The model (test/models/jdoql-optional/package.jdo) and the data are the TCK's:
 *
 *   id  optionalPC  optionalDate  optionalInteger  optionalString
 *   1   88          1000000000    2016             "Hello JDO"
 *   3   (empty)     (empty)       (empty)          (empty)
 *   4   (null)      (null)        (null)           (null)
 *   88  99          -             -                -
 *   99  -           -             -                -
 *
 * Run: node --import tsx --test test/jdoql-optional.test.ts
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { type Harness, startHarness } from "./support/harness.ts";
import { ok, problem, queryClient } from "./support/query-client.ts";
import { javaParser } from "../src/runtime/java-sources.ts";
import { readJavaSources } from "../src/metadata/java/read.ts";
import { loadModel } from "../src/config/load-model.ts";
import { ModelError } from "../src/metadata/problems.ts";

const MODEL_FILE = new URL("./models/jdoql-optional/package.jdo", import.meta.url);
const MODEL = { metadata: [{ source: "test/models/jdoql-optional/package.jdo", text: readFileSync(MODEL_FILE, "utf8") }] };
const S = "org.o.OptionalSample";
const DATE = new Date(1000000000).toISOString();

let h: Harness;
const { jdoql, filter } = queryClient(() => h);

before(async () => {
  h = await startHarness(MODEL);
  const none = { optionalPC: null, optionalDate: null, optionalInteger: null, optionalString: null };
  for (const body of [
    { id: 99, ...none },
    { id: 88, ...none, optionalPC: { id: 99 } },
    { id: 1, optionalPC: { id: 88 }, optionalDate: DATE, optionalInteger: 2016, optionalString: "Hello JDO" },
    { id: 3, ...none },
    { id: 4 },
  ]) {
    const r = await h.post(`/${S}`, body);
    assert.equal(r.status, 201, r.text);
  }
});
after(() => h?.close());

const ids = async (f: string, params?: unknown) => (ok(await filter(S, f, params)) as any[]).map((o) => o.id).sort((a, b) => a - b);

describe("Optional fields: JSON", () => {
  test("an Optional reads as its value, or null when empty", async () => {
    const one = ok(await h.get(`/${S}/1`));
    assert.equal(one.optionalString, "Hello JDO");
    assert.equal(one.optionalInteger, 2016);
    assert.equal(one.optionalPC.id, 88);
    const empty = ok(await h.get(`/${S}/4`));
    assert.equal(empty.optionalString, null);
    assert.equal(empty.optionalPC, null);
  });
  test("an Optional<Integer> refuses a string with 422, as an Integer field does", async () => {
    const r = await h.post(`/${S}`, { id: 5, optionalInteger: "x" });
    assert.equal(r.status, 422, r.text);
  });
});

describe("Optional fields: JDOQL (TCK SupportedOptionalMethods)", () => {
  const PC = (f: string, expected: number[]) =>
    test(`${f}`, async () => {
      assert.deepEqual(await ids(f), expected);
    });
  // testQueriesWithPresence
  PC("optionalPC != null", [1, 88]);
  PC("optionalPC == null", [3, 4, 99]);
  PC("!(optionalPC == null)", [1, 88]);
  PC("!(optionalPC != null)", [3, 4, 99]);
  PC("optionalPC.get() != null", [1, 88]);
  PC("optionalPC.get() == null", [3, 4, 99]);
  PC("optionalPC.isPresent()", [1, 88]);
  PC("!optionalPC.isPresent()", [3, 4, 99]);
  PC("optionalPC.isEmpty()", [3, 4, 99]);
  for (const f of ["optionalString", "optionalDate", "optionalInteger"]) {
    PC(`${f} != null`, [1]);
    PC(`${f} == null`, [3, 4, 88, 99]);
    PC(`${f}.get() != null`, [1]);
    PC(`${f}.get() == null`, [3, 4, 88, 99]);
    PC(`${f}.isPresent()`, [1]);
    PC(`!${f}.isPresent()`, [3, 4, 88, 99]);
    PC(`${f}.isEmpty()`, [3, 4, 88, 99]);
  }
  // testQueriesWithNavigation
  PC("optionalPC.id == 88", [1]);
  PC("optionalPC.id != 88", [88]);
  PC("!(optionalPC.id == 88)", [88]);
  PC("optionalPC.get().id == 88", [1]);
  PC("optionalPC.optionalPC.isPresent()", [1]);
  PC("!(optionalPC.optionalPC.isPresent())", [3, 4, 88, 99]);
  PC("optionalPC.isPresent() && !(optionalPC.optionalPC.isPresent())", [88]);
  PC("optionalPC.optionalPC.id == 99", [1]);
  PC("optionalPC.get().optionalPC.get().id == 99", [1]);
  PC("!(optionalPC.isPresent() && optionalPC.id == 88)", [3, 4, 88, 99]);
  // Values through the Optional
  PC("optionalString == 'Hello JDO' && optionalInteger.get() > 2000", [1]);
  PC("optionalString.get().startsWith('Hello')", [1]);
  PC("optionalString.orElse('none') == 'none'", [3, 4, 88, 99]);

  test("testParameterOptional: this.optionalString == op PARAMETERS java.util.Optional op, a value and null (an empty Optional)", async () => {
    const q = (v: unknown) => jdoql(`SELECT FROM ${S} WHERE this.optionalString == op PARAMETERS java.util.Optional op`, { op: v });
    assert.deepEqual(
      (ok(await q("Hello JDO")) as any[]).map((o) => o.id),
      [1],
    );
    assert.deepEqual(
      (ok(await q(null)) as any[]).map((o) => o.id).sort((a, b) => a - b),
      [3, 4, 88, 99],
    );
  });
  test("testParameterOptional: this.optionalPC == op, op an object's identity", async () => {
    assert.deepEqual(await ids("this.optionalPC == :op", { op: 88 }), [1]);
  });
  test("testSubqueries: (select max(a.id) from OptionalSample a where a.optionalPC.isPresent()) == id", async () => {
    const q = `SELECT FROM ${S} WHERE (select max(a.id) from ${S} a where a.optionalPC.isPresent()) == id`;
    assert.deepEqual(
      (ok(await jdoql(q)) as any[]).map((o) => o.id),
      [88],
    );
  });
  test("testOptionalAggregation: SELECT AVG(optionalInteger), AVG(optionalInteger.get())", async () => {
    assert.equal(ok(await jdoql(`SELECT AVG(optionalInteger) FROM ${S}`)), 2016);
    assert.equal(ok(await jdoql(`SELECT AVG(optionalInteger.get()) FROM ${S}`)), 2016);
  });
  test("testOrElseInSELECT: SELECT id, optionalString.orElse('NotPresent')", async () => {
    assert.deepEqual(ok(await jdoql(`SELECT id, optionalString.orElse('NotPresent') FROM ${S} ORDER BY id`)), [
      [1, "Hello JDO"],
      [3, "NotPresent"],
      [4, "NotPresent"],
      [88, "NotPresent"],
      [99, "NotPresent"],
    ]);
  });
  test("results: isPresent() and get() in the SELECT clause", async () => {
    assert.deepEqual(ok(await jdoql(`SELECT id, optionalInteger.isPresent(), optionalInteger.get() FROM ${S} WHERE id < 5 ORDER BY id`)), [
      [1, true, 2016],
      [3, false, null],
      [4, false, null],
    ]);
  });
  test("orElse with an argument of another type → 400 at the argument", async () => {
    const f = "optionalInteger.orElse('xy') == 1";
    problem(await filter(S, f), 400, { position: { line: 1, column: f.indexOf("'xy'") + 1, offset: f.indexOf("'xy'") } });
  });
  test("orElse of an Optional persistent object → 400", async () => {
    problem(await filter(S, "optionalPC.orElse(null) == null"), 400, { mentions: "orElse" });
  });
  test("isPresent with an argument → 400", async () => {
    problem(await filter(S, "optionalString.isPresent(1)"), 400, { mentions: "isPresent" });
  });
});

describe("Optional fields from Java sources", () => {
  test("a field declared Optional<String> in Java is an Optional String field, queried as one", async () => {
    const parser = await javaParser();
    const java = readJavaSources(parser, [
      {
        file: "org/j/Holder.java",
        text: `package org.j;
import java.util.Optional;
import javax.jdo.annotations.*;
@PersistenceCapable
public class Holder {
  @PrimaryKey long id;
  Optional<String> nick;
  Optional<Holder> other;
}`,
      },
    ]);
    assert.deepEqual(java.problems, []);
    const hj = await startHarness({ documents: java.documents });
    try {
      const field = hj.model.classes.get("org.j.Holder")!.fields.get("nick")!;
      assert.equal(field.optional, true);
      assert.deepEqual(field.type, { kind: "basic", basic: "string", primitive: false });
      assert.equal((await hj.post("/org.j.Holder", { id: 1, nick: "n" })).status, 201);
      assert.equal((await hj.post("/org.j.Holder", { id: 2, other: { id: 1 } })).status, 201);
      const r = ok(
        await hj.get(`/jdoql?query=${encodeURIComponent("SELECT id FROM org.j.Holder WHERE nick.isPresent() || other.get().nick == 'n' ORDER BY id")}`),
      );
      assert.deepEqual(r, [1, 2]);
    } finally {
      hj.close();
    }
  });
});

describe("Optional fields in JPA forms", () => {
  test("a JPA entity's Optional<String> attribute (Java source) and an orm.xml attribute-type java.util.Optional<...>", () => {
    return javaParser().then((parser) => {
      const java = readJavaSources(parser, [
        {
          file: "org/j/H.java",
          text: "package org.j;\nimport java.util.Optional;\nimport jakarta.persistence.*;\n@Entity\npublic class H { @Id long id; Optional<String> nick; }",
        },
      ]);
      assert.deepEqual(java.problems, []);
      const fromJava = loadModel({ documents: java.documents, jpaClasses: java.jpaClasses }).classes.get("org.j.H")!.fields.get("nick")!;
      assert.equal(fromJava.optional, true);
      assert.equal(fromJava.type.kind === "basic" && fromJava.type.basic, "string");
      const orm = `<?xml version="1.0"?><entity-mappings xmlns="https://jakarta.ee/xml/ns/persistence/orm" version="3.1"><package>p</package><entity class="E"><attributes><id name="id" attribute-type="long"/><basic name="o" attribute-type="java.util.Optional&lt;java.lang.Integer&gt;"/></attributes></entity></entity-mappings>`;
      const fromOrm = loadModel({ metadata: [{ source: "orm.xml", text: orm }] })
        .classes.get("p.E")!
        .fields.get("o")!;
      assert.equal(fromOrm.optional, true);
      assert.equal(fromOrm.nullable, true);
    });
  });
});

describe("Optional fields: metadata errors", () => {
  const jdo = (type: string) => ({
    metadata: [
      {
        source: "bad.jdo",
        text: `<?xml version="1.0"?><jdo><package name="p"><class name="A" identity-type="application"><field name="id" primary-key="true" field-type="long"/><field name="o" field-type="${type}"/></class></package></jdo>`,
      },
    ],
  });
  for (const [type, message] of [
    ["java.util.Optional", /needs its value type/],
    ["java.util.Optional&lt;int&gt;", /wrapper class/],
    ["java.util.Optional&lt;java.util.List&lt;String&gt;&gt;", /holds one value/],
  ] as const) {
    test(`field-type="${type}" is a model error naming the field`, () => {
      assert.throws(
        () => loadModel(jdo(type)),
        (e: unknown) => e instanceof ModelError && e.problems.some((p) => message.test(p.message) && p.field === "o"),
      );
    });
  }
});
