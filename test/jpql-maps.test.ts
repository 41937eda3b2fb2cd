/**
 * JPQL over maps of values: `JOIN c.phones p` ranges over the entries, `KEY(p)` is an entry's key,
 * `VALUE(p)` (or `p`) its value; `ENTRY(p)`, a select item only, the entry `{key, value}`.
 */
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startHarness, type Harness } from "./support/harness.ts";

const MODEL = `<jdo><package name="jm"><class name="Contact" identity-type="application">
  <field name="id" field-type="long" primary-key="true"/>
  <field name="name" field-type="java.lang.String"/>
  <field name="phones"><map key-type="java.lang.String" value-type="java.lang.String"/></field>
</class></package></jdo>`;

let h: Harness;
before(async () => {
  h = await startHarness({ metadata: [{ source: "jm.jdo", text: MODEL }] });
  for (const c of [
    { id: 1, name: "Ann", phones: { home: "111", work: "222" } },
    { id: 2, name: "Bo", phones: { home: "333" } },
    { id: 3, name: "Cy", phones: {} },
  ])
    assert.equal((await h.post("/jm.Contact", c)).status, 201);
});
after(() => h?.close());

const jpql = async (q: string) => {
  const r = await h.get(`/jpql?query=${encodeURIComponent(q)}`);
  return r;
};

describe("KEY and VALUE over a joined map", () => {
  test("one row per entry, with its key and value", async () => {
    const r = await jpql("SELECT c.name, KEY(p), VALUE(p) FROM Contact c JOIN c.phones p ORDER BY c.id, KEY(p)");
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, [
      ["Ann", "home", "111"],
      ["Ann", "work", "222"],
      ["Bo", "home", "333"],
    ]);
  });

  test("KEY and VALUE in WHERE; the bare variable is the value", async () => {
    const r = await jpql("SELECT c.name, p FROM Contact c JOIN c.phones p WHERE KEY(p) = 'home' AND VALUE(p) <> '111'");
    assert.deepEqual(r.body, [["Bo", "333"]]);
  });

  test("LEFT JOIN keeps a contact without entries", async () => {
    const r = await jpql("SELECT c.name, KEY(p) FROM Contact c LEFT JOIN c.phones p WHERE c.id >= 2 ORDER BY c.id");
    assert.deepEqual(r.body, [
      ["Bo", "home"],
      ["Cy", null],
    ]);
  });

  test("ENTRY(p) as a select item is the entry", async () => {
    const r = await jpql("SELECT ENTRY(p) FROM Contact c JOIN c.phones p WHERE c.id = 1 ORDER BY KEY(p)");
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, [
      { key: "home", value: "111" },
      { key: "work", value: "222" },
    ]);
  });

  test("ENTRY(p) outside the select list, and KEY of a variable that is not over a map, are 400", async () => {
    for (const q of ["SELECT c FROM Contact c JOIN c.phones p WHERE ENTRY(p) IS NULL", "SELECT KEY(c) FROM Contact c"]) {
      const r = await jpql(q);
      assert.equal(r.status, 400, r.text);
      assert.match(r.headers.get("content-type") ?? "", /problem\+json/);
    }
  });
});
