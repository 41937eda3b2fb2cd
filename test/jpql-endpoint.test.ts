/**
 * /jpql: SELECT statements run; UPDATE and DELETE are refused with 405, syntax errors are 400
 * with their position.
 */
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startHarness, type Harness } from "./support/harness.ts";

const MODEL = `<jdo><package name="jp"><class name="Customer" identity-type="application">
  <field name="id" field-type="long" primary-key="true"/><field name="status" field-type="java.lang.String"/>
</class></package></jdo>`;

let h: Harness;
before(async () => {
  h = await startHarness({ metadata: [{ source: "jp.jdo", text: MODEL }] });
  await h.post("/jp.Customer", { id: 1, status: "active" });
});
after(() => h?.close());

const jpql = (q: string) => h.get(`/jpql?query=${encodeURIComponent(q)}`);
const problem = (r: { status: number; headers: Headers; body: any }, status: number) => {
  assert.equal(r.status, status);
  assert.match(r.headers.get("content-type") ?? "", /^application\/problem\+json/);
  assert.equal(r.body.status, status);
};

test("UPDATE and DELETE parse and answer 405, changing nothing", async () => {
  for (const q of ["UPDATE Customer c SET c.status = 'gone' WHERE c.id = 1", "DELETE FROM Customer c WHERE c.status = 'active'"]) {
    const r = await jpql(q);
    problem(r, 405);
    assert.match(r.body.detail, /change data and are not allowed on GET/);
    assert.equal(r.headers.get("allow"), "GET");
  }
  assert.deepEqual(await h.sql("SELECT id, status FROM Customer"), [[1, "active"]]);
});

test("a syntax error is a 400 with line, column, offset and what was expected", async () => {
  const r = await jpql("SELECT c FROM Customer c\nWHERE c.status == 'x'");
  problem(r, 400);
  assert.deepEqual(r.body.position, { line: 2, column: 16, offset: 40 });
  assert.match(r.body.detail, /line 2, column 16/);
  const trailing = await jpql("SELECT c FROM Customer c WHERE c.id = 1 )");
  problem(trailing, 400);
  assert.ok(Array.isArray(trailing.body.expected) && trailing.body.expected.length > 0);
});

test("the raw form /jpql?Q is parsed the same way", async () => {
  const r = await h.get(`/jpql?${encodeURIComponent("DELETE FROM Customer c")}`);
  problem(r, 405);
});

test("a SELECT runs, with named parameters, entity names and case-insensitive keywords and variables", async () => {
  const r = await h.get(
    `/jpql?query=${encodeURIComponent("select C from Customer c where C.status = :s")}&params=${encodeURIComponent(JSON.stringify({ s: "active" }))}`,
  );
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, [{ class: "jp.Customer", id: 1, status: "active" }]);
});

test("other methods on /jpql are 405 with Allow", async () => {
  const r = await h.call("POST", "/jpql", { query: "SELECT c FROM Customer c" });
  problem(r, 405);
  assert.equal(r.headers.get("allow"), "GET, HEAD");
});
