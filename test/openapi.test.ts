/**
 * The OpenAPI document (src/describe/) never lies: it validates as OpenAPI 3.1 for every test model
 * (@seriousme/openapi-schema-validator), and the answers of real requests to the sample validate
 * against the schemas the document gives for that operation and status (Ajv, JSON Schema 2020-12).
 * The CLI prints the same document the endpoint serves.
 */
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { PersistenceContext } from "../src/config/context.ts";
import { loadModel } from "../src/config/load-model.ts";
import { resolveContext } from "../src/config/resolve-context.ts";
import { describeApi } from "../src/describe/openapi.ts";
import { loadConfigDir } from "../src/runtime/load-config-dir.ts";
import { seedIfEmpty } from "../src/runtime/seed.ts";
import { sampleClasses as jdoClasses } from "../schema/ts/jdo-model.ts";
import { sampleClasses as jpaClasses } from "../schema/ts/jpa-model.ts";
import { CACHE_MODEL } from "./models/cache-model.ts";
import { tckCompanyModel } from "./fixtures/tck-company.ts";
import { startHarness, type Harness, type Reply } from "./support/harness.ts";

type Model = Pick<PersistenceContext, "metadata" | "classes" | "documents" | "jpaClasses">;
const ROOT = new URL("..", import.meta.url).pathname;

async function schemaDir(dir: string): Promise<Model> {
  const { context, problems } = resolveContext(await loadConfigDir(`${ROOT}schema/${dir}`), "sample");
  assert.deepEqual(problems, []);
  return { metadata: context.metadata };
}
const jdoFile = (path: string): Model => ({ metadata: [{ source: path, text: readFileSync(`${ROOT}${path}`, "utf8") }] });
const JDO_MODELS = ["types", "identity", "jpql", "bounds", "relations", "inheritance", "fetch", "n-plus-one", "jdoql-features", "versions", "exact"];

const MODELS: { name: string; model: () => Promise<Model> }[] = [
  { name: "sample, JDO XML", model: () => schemaDir("jdo") },
  { name: "sample, JPA orm.xml", model: () => schemaDir("jpa") },
  { name: "sample, JDO decorators", model: async () => ({ classes: jdoClasses }) },
  { name: "sample, JPA decorators", model: async () => ({ classes: jpaClasses }) },
  ...JDO_MODELS.map((m) => ({ name: `test/models/${m}`, model: async () => jdoFile(`test/models/${m}/package.jdo`) })),
  { name: "cache model", model: async () => ({ metadata: [{ source: "cache.jdo", text: CACHE_MODEL }] }) },
  { name: "TCK company, application identity", model: async () => tckCompanyModel("applicationidentity") },
  { name: "TCK company, datastore identity", model: async () => tckCompanyModel("datastoreidentity") },
  {
    name: "JPA twin",
    model: async () => ({ metadata: ["package.jdo", "orm.xml"].map((f) => ({ source: f, text: readFileSync(`${ROOT}test/fixtures/jpa-twin/${f}`, "utf8") })) }),
  },
];

const validator = new Validator();

/** Ajv over the whole document, so every `$ref` into components resolves as the document says. */
function ajvOf(doc: Record<string, unknown>) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(doc, "openapi.json");
  return ajv;
}

for (const { name, model } of MODELS) {
  for (const security of [undefined, { bearer: true, anonymous: false }]) {
    test(`the document of ${name}${security ? " with access control" : ""} is valid OpenAPI 3.1 and its schemas compile`, async () => {
      const doc = describeApi(loadModel(await model()), { prefix: "/api", security });
      const result = await validator.validate(doc as Parameters<Validator["validate"]>[0]);
      assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2)?.slice(0, 3000));
      const ajv = ajvOf(doc);
      for (const s of Object.keys((doc.components as any).schemas))
        ajv.compile({ $ref: `openapi.json#/components/schemas/${s.replace(/~/g, "~0").replace(/\//g, "~1")}` });
    });
  }
}

// Real answers of the sample against the document.
let h: Harness;
let doc: any;
let ajv: ReturnType<typeof ajvOf>;
const SAMPLE = "org.extent.sample";

before(async () => {
  const { context } = resolveContext(await loadConfigDir(`${ROOT}schema/jdo`), "sample");
  h = await startHarness({ metadata: context.metadata });
  const data = JSON.parse(readFileSync(`${ROOT}schema/sample-data.json`, "utf8"));
  await seedIfEmpty({ fetch: (r) => h.fetch(r) }, data);
  const reply = await h.get("/openapi.json");
  assert.equal(reply.status, 200);
  doc = reply.body;
  ajv = ajvOf(doc);
});
after(() => h.close());

const escape = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

/** Validates an answer against the document's schema for path, method and its status. */
function conforms(path: string, method: string, reply: Reply): void {
  const op = doc.paths[path]?.[method];
  assert.ok(op, `the document has ${method.toUpperCase()} ${path}`);
  let response = op.responses[String(reply.status)];
  assert.ok(response, `${method.toUpperCase()} ${path} lists status ${reply.status}`);
  let pointer = `openapi.json#/paths/${escape(path)}/${method}/responses/${reply.status}`;
  if (response.$ref) {
    pointer = `openapi.json${response.$ref}`;
    response = doc.components.responses[response.$ref.split("/").pop()];
  }
  const type = (reply.headers.get("content-type") ?? "").split(";")[0]!;
  assert.ok(response.content?.[type], `${method.toUpperCase()} ${path} ${reply.status} describes ${type}`);
  const validate = ajv.compile({ $ref: `${pointer}/content/${escape(type)}/schema` });
  assert.ok(
    validate(reply.body),
    `${method.toUpperCase()} ${path} ${reply.status}: ${JSON.stringify(validate.errors, null, 1)?.slice(0, 2000)}\n${reply.text.slice(0, 500)}`,
  );
  for (const name of Object.keys(response.headers ?? {})) void name; // headers are described; their presence is checked by the tests below
}

test("GET of an extent answers what the document says", async () => {
  for (const cls of ["Item", "Book", "Author", "Magazine"])
    conforms(`/${SAMPLE}.${cls}`, "get", await h.get(`/${SAMPLE}.${cls}?fetchGroup=all&maxFetchDepth=-1`));
  conforms(`/${SAMPLE}.Item`, "get", await h.get(`/${SAMPLE}.Item`));
});

test("GET by key with fetchGroup=all, and a 404 problem", async () => {
  conforms(`/${SAMPLE}.Author/{key}`, "get", await h.get(`/${SAMPLE}.Author/1?fetchGroup=all`));
  const missing = await h.get(`/${SAMPLE}.Author/999`);
  assert.equal(missing.status, 404);
  conforms(`/${SAMPLE}.Author/{key}`, "get", missing);
});

test("POST's answer, with its Location, and a 422 problem", async () => {
  const created = await h.post(`/${SAMPLE}.Author`, { name: "Octavia E. Butler", born: "1947-06-22" });
  assert.equal(created.status, 201);
  assert.ok(created.headers.get("location"));
  assert.ok(doc.paths[`/${SAMPLE}.Author`].post.responses["201"].headers.Location);
  conforms(`/${SAMPLE}.Author`, "post", created);
  const bad = await h.post(`/${SAMPLE}.Author`, { name: 3, nope: true });
  assert.equal(bad.status, 422);
  conforms(`/${SAMPLE}.Author`, "post", bad);
});

test("a query's 400 problem with its position, and a query's answer", async () => {
  const bad = await h.get(`/jdoql?query=${encodeURIComponent("SELECT FROM")}`);
  assert.equal(bad.status, 400);
  conforms("/jdoql", "get", bad);
  conforms("/jdoql", "get", await h.get(`/jdoql?query=${encodeURIComponent(`SELECT FROM ${SAMPLE}.Book`)}`));
  conforms("/jpql", "get", await h.get(`/jpql?query=${encodeURIComponent("SELECT a FROM Author a")}`));
});

test("a paged GET with Content-Range and Link", async () => {
  const page = await h.call("GET", `/${SAMPLE}.Item?range=0,2`, undefined, { prefer: "count=exact" });
  assert.equal(page.status, 200);
  assert.match(page.headers.get("content-range") ?? "", /^items 0-1\/\d+$/);
  const described = doc.paths[`/${SAMPLE}.Item`].get.responses["200"].headers;
  for (const name of ["Content-Range", "Link", "Preference-Applied"]) assert.ok(described[name], name);
  conforms(`/${SAMPLE}.Item`, "get", page);
  const badRange = await h.get(`/${SAMPLE}.Item?range=2,1`);
  assert.equal(badRange.status, 400);
  conforms(`/${SAMPLE}.Item`, "get", badRange);
});

test("the document is generated once, and /openapi.json is no class: other methods 405, OPTIONS 204", async () => {
  const again = await h.get("/openapi.json");
  assert.equal(again.text, JSON.stringify(doc, null, 2));
  conforms("/", "get", await h.get("/"));
  const post = await h.post("/openapi.json", {});
  assert.equal(post.status, 405);
  assert.equal(post.headers.get("allow"), "GET, HEAD");
  assert.equal((await h.call("OPTIONS", "/openapi.json")).status, 204);
  assert.ok(doc.paths[`/${SAMPLE}.Author/{key}`].get.parameters.some((p: any) => p.name === "fetchGroup"));
});

test("the CLI prints the same document as the endpoint", async () => {
  const printed = execFileSync(process.execPath, [`${ROOT}bin/extent.js`, "openapi", "--config", `${ROOT}schema/jdo`, "--persistence-context", "sample"], {
    encoding: "utf8",
  });
  assert.deepEqual(JSON.parse(printed), doc);
  const prefixed = JSON.parse(
    execFileSync(process.execPath, [`${ROOT}bin/extent.js`, "openapi", "--config", `${ROOT}schema/jdo`, "--persistence-context", "sample", "--prefix", "/p"], {
      encoding: "utf8",
    }),
  );
  assert.deepEqual(prefixed.servers, [{ url: "/p" }]);
});

test("with access rules, each operation's security and x-extent-roles say which roles are granted it, in the endpoint's and the CLI's document", async () => {
  const secret = "a-test-secret-of-at-least-32-bytes!!";
  const env = { ...process.env, EXTENT_JWT_SECRET: secret };
  const printed = JSON.parse(
    execFileSync(process.execPath, [`${ROOT}bin/extent.js`, "openapi", "--config", `${ROOT}schema/jdo`, "--persistence-context", "sample-secured"], {
      encoding: "utf8",
      env,
    }),
  );
  const { context } = resolveContext(await loadConfigDir(`${ROOT}schema/jdo`), "sample-secured");
  const rules = JSON.parse(readFileSync(`${ROOT}schema/jdo/access-rules.json`, "utf8"));
  const secured = await startHarness({ metadata: context.metadata, access: { jwt: { secret }, anonymousRole: "guest", rules } });
  try {
    const served = (await secured.get("/openapi.json")).body;
    const result = await validator.validate(served);
    assert.equal(result.valid, true, JSON.stringify(result.errors)?.slice(0, 2000));
    for (const document of [served, printed]) {
      const author = document.paths[`/${SAMPLE}.Author`];
      // Read: every principal (role "*"), with a token or as the anonymous "guest"; writes: the librarian only.
      assert.deepEqual(author.get.security, [{ bearer: [] }, {}]);
      assert.deepEqual(author.get["x-extent-roles"], ["*"]);
      assert.deepEqual(author.post.security, [{ bearer: ["librarian"] }]);
      assert.deepEqual(document.paths[`/${SAMPLE}.Author/{key}`].put.security, [{ bearer: ["librarian"] }]);
      // Two grants of two roles are two alternatives.
      const member = document.paths[`/${SAMPLE}.Member/{key}`];
      assert.deepEqual(member.get.security, [{ bearer: ["librarian"] }, { bearer: ["member"] }]);
      assert.deepEqual(member.delete["x-extent-roles"], ["librarian"]);
      assert.ok(document.components.securitySchemes.bearer);
    }
  } finally {
    secured.close();
  }
  // An operation no grant allows is still served (401/403 to everyone): its requirement is one no token meets.
  const strict = await startHarness({
    metadata: context.metadata,
    access: { jwt: { secret }, rules: { default: "deny", classes: { [`${SAMPLE}.Author`]: { read: [{ role: "*" }] } } } },
  });
  try {
    const document = (await strict.get("/openapi.json")).body;
    assert.equal((await validator.validate(document)).valid, true);
    assert.deepEqual(document.paths[`/${SAMPLE}.Author`].get.security, [{ bearer: [] }]);
    const post = document.paths[`/${SAMPLE}.Author`].post;
    assert.deepEqual(post["x-extent-roles"], []);
    assert.deepEqual(post.security, [{ bearer: ["(no role is granted this)"] }]);
    assert.deepEqual(document.paths[`/${SAMPLE}.Item/{key}`].get["x-extent-roles"], []);
  } finally {
    strict.close();
  }
});
