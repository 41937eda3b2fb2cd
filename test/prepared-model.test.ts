/**
 * Prepared models (src/config/prepared-model.ts, `extent model`): the worker's model is
 * schema/prepared/sample.json, what `npm run model:worker` makes of schema/jdo, so it must be
 * exactly that (a model edited without preparing it again fails here), and it must serve as the
 * XML does. A file that is no prepared model, or one of another version, fails start-up naming it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadModel } from "../src/config/load-model.ts";
import { preparedDocuments } from "../src/config/prepared-model.ts";
import { resolveContext } from "../src/config/resolve-context.ts";
import { ModelError } from "../src/metadata/problems.ts";
import { loadConfigDir } from "../src/runtime/load-config-dir.ts";
import { startHarness } from "./support/harness.ts";

const ROOT = join(import.meta.dirname, "..");
const PREPARED = "schema/prepared/sample.json";

test("the committed prepared model is what `npm run model:worker` makes of schema/jdo", () => {
  const script: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts["model:worker"];
  const [command, out] = script.split(" > ");
  assert.equal(out, PREPARED);
  const [program, ...args] = command!.split(/\s+/);
  assert.equal(program, "node");
  const fresh = execFileSync(process.execPath, args, { cwd: ROOT, encoding: "utf8" });
  assert.ok(fresh === readFileSync(join(ROOT, PREPARED), "utf8"), `${PREPARED} differs from what schema/jdo makes: run \`npm run model:worker\``);
});

test("a prepared model builds the model the XML builds, and serves the same answers", async () => {
  const { context } = resolveContext(await loadConfigDir(join(ROOT, "schema/jdo")), "sample");
  const documents = preparedDocuments(JSON.parse(readFileSync(join(ROOT, PREPARED), "utf8")), PREPARED);
  const fromXml = loadModel(context);
  const fromPrepared = loadModel({ documents });
  assert.deepEqual([...fromPrepared.classes.keys()], [...fromXml.classes.keys()]);
  const shape = (m: typeof fromXml) => JSON.stringify([...m.classes.values()].map((c) => [c.name, c.primaryTable, [...c.fields.keys()]]));
  assert.equal(shape(fromPrepared), shape(fromXml));
  const h = await startHarness({ documents });
  try {
    const created = await h.post("/org.extent.sample.Author", { name: "Prepared", works: [{ class: "org.extent.sample.Book", title: "T", isbn: "1" }] });
    assert.equal(created.status, 201, created.text);
    const read = await h.get(`/org.extent.sample.Author/${created.body._id}?fetchGroup=all`);
    assert.equal(read.body.works[0].title, "T");
  } finally {
    h.close();
  }
});

test("a model built beforehand (the worker builds it as its isolate starts) is the handler's, and its context's sources are not read", async () => {
  const documents = preparedDocuments(JSON.parse(readFileSync(join(ROOT, PREPARED), "utf8")), PREPARED);
  const model = loadModel({ documents });
  // No sources at all in the context: the model given is the one served.
  const h = await startHarness({}, { model });
  try {
    assert.equal(h.model, model);
    const created = await h.post("/org.extent.sample.Author", { name: "Built before" });
    assert.equal(created.status, 201, created.text);
    assert.equal((await h.get(`/org.extent.sample.Author/${created.body._id}`)).body.name, "Built before");
  } finally {
    h.close();
  }
});

test("a file that is no prepared model, or of another version, is refused naming the file", () => {
  const refused = (value: unknown) =>
    assert.throws(
      () => preparedDocuments(value, "model.json"),
      (e: unknown) => e instanceof ModelError && /model\.json/.test(e.message),
    );
  refused({ classes: [] });
  refused(null);
  refused({ format: "extent-prepared-model", version: 99, documents: [] });
  assert.throws(() => preparedDocuments({ format: "extent-prepared-model", version: 99, documents: [] }, "m.json"), /version 99.*extent model/);
});

test("`extent model` refuses a model with problems, naming the file and the field", () => {
  const dir = mkdtempSync(join(tmpdir(), "extent-model-"));
  try {
    writeFileSync(
      join(dir, "package.jdo"),
      `<jdo><package name="p"><class name="A"><field name="b" persistence-modifier="persistent"><collection element-type="p.Missing"/></field></class></package></jdo>`,
    );
    writeFileSync(
      join(dir, "persistence.xml"),
      `<persistence><persistence-unit name="u"><mapping-file>package.jdo</mapping-file><properties><property name="jakarta.persistence.jdbc.url" value=":memory:"/></properties></persistence-unit></persistence>`,
    );
    const run = () =>
      execFileSync(process.execPath, ["--import", "tsx", "src/local.ts", "model", "--config", dir, "--persistence-context", "u"], { cwd: ROOT, stdio: "pipe" });
    assert.throws(run, (e: { status?: number; stderr?: Buffer }) => e.status === 1 && /extent model: .*package\.jdo.*p\.Missing/s.test(String(e.stderr)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
