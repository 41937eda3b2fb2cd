/**
 * Discriminators as JDO metadata writes them in practice: declared on the root, or only by the
 * subclasses (values without a strategy mean value-map), or not at all (class names).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { startHarness } from "./support/harness.ts";

test("values declared only on the classes of a shared table are stored as a value map", async () => {
  const h = await startHarness({
    metadata: [
      {
        source: "d.jdo",
        text: `<jdo><package name="d">
        <class name="Pet" table="PET"><inheritance><discriminator value="P"/></inheritance>
          <field name="name" field-type="java.lang.String"/></class>
        <class name="Cat" persistence-capable-superclass="d.Pet"><inheritance strategy="superclass-table"><discriminator value="C"/></inheritance>
          <field name="lives" field-type="int"/></class>
        <class name="Dog" persistence-capable-superclass="d.Pet"><inheritance strategy="superclass-table"><discriminator value="D"/></inheritance></class>
      </package></jdo>`,
      },
    ],
  });
  try {
    await h.post("/d.Pet", { name: "generic" });
    await h.post("/d.Pet", { class: "d.Cat", name: "Tom", lives: 9 });
    await h.post("/d.Dog", { name: "Rex" });
    assert.deepEqual(await h.sql(`SELECT name, DISCRIMINATOR FROM PET ORDER BY _id`), [
      ["generic", "P"],
      ["Tom", "C"],
      ["Rex", "D"],
    ]);
    assert.deepEqual(
      (await h.get("/d.Pet")).body.map((p: any) => p.class),
      ["d.Pet", "d.Cat", "d.Dog"],
    );
    assert.deepEqual((await h.get("/d.Cat")).body, [{ class: "d.Cat", _id: 2, name: "Tom", lives: 9 }]);
  } finally {
    h.close();
  }
});

test("a shared table with no discriminator declared stores class names in DISCRIMINATOR", async () => {
  const h = await startHarness({
    metadata: [
      {
        source: "e.jdo",
        text: `<jdo><package name="e">
        <class name="Shape"><field name="area" field-type="double"/></class>
        <class name="Square" persistence-capable-superclass="e.Shape"><inheritance strategy="superclass-table"/><field name="side" field-type="double"/></class>
      </package></jdo>`,
      },
    ],
  });
  try {
    await h.post("/e.Shape", { class: "e.Square", area: 4, side: 2 });
    assert.deepEqual(await h.sql(`SELECT DISCRIMINATOR, side FROM Shape`), [["e.Square", 2]]);
  } finally {
    h.close();
  }
});
