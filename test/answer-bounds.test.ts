/**
 * Bounds on what one request may make the server build (contract §6): an answer past `answerBytes`
 * is a 400 naming the limit and how to ask for less, refused while it is being written (in SQL
 * where SQL writes it, in the serializer otherwise, by a row cap for projected rows), and a query
 * past `requestTimeMs` is stopped where it runs and answers 503, while other requests go on.
 *
 * The graph is dense: 8 employees on each of 5 projects (many-to-many), so a fetch plan nests
 * 40 objects a level and grows 40-fold with each level of depth.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { defineModel } from "../src/index.ts";
import { jsonSelectRefusal } from "../src/read/json-select.ts";
import { assertProblem, unchanged } from "./support/assertions.ts";
import { type Harness, type Reply, startHarness } from "./support/harness.ts";

const PKG = "org.test.bounds";
const EMPLOYEE = `${PKG}.Employee`;
const PROJECT = `${PKG}.Project`;
const q = encodeURIComponent;

const model = defineModel({
  package: PKG,
  classes: {
    Employee: {
      identityType: "application",
      fields: { id: { type: "long", primaryKey: true }, name: "String", projects: { elementType: "Project", mappedBy: "members" } },
    },
    Project: {
      identityType: "application",
      fields: { id: { type: "long", primaryKey: true }, name: "String", members: { elementType: "Employee", joinTable: "PROJECT_MEMBERS" } },
    },
  },
});

const ANSWER_BYTES = 256 * 1024;
const TIME_MS = 400;

describe("one request cannot make the server build too much, or hold it too long", () => {
  let h: Harness;

  before(async () => {
    h = await startHarness({ models: [model], limits: { answerBytes: ANSWER_BYTES, requestTimeMs: TIME_MS } });
    const members = Array.from({ length: 8 }, (_, i) => ({ id: i + 1, name: `employee ${i + 1}` }));
    assert.equal((await h.post(`/${PROJECT}`, { id: 100, name: "project 100", members })).status, 201);
    for (let p = 101; p < 105; p++) {
      assert.equal((await h.post(`/${PROJECT}`, { id: p, name: `project ${p}`, members: members.map((m) => ({ id: m.id })) })).status, 201);
    }
  });
  after(() => h.close());

  const tooLarge = (r: Reply, limit = ANSWER_BYTES) => assertProblem(r, 400, new RegExp(`limit answerBytes: ${limit} bytes.*maxFetchDepth`));

  /** Runs `request` and measures how long it took. */
  async function timed<T>(request: () => Promise<T>): Promise<{ r: T; ms: number }> {
    const started = performance.now();
    const r = await request();
    return { r, ms: performance.now() - started };
  }

  test("a deep fetch plan over a dense graph is refused as it grows, by key, as an extent and as a query", async () => {
    for (const path of [
      `/${PROJECT}/100?fetchGroup=all&maxFetchDepth=9`,
      `/${PROJECT}/100?fetchGroup=all&maxFetchDepth=-1`,
      `/${PROJECT}?fetchGroup=all&maxFetchDepth=9`,
      `/${EMPLOYEE}?fetchGroup=all&maxFetchDepth=8`,
      `/jdoql?query=${q(`SELECT FROM ${PROJECT} WHERE id >= 100`)}&fetchGroup=all&maxFetchDepth=9`,
      `/jpql?query=${q("SELECT p FROM Project p")}&fetchGroup=all&maxFetchDepth=7`,
    ]) {
      const { r, ms } = await timed(() => h.get(path));
      tooLarge(r);
      assert.ok(ms < TIME_MS * 2, `${path}: answered after ${ms.toFixed(0)} ms`);
    }
  });

  test("where SQL writes the answer, SQL refuses it: a collection's text past the limit stops the statement", async () => {
    // Depth 2 (about 22 KB) is written by one JSON select, not the object path.
    assert.equal(jsonSelectRefusal(h.model, h.model.classes.get(PROJECT)!, { kind: "keys" }, { groups: ["all"], maxDepth: 2 }), undefined);
    const small = await startHarness({ models: [model], url: h.url, limits: { answerBytes: 8 * 1024 } });
    try {
      tooLarge(await small.get(`/${PROJECT}/100?fetchGroup=all&maxFetchDepth=2`), 8 * 1024);
      tooLarge(await small.get(`/${PROJECT}?fetchGroup=all&maxFetchDepth=2`), 8 * 1024);
      // Less is answered.
      const one = await small.get(`/${PROJECT}/100?fetchGroup=all&maxFetchDepth=1`);
      assert.equal(one.status, 200);
      assert.equal(one.body.members.length, 8);
    } finally {
      small.close();
    }
  });

  test("projected rows past what answerBytes holds are refused after reading one more than that, not all of them", async () => {
    const vars = Array.from({ length: 8 }, (_, i) => `Employee v${i}`).join(", ");
    const ids = Array.from({ length: 8 }, (_, i) => `v${i}.id`).join(", ");
    // 8^8 = 16.7 million rows.
    const { r, ms } = await timed(() => h.get(`/jpql?query=${q(`SELECT ${ids} FROM ${vars}`)}`));
    tooLarge(r);
    assert.ok(ms < TIME_MS * 2, `answered after ${ms.toFixed(0)} ms`);
    // A range asks for less, and gets it.
    const ranged = await h.get(`/jdoql?query=${q(`SELECT a.id, b.id FROM ${EMPLOYEE} VARIABLES ${EMPLOYEE} a; ${EMPLOYEE} b RANGE 0, 10`)}`);
    assert.equal(ranged.status, 200, ranged.text);
    assert.equal(ranged.body.length, 10);
  });

  test("a query past requestTimeMs is stopped where it runs (503 with Retry-After), while a GET by key is answered at once", async () => {
    const vars = Array.from({ length: 10 }, (_, i) => `Employee v${i}`).join(", ");
    const started = performance.now();
    const slow = h.get(`/jpql?query=${q(`SELECT COUNT(v0) FROM ${vars}`)}`);
    const waits: number[] = [];
    while (performance.now() - started < TIME_MS - 100) {
      const { r, ms } = await timed(() => h.get(`/${EMPLOYEE}/3`));
      assert.equal(r.status, 200);
      waits.push(ms);
      // As requests arriving over a network: the event loop turns between them.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const r = await slow;
    const ms = performance.now() - started;
    assertProblem(r, 503, /limit requestTimeMs: 400 ms/);
    assert.equal(r.headers.get("retry-after"), "1");
    assert.ok(ms < TIME_MS + 300, `the query answered after ${ms.toFixed(0)} ms`);
    assert.ok(Math.max(...waits) < 100, `a GET by key waited ${Math.max(...waits).toFixed(0)} ms`);
  });

  test("a write whose answer would be too large is refused and writes nothing", async () => {
    // Too deep for one statement: refused before the write.
    const deep = await unchanged(h, () => h.put(`/${PROJECT}/100?fetchGroup=all&maxFetchDepth=9`, { name: "renamed" }));
    assertProblem(deep, 400, /too large to read back in one statement.*nothing was changed/);
    // Written by SQL but past answerBytes: the batch stops, the write with it.
    const small = await startHarness({ models: [model], url: h.url, limits: { answerBytes: 8 * 1024 } });
    try {
      tooLarge(await unchanged(small, () => small.put(`/${PROJECT}/100?fetchGroup=all&maxFetchDepth=2`, { name: "renamed" })), 8 * 1024);
      const ok = await small.put(`/${PROJECT}/100?fetchGroup=all&maxFetchDepth=1`, { name: "renamed" });
      assert.equal(ok.status, 200, ok.text);
      assert.equal(ok.body.name, "renamed");
    } finally {
      small.close();
    }
  });

  test("a refused answer changes nothing, and the server answers the next request", async () => {
    await unchanged(h, async () => {
      tooLarge(await h.get(`/${PROJECT}/100?fetchGroup=all&maxFetchDepth=9`));
      return h.get(`/${PROJECT}/100?fetchGroup=all&maxFetchDepth=9`);
    });
    assert.equal((await h.get(`/${PROJECT}/101`)).status, 200);
  });
});

test("answerBytes is a limit like the others: code, property, flag; 400 beyond it", async () => {
  const { parseServeArgs } = await import("../src/cli/args.ts");
  const cli = parseServeArgs(["--config", "c", "--persistence-context", "p", "--limit-answer-bytes", "1048576"]);
  assert.ok(cli.ok);
  assert.deepEqual(cli.options.limits, { answerBytes: 1048576 });
  const h = await startHarness({ models: [model], limits: { answerBytes: 100 } });
  try {
    assert.equal((await h.post(`/${EMPLOYEE}`, { id: 1, name: "x".repeat(200) })).status, 201);
    assertProblem(await h.get(`/${EMPLOYEE}/1`), 400, /limit answerBytes: 100 bytes/);
    assertProblem(await h.get(`/${EMPLOYEE}`), 400, /limit answerBytes: 100 bytes/);
    assertProblem(await h.get(`/jdoql?query=${q(`SELECT name FROM ${EMPLOYEE}`)}`), 400, /limit answerBytes: 100 bytes/);
  } finally {
    h.close();
  }
});

test("answerBytes counts UTF-8 bytes where SQL writes the answer: a collection within the limit in characters but past it in bytes is refused", async () => {
  const h = await startHarness({ models: [model] });
  const limited = (answerBytes: number) => startHarness({ models: [model], url: h.url, limits: { answerBytes } });
  try {
    const members = Array.from({ length: 8 }, (_, i) => ({ id: i + 1, name: "é".repeat(40) }));
    assert.equal((await h.post(`/${PROJECT}`, { id: 1, name: "p", members })).status, 201);
    // The members' text is written by the JSON select's aggregate.
    const read = await h.get(`/${PROJECT}/1?fetchGroup=all`);
    assert.equal(read.status, 200, read.text);
    const bytes = new TextEncoder().encode(JSON.stringify(read.body.members)).length;
    // Past the whole answer in characters (so no count of characters refuses it), short of the list's bytes.
    const limit = Math.floor((read.text.length + bytes) / 2);
    assert.ok(read.text.length < limit && limit < bytes, `${read.text.length} < ${limit} < ${bytes}`);
    const bounded = await limited(limit);
    try {
      assertProblem(await bounded.get(`/${PROJECT}/1?fetchGroup=all`), 400, new RegExp(`limit answerBytes: ${limit} bytes`));
      assertProblem(await bounded.get(`/${PROJECT}?fetchGroup=all`), 400, new RegExp(`limit answerBytes: ${limit} bytes`));
    } finally {
      bounded.close();
    }
    // Within a limit of as many bytes as the whole answer, it is answered.
    const roomy = await limited(new TextEncoder().encode(read.text).length);
    try {
      assert.equal((await roomy.get(`/${PROJECT}/1?fetchGroup=all`)).status, 200);
    } finally {
      roomy.close();
    }
  } finally {
    h.close();
  }
});
