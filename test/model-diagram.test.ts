/**
 * The model's class diagram text (src/describe/model-diagram.ts), which the explorer page has
 * Mermaid draw: the sample's exact lines for each kind of thing (inheritance, a bidirectional
 * relation drawn once with both cardinalities, a unidirectional one, an embedded object as
 * composition, abstract and embedded classes marked, collections and maps as generics, keys), and
 * for every test model: each class once, each relation field in exactly one line. (That Mermaid
 * reads every model's text is checked in test/explorer-browser.test.ts, with Mermaid itself.)
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadModel } from "../src/config/load-model.ts";
import { resolveContext } from "../src/config/resolve-context.ts";
import { modelDiagram } from "../src/describe/model-diagram.ts";
import type { Model } from "../src/metadata/model.ts";
import { loadConfigDir } from "../src/runtime/load-config-dir.ts";
import { DIAGRAM_MODELS } from "./support/diagram-models.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const { context } = resolveContext(await loadConfigDir(`${ROOT}schema/jdo`), "sample");
const sample = modelDiagram(loadModel(context));
const lines = sample.split("\n").map((l) => l.trim());

/** The lines of a class's block, `class X {` to `}`. */
function block(text: string, id: string): string[] {
  const all = text.split("\n").map((l) => l.trim());
  const start = all.findIndex((l) => l === `class ${id} {` || l.startsWith(`class ${id}[`));
  assert.ok(start >= 0, `no block for ${id}:\n${text}`);
  return all.slice(start, all.indexOf("}", start) + 1);
}

test("the sample: inheritance, relations with their cardinality, composition", () => {
  assert.equal(lines[0], "classDiagram");
  for (const line of [
    "Item <|-- Book",
    "Item <|-- Magazine",
    // Author.works (1-N, mapped by Item.author) and Item.author: one association, both names, both ends.
    'Author "0..1" -- "*" Item : works / author',
    'Shelf "0..1" --> "*" Item : items',
    'Member "0..1" --> "*" Book : borrowed',
    'Author *-- "0..1" Address : address',
  ])
    assert.ok(lines.includes(line), `missing ${line}:\n${sample}`);
  assert.equal(lines.filter((l) => / : .*\bauthor\b/.test(l)).length, 1, "the pair is drawn once");
});

test("the sample: classes with their own fields, types, keys, abstract and embedded marked", () => {
  assert.deepEqual(block(sample, "Address"), ["class Address {", "<<embedded>>", "String street", "String city", "String country", "}"]);
  const item = block(sample, "Item");
  assert.ok(item.includes("<<abstract>>") && item.includes("long id «key»") && item.includes("Collection~String~ tags"), item.join("\n"));
  assert.ok(!item.some((l) => l.includes("author")), "a relation is a line, not a member");
  assert.deepEqual(block(sample, "Book"), ["class Book {", "String isbn", "int pages", "Genre genre", "}"], "only what Book adds to Item");
  assert.ok(block(sample, "Member").includes("Map~String,String~ phones"));
  assert.ok(block(sample, "Author").includes("long _id «key»"), "a datastore identity");
  assert.ok(block(sample, "Category").includes("Category.Key parent «key»"), "an ancestor key");
});

test("two classes with one simple name get two identifiers, labelled with their full names", () => {
  const pkg = (name: string) => `<package name="${name}"><class name="Thing" identity-type="datastore"><field name="n" field-type="int"/></class></package>`;
  const text = modelDiagram(loadModel({ metadata: [{ source: "two.jdo", text: `<jdo>${pkg("a.one")}${pkg("b.two")}</jdo>` }] }));
  assert.ok(text.includes("class Thing {"), text);
  assert.ok(text.includes('class Thing_2["b.two.Thing"] {'), text);
});

function relationFields(model: Model): { cls: string; field: string; pair?: string }[] {
  const out: { cls: string; field: string; pair?: string }[] = [];
  for (const meta of model.classes.values())
    for (const f of meta.fields.values()) {
      if (f.declaringClass !== meta.name) continue;
      const t = f.type.kind === "collection" ? f.type.element : f.type.kind === "map" ? f.type.value : f.type;
      if (t.kind === "ref" || t.kind === "embedded") out.push({ cls: meta.name, field: f.name, ...(f.relation?.inverse ? { pair: f.relation.inverse } : {}) });
    }
  return out;
}

for (const { name, model } of DIAGRAM_MODELS) {
  test(`${name}: every class once, every relation field in one line`, async () => {
    const m = loadModel(await model());
    const text = modelDiagram(m);
    const declared = text.split("\n").filter((l) => /^ {2}class /.test(l));
    assert.equal(declared.length, m.classes.size, text);
    const links = text.split("\n").filter((l) => l.includes(" : "));
    for (const r of relationFields(m)) {
      const label = new RegExp(` : (${r.field}( by \\S+)?|${r.field} / \\w+|\\w+ / ${r.field})$`);
      const found = links.filter((l) => label.test(l));
      assert.ok(found.length >= 1, `${r.cls}.${r.field} is in no line:\n${text}`);
    }
    for (const meta of m.classes.values()) if (meta.superclass) assert.ok(text.includes(" <|-- "), `${meta.name} extends ${meta.superclass}, drawn`);
    assert.ok(!/[<>]/.test(text.replace(/<<(abstract|embedded)>>|<\|--|-->|\*--/g, "")), "no stray angle bracket for Mermaid to misread");
  });
}
