/**
 * A model that cannot work stops start-up with every problem at once, each naming its file,
 * line, class and field.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadModel } from "../src/config/load-model.ts";
import { ModelError, type ModelProblem } from "../src/metadata/problems.ts";

function problemsOf(text: string, file = "bad.jdo"): ModelProblem[] {
  try {
    loadModel({ metadata: [{ source: file, text }] });
  } catch (error) {
    if (error instanceof ModelError) return [...error.problems];
    throw error;
  }
  assert.fail("the model was accepted");
}

const BAD = `<jdo><package name="p">
  <class name="A" identity-type="application">
    <field name="name" field-type="java.lang.Strin"/>
  </class>
  <class name="B" identity-type="application">
    <field name="id" field-type="long" primary-key="true" value-strategy="uuid-string"/>
    <field name="owner" field-type="p.C" mapped-by="nothing"/>
  </class>
  <class name="C">
    <field name="title" field-type="java.lang.String"/>
  </class>
  <class name="D" persistence-capable-superclass="p.Nope"/>
  <class name="Root">
    <inheritance strategy="new-table"><discriminator strategy="value-map" column="T" value="X"/></inheritance>
  </class>
  <class name="Leaf" persistence-capable-superclass="p.Root">
    <inheritance strategy="superclass-table"><discriminator value="X"/></inheritance>
    <field name="id" field-type="long" primary-key="true"/>
  </class>
  <class name="E"><field name="tags"><collection/></field></class>
  <class name="F"><field name="when" value-strategy="whenever" field-type="long"/></class>
</package></jdo>`;

test("every problem of a model is reported at once, each with file, line, class and field", () => {
  const problems = problemsOf(BAD);
  const find = (cls: string, field: string | undefined, message: RegExp) =>
    problems.find((p) => p.class === cls && p.field === field && message.test(p.message));
  assert.ok(find("p.A", "name", /unknown field type "java\.lang\.Strin"/), "unknown type");
  assert.equal(find("p.A", "name", /unknown field type/)!.line, 3);
  assert.equal(find("p.A", "name", /unknown field type/)!.file, "bad.jdo");
  assert.ok(find("p.A", undefined, /needs at least one field with primary-key="true"/), "missing primary key");
  assert.ok(find("p.B", "id", /uuid-string.*generates strings, but the field is long/), "strategy and type disagree");
  assert.ok(find("p.B", "owner", /mapped-by names "nothing", which is not a persistent field of p\.C/), "mapped-by naming no field");
  assert.ok(find("p.D", undefined, /superclass p\.Nope is not a persistent class/), "unknown superclass");
  assert.ok(find("p.Leaf", undefined, /discriminator value "X" is already used by class p\.Root/), "discriminator value twice");
  assert.ok(find("p.Leaf", "id", /primary-key fields belong to the root class/), "key field in a subclass");
  assert.ok(find("p.E", "tags", /a collection needs its element type/), "collection without element type");
  assert.equal(problems.length, 8, "a value-strategy on a field that is not a key is ignored, as in JDO");
  assert.deepEqual(
    problems.map((p) => p.line),
    [...problems.map((p) => p.line)].sort((a, b) => a! - b!),
    "in document order",
  );
});

test("a mapped-by naming a field of the wrong type, and a relation both sides claim, are refused", () => {
  const problems = problemsOf(`<jdo><package name="q">
    <class name="P"><field name="kids" mapped-by="name"><collection element-type="q.K"/></field>
      <field name="pets" mapped-by="owner"><collection element-type="q.K"/></field></class>
    <class name="K"><field name="name" field-type="java.lang.String"/><field name="owner" field-type="q.P" mapped-by="pets"/></class>
  </package></jdo>`);
  assert.ok(problems.some((p) => p.class === "q.P" && p.field === "kids" && /does not refer to q\.P/.test(p.message)));
  assert.ok(problems.some((p) => /one side must own the relation/.test(p.message)));
});

test("malformed XML and an empty model are precise too", () => {
  const malformed = problemsOf("<jdo><package name='x'><class name='A'></package></jdo>", "broken.jdo");
  assert.equal(malformed[0]!.file, "broken.jdo");
  assert.ok(malformed[0]!.line);
  const empty = problemsOf("<jdo><package name='x'/></jdo>", "empty.jdo");
  assert.match(empty[0]!.message, /no persistent classes/);
});

test("the object form reports its problems with the path of each bad entry", () => {
  try {
    loadModel({ models: [{ classes: { A: { fields: { x: { type: "int", primaryKey: "yes" } } } } }] });
    assert.fail("accepted");
  } catch (error) {
    assert.ok(error instanceof ModelError);
    assert.equal(error.problems[0]!.class, "A");
    assert.equal(error.problems[0]!.field, "x");
    assert.match(error.problems[0]!.message, /classes\.A\.fields\.x/);
  }
});

test("embedded classes holding relations and maps of persistent objects are refused at start-up", () => {
  const problems = problemsOf(`<jdo><package name="r">
    <class name="Addr" embedded-only="true"><field name="owner" field-type="r.P"/></class>
    <class name="P"><field name="home" field-type="r.Addr"/>
      <field name="byName"><map key-type="java.lang.String" value-type="r.P"/></field></class>
  </package></jdo>`);
  assert.ok(
    problems.some((p) => p.class === "r.Addr" && p.field === "owner" && p.line === 2 && /embedded class may hold basic values and enums only/.test(p.message)),
  );
  assert.ok(problems.some((p) => p.class === "r.P" && p.field === "byName" && /maps may hold basic values and enums only/.test(p.message)));
});
