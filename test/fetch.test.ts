/**
 * Fetch plans over HTTP (contract section 4): fetch groups (default, all, named, unknown) and
 * maxFetchDepth (default 1, n, -1 unlimited with cycles cut, invalid values), and identity
 * stubs that always carry the runtime class. Model: test/models/fetch/package.jdo.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { execFile } from "node:child_process";
import { startHarness, type Harness, type Reply } from "./support/harness.ts";

const MODEL = readFileSync(new URL("./models/fetch/package.jdo", import.meta.url), "utf8");
const PKG = "org.test.fetch";
const cls = (name: string) => `${PKG}.${name}`;
const path = (c: string, key?: unknown, query = "") =>
  `/${PKG}.${c}${key === undefined ? "" : `/${encodeURIComponent(String(key))}`}${query ? `?${query}` : ""}`;

function expectStatus(r: Reply, status: number): void {
  assert.equal(r.status, status, `expected ${status}, got ${r.status}: ${r.text}`);
}

async function created(h: Harness, c: string, body: unknown): Promise<any> {
  const r = await h.post(path(c), body);
  expectStatus(r, 201);
  return r.body;
}

async function get(h: Harness, c: string, key: unknown, query = ""): Promise<any> {
  const r = await h.get(path(c, key, query));
  expectStatus(r, 200);
  return r.body;
}

function assertProblem(r: Reply, status: number): void {
  expectStatus(r, status);
  assert.match(r.headers.get("content-type") ?? "", /^application\/problem\+json/);
  assert.equal(r.body.status, status);
  assert.equal(typeof r.body.detail, "string");
}

/** Runs an ESM script (tsx available) in a child process with 256 MB of heap and a time limit. */
function runIsolated(script: string, timeoutMs: number): Promise<{ stdout: string; error?: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--max-old-space-size=256", "--import", "tsx", "--input-type=module", "-e", script],
      { cwd: new URL("..", import.meta.url), timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, killSignal: "SIGKILL" },
      (error, stdout, stderr) => {
        if (!error) return resolve({ stdout });
        const why = error.killed ? `killed after ${timeoutMs} ms` : `exit ${error.code ?? error.signal}`;
        resolve({
          stdout,
          error: `${why}; stderr: ${stderr
            .split("\n")
            .filter((l) => /error|heap/i.test(l))
            .slice(0, 3)
            .join(" | ")}`,
        });
      },
    );
  });
}

// Stubs: identity only, with the runtime class.
const agentStub = (id: number) => ({ class: cls("LiteraryAgent"), _id: id });
const authorStub = (id: number) => ({ class: cls("Author"), _id: id });
const bookStub = (isbn: string) => ({ class: cls("Book"), isbn });
const publisherStub = (id: number) => ({ class: cls("Publisher"), _id: id });

let h: Harness;
/** Ids of the data set built in `before`. */
const ids = { pubAgent: 0, authorAgent: 0, plainAgent: 0, publisher: 0, ann: 0, bob: 0 };

before(async () => {
  h = await startHarness({ metadata: [{ source: "fetch/package.jdo", text: MODEL }] });
  // Books b1 -> b2 -> b3 (sequels), all by Ann; c1 <-> c2 a cycle of sequels.
  await created(h, "Book", { isbn: "b3", title: "Three" });
  await created(h, "Book", { isbn: "b2", title: "Two", sequel: { isbn: "b3" } });
  await created(h, "Book", { isbn: "b1", title: "One", sequel: { isbn: "b2" } });
  const publisher = await created(h, "Publisher", { name: "Pub", agent: { class: cls("LiteraryAgent"), name: "pa", agency: "Agency X" } });
  ids.publisher = publisher._id;
  ids.pubAgent = publisher.agent._id;
  const ann = await created(h, "Author", {
    name: "Ann",
    born: 1950,
    biography: "A long life.",
    publisher: { _id: ids.publisher },
    agent: { class: cls("LiteraryAgent"), name: "ag", agency: "Agency Y" },
    books: [{ isbn: "b1" }, { isbn: "b2" }, { isbn: "b3" }],
  });
  ids.ann = ann._id;
  ids.authorAgent = ann.agent._id;
  const bob = await created(h, "Author", { name: "Bob", born: 1960, agent: { name: "plain" } });
  ids.bob = bob._id;
  ids.plainAgent = bob.agent._id;
  await created(h, "Book", { isbn: "c1", title: "Cycle one", sequel: { isbn: "c2", title: "Cycle two" } });
  expectStatus(await h.put(path("Book", "c2"), { sequel: { isbn: "c1" } }), 200);
});
after(() => h.close());

describe("fetch groups", () => {
  test("default: basic fields of the default group, to-one in the default group nested, other to-one as a stub, to-many absent", async () => {
    const ann = await get(h, "Author", ids.ann);
    assert.deepEqual(ann, {
      class: cls("Author"),
      _id: ids.ann,
      name: "Ann",
      born: 1950,
      publisher: { class: cls("Publisher"), _id: ids.publisher, name: "Pub", agent: agentStub(ids.pubAgent) },
      agent: agentStub(ids.authorAgent),
    });
  });

  test('default: a field marked default-fetch-group="false" is absent', async () => {
    const ann = await get(h, "Author", ids.ann);
    assert.ok(!("biography" in ann));
  });

  test("default: a to-many relation outside the plan is absent, not an empty array", async () => {
    const ann = await get(h, "Author", ids.ann);
    assert.ok(!("books" in ann), JSON.stringify(ann));
  });

  test("default: a to-one reference outside the plan is written as its identity only", async () => {
    const b1 = await get(h, "Book", "b1");
    assert.deepEqual(b1, { class: cls("Book"), isbn: "b1", title: "One", author: authorStub(ids.ann), sequel: bookStub("b2") });
  });

  test("fetchGroup=default is the same as no fetchGroup", async () => {
    assert.deepEqual(await get(h, "Author", ids.ann, "fetchGroup=default"), await get(h, "Author", ids.ann));
  });

  test("fetchGroup=all: every field, relations nested", async () => {
    const ann = await get(h, "Author", ids.ann, "fetchGroup=all");
    assert.deepEqual(ann, {
      class: cls("Author"),
      _id: ids.ann,
      name: "Ann",
      born: 1950,
      biography: "A long life.",
      publisher: { class: cls("Publisher"), _id: ids.publisher, name: "Pub", agent: agentStub(ids.pubAgent) },
      agent: { class: cls("LiteraryAgent"), _id: ids.authorAgent, name: "ag", agency: "Agency Y" },
      books: [
        { class: cls("Book"), isbn: "b1", title: "One", author: authorStub(ids.ann), sequel: bookStub("b2") },
        { class: cls("Book"), isbn: "b2", title: "Two", author: authorStub(ids.ann), sequel: bookStub("b3") },
        { class: cls("Book"), isbn: "b3", title: "Three", author: authorStub(ids.ann), sequel: null },
      ],
    });
  });

  test("fetchGroup=all on the extent applies to every object", async () => {
    const r = await h.get(path("Author", undefined, "fetchGroup=all"));
    expectStatus(r, 200);
    const bob = r.body.find((a: any) => a._id === ids.bob);
    assert.deepEqual(bob, {
      class: cls("Author"),
      _id: ids.bob,
      name: "Bob",
      born: 1960,
      biography: null,
      publisher: null,
      agent: { class: cls("Agent"), _id: ids.plainAgent, name: "plain" },
      books: [],
    });
    const ann = r.body.find((a: any) => a._id === ids.ann);
    assert.deepEqual(
      ann.books.map((b: any) => b.isbn),
      ["b1", "b2", "b3"],
    );
    assert.equal(ann.biography, "A long life.");
  });

  test("a named group adds its fields to the default group", async () => {
    const ann = await get(h, "Author", ids.ann, "fetchGroup=withBooks");
    assert.deepEqual(Object.keys(ann).sort(), ["_id", "agent", "books", "born", "class", "name", "publisher"]);
    assert.deepEqual(
      ann.books.map((b: any) => [b.isbn, b.title]),
      [
        ["b1", "One"],
        ["b2", "Two"],
        ["b3", "Three"],
      ],
    );
    assert.deepEqual(ann.agent, agentStub(ids.authorAgent), "a to-one outside the group stays a stub");
  });

  test("a named group with a basic field", async () => {
    const ann = await get(h, "Author", ids.ann, "fetchGroup=bio");
    assert.equal(ann.biography, "A long life.");
    assert.ok(!("books" in ann));
  });

  test("a named group that includes other groups", async () => {
    const ann = await get(h, "Author", ids.ann, "fetchGroup=everything");
    assert.equal(ann.biography, "A long life.");
    assert.equal(ann.books.length, 3);
    assert.deepEqual(ann.agent, { class: cls("LiteraryAgent"), _id: ids.authorAgent, name: "ag", agency: "Agency Y" });
  });

  test("a named group of another class: the related class's group applies to it", async () => {
    const b1 = await get(h, "Book", "b1", "fetchGroup=withAuthor");
    assert.deepEqual(b1.author, {
      class: cls("Author"),
      _id: ids.ann,
      name: "Ann",
      born: 1950,
      publisher: publisherStub(ids.publisher),
      agent: agentStub(ids.authorAgent),
    });
    assert.deepEqual(b1.sequel, bookStub("b2"));
  });

  test("an unknown fetch group → 400 problem", async () => {
    assertProblem(await h.get(path("Author", ids.ann, "fetchGroup=nope")), 400);
  });

  test("an unknown fetch group on the extent → 400 problem", async () => {
    assertProblem(await h.get(path("Author", undefined, "fetchGroup=nope")), 400);
  });
});

describe("maxFetchDepth", () => {
  test("default depth 1: related objects nested, their relations as identity stubs", async () => {
    const b1 = await get(h, "Book", "b1", "fetchGroup=all");
    assert.deepEqual(b1, {
      class: cls("Book"),
      isbn: "b1",
      title: "One",
      author: {
        class: cls("Author"),
        _id: ids.ann,
        name: "Ann",
        born: 1950,
        biography: "A long life.",
        publisher: publisherStub(ids.publisher),
        agent: agentStub(ids.authorAgent),
        books: [bookStub("b1"), bookStub("b2"), bookStub("b3")],
      },
      sequel: { class: cls("Book"), isbn: "b2", title: "Two", author: authorStub(ids.ann), sequel: bookStub("b3") },
    });
  });

  test("maxFetchDepth=1 is the default", async () => {
    assert.deepEqual(await get(h, "Book", "b1", "fetchGroup=all&maxFetchDepth=1"), await get(h, "Book", "b1", "fetchGroup=all"));
  });

  test("maxFetchDepth=2: two levels nested, the third as stubs", async () => {
    const b1 = await get(h, "Book", "b1", "fetchGroup=all&maxFetchDepth=2");
    assert.deepEqual(b1, {
      class: cls("Book"),
      isbn: "b1",
      title: "One",
      author: {
        class: cls("Author"),
        _id: ids.ann,
        name: "Ann",
        born: 1950,
        biography: "A long life.",
        publisher: { class: cls("Publisher"), _id: ids.publisher, name: "Pub", agent: agentStub(ids.pubAgent) },
        agent: { class: cls("LiteraryAgent"), _id: ids.authorAgent, name: "ag", agency: "Agency Y" },
        books: [
          bookStub("b1"), // b1 is on the path being written: a cycle, cut
          { class: cls("Book"), isbn: "b2", title: "Two", author: authorStub(ids.ann), sequel: bookStub("b3") },
          { class: cls("Book"), isbn: "b3", title: "Three", author: authorStub(ids.ann), sequel: null },
        ],
      },
      sequel: {
        class: cls("Book"),
        isbn: "b2",
        title: "Two",
        author: {
          class: cls("Author"),
          _id: ids.ann,
          name: "Ann",
          born: 1950,
          biography: "A long life.",
          publisher: publisherStub(ids.publisher),
          agent: agentStub(ids.authorAgent),
          books: [bookStub("b1"), bookStub("b2"), bookStub("b3")],
        },
        sequel: { class: cls("Book"), isbn: "b3", title: "Three", author: authorStub(ids.ann), sequel: null },
      },
    });
  });

  test("maxFetchDepth=2: an object reached at level 2 has its own relations as stubs", async () => {
    const b1 = await get(h, "Book", "b1", "fetchGroup=all&maxFetchDepth=2");
    // b1.sequel (b2, level 1) -> author (Ann, level 2): nested, with Ann's relations as stubs.
    assert.deepEqual(b1.sequel.author, {
      class: cls("Author"),
      _id: ids.ann,
      name: "Ann",
      born: 1950,
      biography: "A long life.",
      publisher: publisherStub(ids.publisher),
      agent: agentStub(ids.authorAgent),
      books: [bookStub("b1"), bookStub("b2"), bookStub("b3")],
    });
  });

  test("an object reached along two paths (no cycle) is nested on both", async () => {
    const ann = await get(h, "Author", ids.ann, "fetchGroup=all&maxFetchDepth=2");
    // b1.sequel is b2 and b2 is also in the list: both places show b2 with its fields.
    const [b1, b2] = ann.books;
    assert.equal(b2.title, "Two");
    assert.equal(b1.sequel.title, "Two");
    assert.deepEqual(b1.sequel.sequel, bookStub("b3"));
  });

  test("maxFetchDepth=-1 follows a chain to its end", async () => {
    const b1 = await get(h, "Book", "b1", "fetchGroup=all&maxFetchDepth=-1");
    assert.equal(b1.sequel.title, "Two");
    assert.equal(b1.sequel.sequel.title, "Three");
    assert.equal(b1.sequel.sequel.sequel, null);
    assert.deepEqual(b1.author.publisher.agent, { class: cls("LiteraryAgent"), _id: ids.pubAgent, name: "pa", agency: "Agency X" });
  });

  test("maxFetchDepth=-1 on a cycle A→B→A: the repeat is an identity stub", async () => {
    const c1 = await get(h, "Book", "c1", "fetchGroup=all&maxFetchDepth=-1");
    assert.deepEqual(c1, {
      class: cls("Book"),
      isbn: "c1",
      title: "Cycle one",
      author: null,
      sequel: { class: cls("Book"), isbn: "c2", title: "Cycle two", author: null, sequel: bookStub("c1") },
    });
  });

  test("maxFetchDepth=-1 on a cycle through an inverse collection: Author→books→author is cut", async () => {
    const ann = await get(h, "Author", ids.ann, "fetchGroup=all&maxFetchDepth=-1");
    for (const b of ann.books) assert.deepEqual(b.author, authorStub(ids.ann));
    assert.equal(ann.books[0].sequel.title, "Two");
  });

  test("maxFetchDepth=-1 on the extent: every object's output is finite", async () => {
    const r = await h.get(path("Book", undefined, "fetchGroup=all&maxFetchDepth=-1"));
    expectStatus(r, 200);
    const c2 = r.body.find((b: any) => b.isbn === "c2");
    assert.deepEqual(c2, {
      class: cls("Book"),
      isbn: "c2",
      title: "Cycle two",
      author: null,
      sequel: { class: cls("Book"), isbn: "c1", title: "Cycle one", author: null, sequel: bookStub("c2") },
    });
    assert.ok(r.text.length < 20_000, "no runaway output");
  });

  test("with no cap (limits.maxFetchDepth -1), a large maxFetchDepth (50) is answered, like unlimited on a finite graph", async () => {
    // Run in a child process with a memory cap and a time limit: a plan that grows with the depth
    // must fail this test, not take the whole test process down.
    const harness = new URL("./support/harness.ts", import.meta.url).href;
    const script = `
      import { startHarness } from ${JSON.stringify(harness)};
      const h = await startHarness({ metadata: [{ source: "fetch/package.jdo", text: ${JSON.stringify(MODEL)} }], limits: { maxFetchDepth: -1 } });
      const P = "/${PKG}.";
      await h.post(P + "Book", { isbn: "c1", title: "Cycle one", sequel: { isbn: "c2", title: "Cycle two" } });
      await h.put(P + "Book/c2", { sequel: { isbn: "c1" } });
      const deep = await h.get(P + "Book/c1?fetchGroup=all&maxFetchDepth=50");
      const unlimited = await h.get(P + "Book/c1?fetchGroup=all&maxFetchDepth=-1");
      process.stdout.write(JSON.stringify({ deep: [deep.status, deep.body], unlimited: [unlimited.status, unlimited.body] }));
      h.close();
    `;
    const out = await runIsolated(script, 15_000);
    assert.equal(out.error, undefined, `GET ...?maxFetchDepth=50 did not answer: ${out.error}`);
    const { deep, unlimited } = JSON.parse(out.stdout);
    assert.equal(deep[0], 200);
    assert.deepEqual(deep[1], unlimited[1]);
  });

  for (const bad of ["0", "-2", "1.5", "abc", ""]) {
    test(`maxFetchDepth=${JSON.stringify(bad)} → 400 problem`, async () => {
      assertProblem(await h.get(path("Book", "b1", `maxFetchDepth=${encodeURIComponent(bad)}`)), 400);
    });
  }

  test("an invalid maxFetchDepth on the extent → 400 problem", async () => {
    assertProblem(await h.get(path("Book", undefined, "maxFetchDepth=0")), 400);
  });
});

describe("identity stubs carry the runtime class", () => {
  test("a to-one outside the plan whose declared type is a base class: stub with the subclass", async () => {
    const ann = await get(h, "Author", ids.ann);
    assert.equal(ann.agent.class, cls("LiteraryAgent"));
  });

  test("a to-one outside the plan whose object is of the declared class: stub with that class", async () => {
    const bob = await get(h, "Author", ids.bob);
    assert.deepEqual(bob.agent, { class: cls("Agent"), _id: ids.plainAgent });
  });

  test("a stub beyond the fetch depth carries the subclass", async () => {
    const ann = await get(h, "Author", ids.ann);
    assert.deepEqual(ann.publisher.agent, agentStub(ids.pubAgent));
  });

  test("stubs in the extent carry each object's runtime class", async () => {
    const r = await h.get(path("Author"));
    expectStatus(r, 200);
    const byId = Object.fromEntries(r.body.map((a: any) => [a._id, a]));
    assert.equal(byId[ids.ann].agent.class, cls("LiteraryAgent"));
    assert.equal(byId[ids.bob].agent.class, cls("Agent"));
  });

  test("a nested object of a subclass is written with its own fields", async () => {
    const r = await h.get(path("Agent", undefined, "fetchGroup=all"));
    expectStatus(r, 200);
    const byId = Object.fromEntries(r.body.map((a: any) => [a._id, a]));
    assert.deepEqual(byId[ids.pubAgent], { class: cls("LiteraryAgent"), _id: ids.pubAgent, name: "pa", agency: "Agency X" });
    assert.deepEqual(byId[ids.plainAgent], { class: cls("Agent"), _id: ids.plainAgent, name: "plain" });
  });
});
