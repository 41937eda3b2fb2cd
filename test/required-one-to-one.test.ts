/**
 * A required one-to-one reference handed over (issue 23, item 1): a PUT or POST that gives an
 * object's required `insurance` (null-value="exception", one-to-one with a mapped-by inverse) a
 * target another object already holds would leave that other object's reference null. It is
 * refused, 409 naming the class, field and count, and nothing is written; a nullable one-to-one
 * is handed over as before (the previous holder's reference set to null).
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { type Harness, startHarness } from "./support/harness.ts";
import { databaseDigest } from "./support/digest.ts";

const MODEL = `<jdo><package name="org.o">
  <class name="Employee" identity-type="application" table="EMPLOYEE">
    <field name="id" field-type="long" primary-key="true" value-strategy="increment"/>
    <field name="name" field-type="java.lang.String"/>
    <field name="insurance" field-type="org.o.Insurance" null-value="exception"/>
    <field name="locker" field-type="org.o.Locker"/>
  </class>
  <class name="Insurance" identity-type="application" table="INSURANCE">
    <field name="id" field-type="long" primary-key="true" value-strategy="increment"/>
    <field name="carrier" field-type="java.lang.String"/>
    <field name="employee" field-type="org.o.Employee" mapped-by="insurance"/>
  </class>
  <class name="Locker" identity-type="application" table="LOCKER">
    <field name="id" field-type="long" primary-key="true" value-strategy="increment"/>
    <field name="employee" field-type="org.o.Employee" mapped-by="locker"/>
  </class>
</package></jdo>`;

let h: Harness;
before(async () => {
  h = await startHarness({ metadata: [{ source: "one-to-one.jdo", text: MODEL }] });
});
after(() => h.close());

test("handing a required one-to-one target to another object is 409 naming the holder, and writes nothing", async () => {
  const ada = await h.post("/org.o.Employee", { name: "Ada", insurance: { carrier: "A" }, locker: {} });
  const bob = await h.post("/org.o.Employee", { name: "Bob", insurance: { carrier: "B" } });
  assert.equal(ada.status, 201, ada.text);
  assert.equal(bob.status, 201, bob.text);
  const adaInsurance = ada.body.insurance.id;
  const before = await databaseDigest(h.sql);
  // Bob takes Ada's insurance: Ada's required reference would be left null.
  const put = await h.put(`/org.o.Employee/${bob.body.id}`, { insurance: { id: adaInsurance } });
  assert.equal(put.status, 409, put.text);
  assert.match(put.body.detail, /Employee\.insurance.*1 org\.o\.Employee object/);
  assert.deepEqual(
    put.body.errors.map((e: { path: string }) => e.path),
    ["org.o.Employee.insurance"],
  );
  // A new employee given it too.
  const post = await h.post("/org.o.Employee", { name: "Cy", insurance: { id: adaInsurance } });
  assert.equal(post.status, 409, post.text);
  assert.equal(await databaseDigest(h.sql), before, "nothing was written");
  // Giving Bob back his own insurance, or a new one, is fine.
  assert.equal((await h.put(`/org.o.Employee/${bob.body.id}`, { insurance: { id: bob.body.insurance.id } })).status, 200);
  assert.equal((await h.put(`/org.o.Employee/${bob.body.id}`, { insurance: { carrier: "C" } })).status, 200);
});

test("a nullable one-to-one is handed over as before: the previous holder's reference becomes null", async () => {
  const ada = await h.post("/org.o.Employee", { name: "Dee", insurance: { carrier: "D" }, locker: {} });
  const bob = await h.post("/org.o.Employee", { name: "Eve", insurance: { carrier: "E" } });
  const moved = await h.put(`/org.o.Employee/${bob.body.id}`, { locker: { id: ada.body.locker.id } });
  assert.equal(moved.status, 200, moved.text);
  assert.equal((await h.get(`/org.o.Employee/${ada.body.id}`)).body.locker, null);
});
