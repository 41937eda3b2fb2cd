/**
 * The handler builds each class's commonest reads when it is made (src/read/read-objects.ts,
 * `prepareReads`): the JSON selects of a GET by key and of the extent's first page with the
 * default fetch plan. They must be the very entries those requests look up, or a request would
 * still build its own: after a GET of every class's extent and of an object by key, the JSON
 * selects' cache holds no more entries than the handler made. A model larger than
 * PREPARED_CLASSES gets that many classes prepared, not more.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { cacheSizes } from "../src/cache/bounded-cache.ts";
import { resolveContext } from "../src/config/resolve-context.ts";
import { PREPARED_CLASSES } from "../src/read/read-objects.ts";
import { loadConfigDir } from "../src/runtime/load-config-dir.ts";
import { startHarness } from "./support/harness.ts";

const SCHEMA = new URL("../schema/jdo", import.meta.url).pathname;
const { context: sample } = resolveContext(await loadConfigDir(SCHEMA), "sample");

const jsonSelects = (model: Parameters<typeof cacheSizes>[0]) => cacheSizes(model).jsonSelects!.size;

test("the handler prepares each class's GET by key and first extent page: the requests build no JSON select", async () => {
  const h = await startHarness({ metadata: sample.metadata });
  try {
    const classes = [...h.model.classes.values()].filter((c) => !c.embeddedOnly);
    const prepared = jsonSelects(h.model);
    assert.equal(prepared, 2 * classes.length, "two JSON selects a class before any request");
    const created = await h.post("/org.extent.sample.Book", { title: "Prepared", isbn: "p-1", pages: 3 });
    assert.equal(created.status, 201, created.text);
    const afterWrite = jsonSelects(h.model); // a POST reads its object back by its own select
    let byKey = 0;
    for (const meta of classes) {
      const extent = await h.get(`/${meta.name}`);
      assert.equal(extent.status, 200, `${meta.name}: ${extent.text}`);
      for (const object of (extent.body as Record<string, unknown>[]).slice(0, 1)) {
        const key = meta.identity.kind === "datastore" ? object._id : object[meta.identity.fields[0]!];
        if (meta.identity.kind !== "datastore" && meta.identity.fields.length !== 1) continue;
        const one = await h.get(`/${meta.name}/${encodeURIComponent(String(key))}`);
        assert.equal(one.status, 200, `${meta.name}/${key}: ${one.text}`);
        byKey++;
      }
    }
    assert.ok(byKey >= 1, "at least one object read by key");
    assert.equal(jsonSelects(h.model), afterWrite, "the extents and the GET by key found their selects built");
  } finally {
    h.close();
  }
});

test(`a model of more than PREPARED_CLASSES (${PREPARED_CLASSES}) classes gets that many prepared`, async () => {
  const classes = Array.from(
    { length: PREPARED_CLASSES + 3 },
    (_, i) =>
      `<class name="C${i}" identity-type="application"><field name="id" primary-key="true" field-type="long"/><field name="name" field-type="java.lang.String"/></class>`,
  );
  const h = await startHarness({ metadata: [{ source: "many.jdo", text: `<jdo><package name="m">${classes.join("")}</package></jdo>` }] });
  try {
    assert.equal(jsonSelects(h.model), 2 * PREPARED_CLASSES);
    const last = await h.get(`/m.C${PREPARED_CLASSES + 2}`);
    assert.equal(last.status, 200, last.text);
    assert.deepEqual(last.body, []);
    assert.equal(jsonSelects(h.model), 2 * PREPARED_CLASSES + 1, "a class past the bound builds its select on its first request");
  } finally {
    h.close();
  }
});
