/**
 * The sample model exists in every metadata form: JDO XML (schema/jdo), JPA orm.xml (schema/jpa),
 * JDO-decorated and JPA-decorated classes (schema/ts), JDO- and JPA-annotated Java sources
 * (schema/java, schema/java-jpa: Maven layouts). All six must give the same normalized
 * model and the same answers to the same requests: the forms are front ends of one model.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { PersistenceContext } from "../src/config/context.ts";
import { resolveContext } from "../src/config/resolve-context.ts";
import { loadModel } from "../src/config/load-model.ts";
import { resolve as resolvePath } from "node:path";
import { readJavaModel } from "../src/runtime/java-sources.ts";
import { loadConfigDir } from "../src/runtime/load-config-dir.ts";
import { seedIfEmpty } from "../src/runtime/seed.ts";
import { sampleClasses as jdoClasses } from "../schema/ts/jdo-model.ts";
import { sampleClasses as jpaClasses } from "../schema/ts/jpa-model.ts";
import { canonical } from "./support/canonical-model.ts";
import { startHarness } from "./support/harness.ts";

type Form = { name: string; context: () => Promise<Pick<PersistenceContext, "metadata" | "classes" | "documents" | "jpaClasses">> };

const xmlForm = (dir: string) => async () => {
  const { context, problems } = resolveContext(await loadConfigDir(new URL(`../schema/${dir}`, import.meta.url).pathname), "sample");
  assert.deepEqual(problems, []);
  return { metadata: context.metadata };
};

/** The Java form: a Maven layout whose src/main/resources holds persistence.xml, the classes beside it. */
const javaForm = (project: string) => async () => {
  const dir = new URL(`../schema/${project}/src/main/resources`, import.meta.url).pathname;
  const { context, problems, java } = resolveContext(await loadConfigDir(dir), "sample", dir);
  assert.deepEqual(problems, []);
  const read = await readJavaModel(
    (java?.folders ?? []).map((f) => resolvePath(dir, f)),
    { metadata: context.metadata },
  );
  assert.deepEqual(read.problems, []);
  return { metadata: context.metadata, documents: read.documents, jpaClasses: read.jpaClasses };
};

const FORMS: Form[] = [
  { name: "JDO XML", context: xmlForm("jdo") },
  { name: "JPA orm.xml", context: xmlForm("jpa") },
  { name: "JDO decorators", context: async () => ({ classes: jdoClasses }) },
  { name: "JPA decorators", context: async () => ({ classes: jpaClasses }) },
  { name: "JDO-annotated Java sources", context: javaForm("java") },
  { name: "JPA-annotated Java sources", context: javaForm("java-jpa") },
];

test("the six forms of the sample give one normalized model", async () => {
  const [reference, ...others] = await Promise.all(FORMS.map(async (f) => canonical(loadModel(await f.context()))));
  for (const [i, model] of others.entries()) assert.deepEqual(model, reference, `${FORMS[i + 1]!.name} differs from ${FORMS[0]!.name}`);
});

/** One script of requests, reads and writes of every kind; answers are compared across forms. */
const SCRIPT: [method: string, path: string, body?: unknown][] = [
  ["GET", "/org.extent.sample.Item"],
  ["GET", "/org.extent.sample.Book?fetchGroup=all&maxFetchDepth=2"],
  ["GET", "/org.extent.sample.Author/1?fetchGroup=all"],
  ["GET", "/org.extent.sample.Item/1?fetchGroup=withAuthor"],
  ["GET", `/org.extent.sample.Category/${encodeURIComponent(JSON.stringify({ id: 2, kind: "genre", parent: { id: 1, kind: "genre" } }))}`],
  ["POST", "/org.extent.sample.Magazine", { title: "New Scientist", issue: 7, tags: ["weekly"] }],
  ["POST", "/org.extent.sample.Item", { title: "no class" }],
  [
    "POST",
    "/org.extent.sample.Author",
    {
      name: "Stanisław Lem",
      born: "1921-09-12",
      address: { city: "Kraków" },
      works: [{ class: "org.extent.sample.Book", title: "Solaris", genre: "FICTION", pages: 204 }],
    },
  ],
  ["POST", "/org.extent.sample.Author", { born: "1921-09-12" }],
  ["PUT", "/org.extent.sample.Book/1", { pages: 400, _version: 1 }],
  [
    "POST",
    "/org.extent.sample.Shelf",
    {
      label: "new",
      items: [
        { class: "org.extent.sample.Book", id: 2 },
        { class: "org.extent.sample.Magazine", id: 5 },
      ],
    },
  ],
  [
    "POST",
    "/org.extent.sample.Member",
    { email: "ann@example.org", name: "Ann", phones: { home: "123" }, borrowed: [{ class: "org.extent.sample.Book", id: 1 }] },
  ],
  ["POST", "/org.extent.sample.Member", { email: "ann@example.org", name: "Ann again" }],
  ["GET", "/org.extent.sample.Member/ann@example.org?fetchGroup=all"],
  ["GET", "/org.extent.sample.Book?filter=" + encodeURIComponent("genre == 'FICTION' && pages > 200")],
  ["GET", "/jdoql?query=" + encodeURIComponent("SELECT title FROM org.extent.sample.Item WHERE author.name.startsWith('Ursula') ORDER BY title")],
  ["GET", "/jpql?query=" + encodeURIComponent("SELECT a.name, COUNT(w) FROM Author a JOIN a.works w GROUP BY a.name ORDER BY a.name")],
  ["GET", "/jpql?query=" + encodeURIComponent("SELECT i FROM Item i WHERE TYPE(i) = Magazine")],
  ["DELETE", "/org.extent.sample.Member/ann@example.org"],
  ["GET", "/org.extent.sample.Member/ann@example.org"],
];

const SCRIPT_STATUSES = [200, 200, 200, 200, 200, 201, 400, 201, 422, 200, 201, 201, 409, 200, 200, 200, 200, 200, 204, 404];

test("the six forms answer the same requests the same way", async () => {
  const data = JSON.parse(readFileSync(new URL("../schema/sample-data.json", import.meta.url), "utf8"));
  const transcripts: string[][] = [];
  for (const form of FORMS) {
    const h = await startHarness(await form.context());
    try {
      const fetch = async (r: Request) => {
        const reply = await h.call(r.method, new URL(r.url).pathname, r.method === "POST" ? JSON.parse(await r.text()) : undefined);
        return new Response(reply.text || null, { status: reply.status, headers: reply.headers });
      };
      assert.equal(await seedIfEmpty({ fetch }, data), 5, form.name);
      const transcript: string[] = [];
      for (const [method, path, body] of SCRIPT) {
        const reply = await h.call(method, path, body);
        // Generated UUID keys differ from run to run; their shape is what must agree.
        const answer = JSON.stringify(canonical(reply.body ?? null)).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>");
        transcript.push(`${method} ${path} → ${reply.status} ${answer}`);
      }
      transcripts.push(transcript);
    } finally {
      h.close();
    }
  }
  const [reference, ...others] = transcripts;
  // The script exercises successes and refusals alike, or agreeing would prove little.
  const statuses = reference!.map((line) => Number(/→ (\d+)/.exec(line)![1]));
  assert.deepEqual(statuses, SCRIPT_STATUSES);
  for (const [i, t] of others.entries()) {
    for (const [j, line] of t.entries()) assert.equal(line, reference![j], `${FORMS[i + 1]!.name}, request ${j + 1}`);
  }
});
