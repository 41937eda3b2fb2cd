/**
 * Identity over HTTP: datastore identity (native/increment, uuid-string), single-field application
 * identity (client-given and generated), composite keys, the seed's ancestor ("parent") keys, and
 * versioned classes. Model: test/models/identity/package.jdo.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Harness, type Reply, keySegment, startHarness } from "./support/harness.ts";

const MODEL_FILE = new URL("./models/identity/package.jdo", import.meta.url);
const MODEL = { metadata: [{ source: "test/models/identity/package.jdo", text: readFileSync(MODEL_FILE, "utf8") }] };
const PKG = "test.identity";
const KEY_CLASS_NODE = `${PKG}.NodeKey`;

/** `/{class}` or `/{class}/{key}` (plain values as text, composite keys as URL-encoded JSON). */
const at = (cls: string, key?: unknown) => `/${PKG}.${cls}` + (key === undefined ? "" : `/${keySegment(key)}`);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function expectStatus(r: Reply, status: number): void {
  assert.equal(r.status, status, `expected ${status}, got ${r.status}: ${r.text}`);
}

async function create(h: Harness, cls: string, body: unknown): Promise<Reply> {
  const r = await h.post(at(cls), body);
  expectStatus(r, 201);
  return r;
}

/** The Location header, checked to be present. */
function locationOf(r: Reply): string {
  const location = r.headers.get("location");
  assert.ok(location, "POST must answer with a Location header");
  return location;
}

let h: Harness;
before(async () => {
  h = await startHarness(MODEL);
});
after(() => h.close());

// ---------------------------------------------------------------------------------------------
// Datastore identity
// ---------------------------------------------------------------------------------------------

describe("datastore identity, default strategy (native)", () => {
  test("POST answers 201 with a numeric _id, the class and the fields", async () => {
    const r = await create(h, "DsDefault", { name: "first" });
    assert.equal(r.body.class, `${PKG}.DsDefault`);
    assert.equal(typeof r.body._id, "number");
    assert.ok(Number.isSafeInteger(r.body._id));
    assert.equal(r.body.name, "first");
  });

  test("Location names the new object by its _id and GET of it returns the object", async () => {
    const r = await create(h, "DsDefault", { name: "located" });
    const location = locationOf(r);
    assert.equal(location, at("DsDefault", r.body._id));
    const g = await h.get(location);
    expectStatus(g, 200);
    assert.deepEqual(g.body, r.body);
  });

  test("GET /{class}/{_id} returns the object with its _id", async () => {
    const r = await create(h, "DsDefault", { name: "by id" });
    const g = await h.get(at("DsDefault", r.body._id));
    expectStatus(g, 200);
    assert.equal(g.body._id, r.body._id);
    assert.equal(g.body.name, "by id");
    assert.equal(g.body.class, `${PKG}.DsDefault`);
  });

  test("generated _ids are distinct and ascending", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create(h, "DsDefault", { name: `n${i}` })).body._id);
    assert.ok(ids[0]! < ids[1]! && ids[1]! < ids[2]!, `ids ${ids}`);
  });

  test("the extent lists each object with its _id", async () => {
    const r = await create(h, "DsDefault", { name: "in extent" });
    const g = await h.get(at("DsDefault"));
    expectStatus(g, 200);
    assert.ok(Array.isArray(g.body));
    const found = g.body.find((o: any) => o._id === r.body._id);
    assert.deepEqual(found, r.body);
  });

  test("HEAD /{class}/{_id} is 200 for an existing object and 404 otherwise, without a body", async () => {
    const r = await create(h, "DsDefault", { name: "head" });
    const yes = await h.call("HEAD", at("DsDefault", r.body._id));
    expectStatus(yes, 200);
    assert.equal(yes.text, "");
    const no = await h.call("HEAD", at("DsDefault", 987654));
    expectStatus(no, 404);
    assert.equal(no.text, "");
  });

  test("PUT and DELETE address the object by its _id", async () => {
    const r = await create(h, "DsDefault", { name: "before" });
    const p = await h.put(at("DsDefault", r.body._id), { name: "after" });
    expectStatus(p, 200);
    assert.equal(p.body._id, r.body._id);
    assert.equal(p.body.name, "after");
    expectStatus(await h.del(at("DsDefault", r.body._id)), 204);
    expectStatus(await h.get(at("DsDefault", r.body._id)), 404);
  });
});

describe("datastore identity, increment strategy", () => {
  test("POST returns a numeric _id and GET by it returns the object", async () => {
    const r = await create(h, "DsIncrement", { name: "inc" });
    assert.ok(Number.isSafeInteger(r.body._id));
    assert.equal(locationOf(r), at("DsIncrement", r.body._id));
    const g = await h.get(at("DsIncrement", r.body._id));
    expectStatus(g, 200);
    assert.deepEqual(g.body, r.body);
  });

  test("generated _ids are ascending", async () => {
    const a = (await create(h, "DsIncrement", { name: "a" })).body._id;
    const b = (await create(h, "DsIncrement", { name: "b" })).body._id;
    assert.ok(a < b, `${a} < ${b}`);
  });
});

describe("datastore identity, uuid-string strategy", () => {
  test("POST returns a UUID string as _id", async () => {
    const r = await create(h, "DsUuid", { name: "u" });
    assert.equal(typeof r.body._id, "string");
    assert.match(r.body._id, UUID);
  });

  test("two objects get different UUIDs", async () => {
    const a = (await create(h, "DsUuid", { name: "a" })).body._id;
    const b = (await create(h, "DsUuid", { name: "b" })).body._id;
    assert.notEqual(a, b);
  });

  test("Location and GET /{class}/{uuid} find the object", async () => {
    const r = await create(h, "DsUuid", { name: "find me" });
    assert.equal(locationOf(r), at("DsUuid", r.body._id));
    const g = await h.get(at("DsUuid", r.body._id));
    expectStatus(g, 200);
    assert.deepEqual(g.body, r.body);
  });

  test("HEAD with an unknown UUID is 404", async () => {
    expectStatus(await h.call("HEAD", at("DsUuid", "00000000-0000-4000-8000-000000000000")), 404);
  });
});

// ---------------------------------------------------------------------------------------------
// Single-field application identity, client-given keys
// ---------------------------------------------------------------------------------------------

describe("application identity, client-given long key", () => {
  test("POST keeps the given key; Location is /{class}/{key}", async () => {
    const r = await create(h, "LongKey", { id: 42, name: "answer" });
    assert.deepEqual(r.body, { class: `${PKG}.LongKey`, id: 42, name: "answer" });
    assert.equal(locationOf(r), at("LongKey", 42));
  });

  test("GET /{class}/{key} returns the object", async () => {
    await create(h, "LongKey", { id: 43, name: "forty-three" });
    const g = await h.get(at("LongKey", 43));
    expectStatus(g, 200);
    assert.deepEqual(g.body, { class: `${PKG}.LongKey`, id: 43, name: "forty-three" });
  });

  test("a negative key works in the path", async () => {
    await create(h, "LongKey", { id: -7, name: "negative" });
    const g = await h.get(at("LongKey", -7));
    expectStatus(g, 200);
    assert.equal(g.body.id, -7);
  });

  test("POST of the same key twice is 409 and the first object is unchanged", async () => {
    await create(h, "LongKey", { id: 44, name: "original" });
    const again = await h.post(at("LongKey"), { id: 44, name: "impostor" });
    expectStatus(again, 409);
    assert.match(again.headers.get("content-type") ?? "", /^application\/problem\+json/);
    const g = await h.get(at("LongKey", 44));
    assert.equal(g.body.name, "original");
  });

  test("POST without the (not generated) key is 422 naming /id", async () => {
    const r = await h.post(at("LongKey"), { name: "keyless" });
    expectStatus(r, 422);
    assert.ok(
      r.body.errors.some((e: any) => e.path === "/id"),
      r.text,
    );
  });

  test("GET of an unknown key is 404", async () => {
    expectStatus(await h.get(at("LongKey", 999_999)), 404);
  });
});

describe("application identity, client-given String key", () => {
  test("POST and GET /{class}/{code}", async () => {
    const r = await create(h, "StringKey", { code: "abc", name: "letters" });
    assert.equal(r.body.code, "abc");
    assert.equal(locationOf(r), at("StringKey", "abc"));
    const g = await h.get(at("StringKey", "abc"));
    expectStatus(g, 200);
    assert.deepEqual(g.body, { class: `${PKG}.StringKey`, code: "abc", name: "letters" });
  });

  test("a key that looks like a number stays a string", async () => {
    await create(h, "StringKey", { code: "007", name: "bond" });
    const g = await h.get(at("StringKey", "007"));
    expectStatus(g, 200);
    assert.equal(g.body.code, "007");
  });

  test("a key with /, space, ?, #, % and non-ASCII characters round-trips through the path and Location", async () => {
    const code = "a/b c?d#e%f-ü€";
    const r = await create(h, "StringKey", { code, name: "odd" });
    const g = await h.get(at("StringKey", code));
    expectStatus(g, 200);
    assert.equal(g.body.code, code);
    const viaLocation = await h.get(locationOf(r));
    expectStatus(viaLocation, 200);
    assert.equal(viaLocation.body.code, code);
  });

  test("a plain String key that starts with { is found by GET (it is not a composite key)", async () => {
    const code = "{braced}";
    const r = await create(h, "StringKey", { code, name: "brace" });
    const g = await h.get(at("StringKey", code));
    expectStatus(g, 200);
    assert.equal(g.body.code, code);
    expectStatus(await h.get(locationOf(r)), 200);
  });

  test("a String key with leading and trailing spaces is found by GET (the key is not trimmed)", async () => {
    const code = " padded ";
    const r = await create(h, "StringKey", { code, name: "spaces" });
    const g = await h.get(at("StringKey", code));
    expectStatus(g, 200);
    assert.equal(g.body.code, code);
    expectStatus(await h.get(locationOf(r)), 200);
  });

  test("POST of the same String key twice is 409", async () => {
    await create(h, "StringKey", { code: "dup", name: "one" });
    expectStatus(await h.post(at("StringKey"), { code: "dup", name: "two" }), 409);
    assert.equal((await h.get(at("StringKey", "dup"))).body.name, "one");
  });
});

// ---------------------------------------------------------------------------------------------
// Single-field application identity, generated keys
// ---------------------------------------------------------------------------------------------

for (const [cls, strategy] of [
  ["IncrementKey", "increment"],
  ["IdentityKey", "identity"],
  ["NativeKey", "native"],
] as const) {
  describe(`application identity, value-strategy="${strategy}"`, () => {
    test("POST without a key returns a generated number", async () => {
      const r = await create(h, cls, { name: "gen" });
      assert.ok(Number.isSafeInteger(r.body.id), r.text);
      assert.equal(locationOf(r), at(cls, r.body.id));
      const g = await h.get(at(cls, r.body.id));
      expectStatus(g, 200);
      assert.deepEqual(g.body, r.body);
    });

    test("generated numbers ascend", async () => {
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) ids.push((await create(h, cls, { name: `n${i}` })).body.id);
      assert.ok(ids[0]! < ids[1]! && ids[1]! < ids[2]!, `ids ${ids}`);
    });

    test("a client-given value is accepted and later generated values do not collide with it", async () => {
      const last = (await create(h, cls, { name: "before" })).body.id as number;
      const given = last + 2; // the value the sequence would reach next-but-one
      const r = await create(h, cls, { id: given, name: "given" });
      assert.equal(r.body.id, given);
      const later: number[] = [];
      for (let i = 0; i < 3; i++) later.push((await create(h, cls, { name: `after${i}` })).body.id);
      assert.ok(!later.includes(given), `generated ${later} must not repeat ${given}`);
      assert.equal(new Set(later).size, 3);
      assert.equal((await h.get(at(cls, given))).body.name, "given");
    });

    test("a client-given value equal to an existing key is 409", async () => {
      const existing = (await create(h, cls, { name: "taken" })).body.id;
      expectStatus(await h.post(at(cls), { id: existing, name: "clash" }), 409);
      assert.equal((await h.get(at(cls, existing))).body.name, "taken");
    });
  });
}

test("generated numbers continue past stored keys after a restart on the same database", async () => {
  const dir = mkdtempSync(join(tmpdir(), "extent-identity-"));
  const url = `file:${join(dir, "restart.db")}`;
  try {
    const first = await startHarness({ ...MODEL, url });
    const a = (await create(first, "IncrementKey", { name: "a" })).body.id;
    const b = (await create(first, "IncrementKey", { id: a + 10, name: "b" })).body.id;
    first.close();
    const second = await startHarness({ ...MODEL, url });
    try {
      const c = await create(second, "IncrementKey", { name: "c" });
      assert.ok(c.body.id > b, `${c.body.id} > ${b}`);
      expectStatus(await second.get(at("IncrementKey", a)), 200);
    } finally {
      second.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('application identity, value-strategy="uuid-string"', () => {
  test("POST returns a UUID string key and GET finds it", async () => {
    const r = await create(h, "UuidStringKey", { name: "u" });
    assert.match(r.body.id, UUID);
    assert.equal(locationOf(r), at("UuidStringKey", r.body.id));
    const g = await h.get(at("UuidStringKey", r.body.id));
    expectStatus(g, 200);
    assert.deepEqual(g.body, r.body);
  });

  test("each object gets a different UUID", async () => {
    const a = (await create(h, "UuidStringKey", { name: "a" })).body.id;
    const b = (await create(h, "UuidStringKey", { name: "b" })).body.id;
    assert.notEqual(a, b);
  });
});

describe('application identity, value-strategy="uuid-hex"', () => {
  test("POST returns 32 hex characters and GET finds it", async () => {
    const r = await create(h, "UuidHexKey", { name: "x" });
    assert.match(r.body.id, /^[0-9a-fA-F]{32}$/);
    const g = await h.get(at("UuidHexKey", r.body.id));
    expectStatus(g, 200);
    assert.deepEqual(g.body, r.body);
    expectStatus(await h.get(locationOf(r)), 200);
  });

  test("each object gets a different value", async () => {
    const a = (await create(h, "UuidHexKey", { name: "a" })).body.id;
    const b = (await create(h, "UuidHexKey", { name: "b" })).body.id;
    assert.notEqual(a, b);
  });
});

// ---------------------------------------------------------------------------------------------
// Composite keys (objectid-class with two fields)
// ---------------------------------------------------------------------------------------------

describe("composite key (id long + kind String)", () => {
  test("POST answers the key fields; Location holds the key as URL-encoded JSON", async () => {
    const r = await create(h, "Part", { id: 1, kind: "bolt", label: "M6" });
    assert.deepEqual(r.body, { class: `${PKG}.Part`, id: 1, kind: "bolt", label: "M6" });
    const location = locationOf(r);
    assert.ok(location.startsWith(`/${PKG}.Part/`), location);
    const key = JSON.parse(decodeURIComponent(location.slice(`/${PKG}.Part/`.length)));
    assert.equal(key.id, 1);
    assert.equal(key.kind, "bolt");
    const g = await h.get(location);
    expectStatus(g, 200);
    assert.deepEqual(g.body, r.body);
  });

  test("GET /{class}/{JSON key} finds the object whatever the member order, with or without class", async () => {
    await create(h, "Part", { id: 2, kind: "nut", label: "M8" });
    for (const key of [
      { id: 2, kind: "nut" },
      { kind: "nut", id: 2 },
      { class: `${PKG}.PartKey`, id: 2, kind: "nut" },
    ]) {
      const g = await h.get(at("Part", key));
      expectStatus(g, 200);
      assert.deepEqual(g.body, { class: `${PKG}.Part`, id: 2, kind: "nut", label: "M8" });
    }
  });

  test("the same id with another kind is another object", async () => {
    await create(h, "Part", { id: 3, kind: "a", label: "A" });
    await create(h, "Part", { id: 3, kind: "b", label: "B" });
    assert.equal((await h.get(at("Part", { id: 3, kind: "a" }))).body.label, "A");
    assert.equal((await h.get(at("Part", { id: 3, kind: "b" }))).body.label, "B");
  });

  test("POST of the same composite key twice is 409", async () => {
    await create(h, "Part", { id: 4, kind: "x", label: "first" });
    expectStatus(await h.post(at("Part"), { id: 4, kind: "x", label: "second" }), 409);
    assert.equal((await h.get(at("Part", { id: 4, kind: "x" }))).body.label, "first");
  });

  test("GET of an unknown composite key is 404", async () => {
    expectStatus(await h.get(at("Part", { id: 999, kind: "none" })), 404);
  });

  test("PUT /{class}/{JSON key} changes only the fields sent", async () => {
    await create(h, "Part", { id: 5, kind: "p", label: "old" });
    const p = await h.put(at("Part", { id: 5, kind: "p" }), { label: "new" });
    expectStatus(p, 200);
    assert.deepEqual(p.body, { class: `${PKG}.Part`, id: 5, kind: "p", label: "new" });
    assert.equal((await h.get(at("Part", { id: 5, kind: "p" }))).body.label, "new");
  });

  test("PUT of an unknown composite key is 404 and creates nothing", async () => {
    expectStatus(await h.put(at("Part", { id: 998, kind: "ghost" }), { label: "x" }), 404);
    expectStatus(await h.get(at("Part", { id: 998, kind: "ghost" })), 404);
  });

  test("HEAD /{class}/{JSON key} is 200 when it exists and 404 when not", async () => {
    await create(h, "Part", { id: 6, kind: "h" });
    const yes = await h.call("HEAD", at("Part", { id: 6, kind: "h" }));
    expectStatus(yes, 200);
    assert.equal(yes.text, "");
    expectStatus(await h.call("HEAD", at("Part", { id: 6, kind: "other" })), 404);
  });

  test("DELETE /{class}/{JSON key} deletes that object only", async () => {
    await create(h, "Part", { id: 7, kind: "a" });
    await create(h, "Part", { id: 7, kind: "b" });
    expectStatus(await h.del(at("Part", { id: 7, kind: "a" })), 204);
    expectStatus(await h.get(at("Part", { id: 7, kind: "a" })), 404);
    expectStatus(await h.get(at("Part", { id: 7, kind: "b" })), 200);
  });

  test("DELETE /{class} with the key object as body deletes that one object only", async () => {
    await create(h, "Part", { id: 8, kind: "a" });
    await create(h, "Part", { id: 8, kind: "b" });
    expectStatus(await h.del(at("Part"), { id: 8, kind: "a" }), 204);
    expectStatus(await h.get(at("Part", { id: 8, kind: "a" })), 404);
    expectStatus(await h.get(at("Part", { id: 8, kind: "b" })), 200);
    const extent = await h.get(at("Part"));
    assert.ok(extent.body.length > 0, "the rest of the extent is still there");
  });

  test("DELETE of an unknown composite key is 404", async () => {
    expectStatus(await h.del(at("Part", { id: 997, kind: "none" })), 404);
    expectStatus(await h.del(at("Part"), { id: 997, kind: "none" }), 404);
  });
});

// ---------------------------------------------------------------------------------------------
// The seed's ancestor key: id, kind and parent (a key of the same class)
// ---------------------------------------------------------------------------------------------

describe("ancestor (parent) keys", () => {
  const root = { id: 1, kind: "root" };
  const child = { id: 2, kind: "leaf", parent: root };

  before(async () => {
    await create(h, "Node", { ...root, name: "the root" });
    await create(h, "Node", { ...child, name: "the child" });
  });

  test("a root (no parent) reads back with parent null", async () => {
    const g = await h.get(at("Node", root));
    expectStatus(g, 200);
    assert.equal(g.body.class, `${PKG}.Node`);
    assert.equal(g.body.id, 1);
    assert.equal(g.body.kind, "root");
    assert.equal(g.body.parent, null);
    assert.equal(g.body.name, "the root");
  });

  test("a root is found with parent given as null in the key", async () => {
    const g = await h.get(at("Node", { ...root, parent: null }));
    expectStatus(g, 200);
    assert.equal(g.body.name, "the root");
  });

  test("POST of a root with parent: null is the same as without parent", async () => {
    const r = await create(h, "Node", { id: 10, kind: "root", parent: null, name: "explicit null" });
    assert.equal(r.body.parent, null);
    expectStatus(await h.get(at("Node", { id: 10, kind: "root" })), 200);
  });

  test('an ancestor key whose "class" names another class: 400 in the path, 422 in a body, nothing written', async () => {
    const foreign = { ...child, parent: { class: `${PKG}.Versioned`, ...root } };
    const g = await h.get(at("Node", foreign));
    expectStatus(g, 400);
    assert.deepEqual(
      g.body.errors.map((e: { path: string }) => e.path),
      ["/parent/class"],
    );
    const p = await h.post(at("Node"), { id: 3, kind: "leaf", parent: { class: `${PKG}.Versioned`, ...root }, name: "foreign parent" });
    expectStatus(p, 422);
    assert.deepEqual(
      p.body.errors.map((e: { path: string }) => e.path),
      ["/parent/class"],
    );
    expectStatus(await h.get(at("Node", { id: 3, kind: "leaf", parent: root })), 404);
    // The key class, as answers write ancestor keys, and the class itself are its own.
    expectStatus(await h.get(at("Node", { ...child, parent: { class: KEY_CLASS_NODE, ...root } })), 200);
    expectStatus(await h.get(at("Node", { ...child, parent: { class: `${PKG}.Node`, ...root } })), 200);
  });

  test("a query parameter holding an ancestor key finds its object (with or without the key class)", async () => {
    const names = async (params: unknown) => {
      const r = await h.get(
        `/jdoql?query=${encodeURIComponent(`SELECT name FROM ${PKG}.Node WHERE this == :n`)}&params=${encodeURIComponent(JSON.stringify(params))}`,
      );
      expectStatus(r, 200);
      return r.body;
    };
    assert.deepEqual(await names({ n: child }), ["the child"]);
    assert.deepEqual(await names({ n: { ...child, parent: { class: KEY_CLASS_NODE, ...root } } }), ["the child"]);
    assert.deepEqual(await names({ n: root }), ["the root"]);
  });

  test("a key with an ancestor that names no object is quoted as the client writes keys, not as it is stored", async () => {
    const missing = { id: 9, kind: "leaf", parent: root };
    const quoted = `{"id":9,"kind":"leaf","parent":{"class":"${KEY_CLASS_NODE}","id":1,"kind":"root","parent":null}}`;
    for (const r of [
      await h.get(at("Node", missing)),
      await h.put(at("Node", missing), { name: "x" }),
      await h.del(at("Node", missing)),
      await h.del(at("Node"), missing),
    ]) {
      expectStatus(r, 404);
      assert.equal(r.body.detail, `no ${PKG}.Node with key ${quoted}`);
    }
    const root9 = await h.get(at("Node", { id: 9, kind: "root" }));
    assert.equal(root9.body.detail, `no ${PKG}.Node with key {"id":9,"kind":"root","parent":null}`);
  });

  test("a child is found by its key, which nests the parent's key", async () => {
    const g = await h.get(at("Node", child));
    expectStatus(g, 200);
    assert.equal(g.body.id, 2);
    assert.equal(g.body.kind, "leaf");
    assert.equal(g.body.name, "the child");
  });

  test("the child's parent is written as a key object with class = the key class", async () => {
    const g = await h.get(at("Node", child));
    const parent = g.body.parent;
    assert.ok(parent && typeof parent === "object", g.text);
    assert.equal(parent.class, KEY_CLASS_NODE);
    assert.equal(parent.id, 1);
    assert.equal(parent.kind, "root");
    assert.equal(parent.parent ?? null, null);
  });

  test("the POST answer of a child carries its parent key, and its Location finds it", async () => {
    const r = await create(h, "Node", { id: 3, kind: "leaf", parent: root, name: "posted child" });
    assert.equal(r.body.parent.class, KEY_CLASS_NODE);
    assert.equal(r.body.parent.id, 1);
    assert.equal(r.body.parent.kind, "root");
    const g = await h.get(locationOf(r));
    expectStatus(g, 200);
    assert.deepEqual(g.body, r.body);
  });

  test("a key object that carries class (as the server writes it) is accepted in the body and the path", async () => {
    const withClass = { class: KEY_CLASS_NODE, id: 1, kind: "root", parent: null };
    const r = await create(h, "Node", { id: 4, kind: "leaf", parent: withClass, name: "echoed" });
    assert.equal(r.body.parent.id, 1);
    const g = await h.get(at("Node", { class: KEY_CLASS_NODE, id: 4, kind: "leaf", parent: withClass }));
    expectStatus(g, 200);
    assert.equal(g.body.name, "echoed");
  });

  test("a grandchild's key nests two levels, each with class", async () => {
    const grand = { id: 5, kind: "grand", parent: child };
    await create(h, "Node", { ...grand, name: "grandchild" });
    const g = await h.get(at("Node", grand));
    expectStatus(g, 200);
    assert.equal(g.body.parent.class, KEY_CLASS_NODE);
    assert.equal(g.body.parent.id, 2);
    assert.equal(g.body.parent.kind, "leaf");
    assert.equal(g.body.parent.parent.class, KEY_CLASS_NODE);
    assert.equal(g.body.parent.parent.id, 1);
    assert.equal(g.body.parent.parent.kind, "root");
  });

  test("the parent is part of the identity: same id and kind under another parent is another object", async () => {
    await create(h, "Node", { id: 2, kind: "leaf", name: "root-level twin" });
    assert.equal((await h.get(at("Node", { id: 2, kind: "leaf" }))).body.name, "root-level twin");
    assert.equal((await h.get(at("Node", child))).body.name, "the child");
  });

  test("HEAD is 200 for the root and the child and 404 for a key with the wrong parent", async () => {
    expectStatus(await h.call("HEAD", at("Node", root)), 200);
    expectStatus(await h.call("HEAD", at("Node", child)), 200);
    expectStatus(await h.call("HEAD", at("Node", { id: 2, kind: "leaf", parent: { id: 99, kind: "root" } })), 404);
  });

  test("POST of an existing child key is 409", async () => {
    expectStatus(await h.post(at("Node"), { ...child, name: "again" }), 409);
    assert.equal((await h.get(at("Node", child))).body.name, "the child");
  });

  test("a parent key missing a key field is 422 naming /parent/kind", async () => {
    const r = await h.post(at("Node"), { id: 6, kind: "leaf", parent: { id: 1 }, name: "bad parent" });
    expectStatus(r, 422);
    assert.ok(
      r.body.errors.some((e: any) => e.path === "/parent/kind"),
      r.text,
    );
  });

  test("PUT /{class}/{child key} changes the child", async () => {
    await create(h, "Node", { id: 7, kind: "leaf", parent: root, name: "to change" });
    const p = await h.put(at("Node", { id: 7, kind: "leaf", parent: root }), { name: "changed" });
    expectStatus(p, 200);
    assert.equal(p.body.name, "changed");
    assert.equal(p.body.parent.id, 1);
  });

  test("DELETE /{class} with the child's key as body deletes the child only", async () => {
    const doomed = { id: 8, kind: "leaf", parent: root };
    await create(h, "Node", { ...doomed, name: "doomed" });
    expectStatus(await h.del(at("Node"), doomed), 204);
    expectStatus(await h.get(at("Node", doomed)), 404);
    expectStatus(await h.get(at("Node", root)), 200);
  });

  test("the extent holds roots and children with their keys", async () => {
    const g = await h.get(at("Node"));
    expectStatus(g, 200);
    const theChild = g.body.find((o: any) => o.name === "the child");
    assert.ok(theChild, g.text);
    assert.equal(theChild.parent.class, KEY_CLASS_NODE);
    assert.equal(theChild.parent.id, 1);
    assert.ok(g.body.some((o: any) => o.name === "the root" && o.parent === null));
  });
});

// ---------------------------------------------------------------------------------------------
// Versioned classes
// ---------------------------------------------------------------------------------------------

describe("versioned classes (version-number)", () => {
  test("POST answers _version 1", async () => {
    const r = await create(h, "Versioned", { name: "v" });
    assert.equal(r.body._version, 1);
  });

  test("each PUT adds 1 to _version, and GET reads the same number", async () => {
    const id = (await create(h, "Versioned", { name: "v0" })).body.id;
    const p1 = await h.put(at("Versioned", id), { name: "v1" });
    expectStatus(p1, 200);
    assert.equal(p1.body._version, 2);
    const p2 = await h.put(at("Versioned", id), { name: "v2" });
    assert.equal(p2.body._version, 3);
    const g = await h.get(at("Versioned", id));
    assert.equal(g.body._version, 3);
    assert.equal(g.body.name, "v2");
  });

  test("the extent carries _version", async () => {
    const id = (await create(h, "Versioned", { name: "in extent" })).body.id;
    const g = await h.get(at("Versioned"));
    assert.equal(g.body.find((o: any) => o.id === id)._version, 1);
  });

  test("a version field-name field reads the same number as _version", async () => {
    const r = await create(h, "VersionedWithField", { name: "f" });
    assert.equal(r.body._version, 1);
    assert.equal(r.body.ver, 1);
    const p = await h.put(at("VersionedWithField", r.body.id), { name: "g" });
    assert.equal(p.body._version, 2);
    assert.equal(p.body.ver, 2);
    const g = await h.get(at("VersionedWithField", r.body.id));
    assert.equal(g.body._version, 2);
    assert.equal(g.body.ver, 2);
  });

  describe("a version field-name field in queries reads the version (its own harness)", () => {
    let q: Harness;
    const get = (path: string) => q.get(path);
    const jdoql = (text: string) => get(`/jdoql?query=${encodeURIComponent(text)}`);
    const jpql = (text: string) => get(`/jpql?query=${encodeURIComponent(text)}`);
    const VF = `${PKG}.VersionedWithField`;
    before(async () => {
      q = await startHarness(MODEL);
      // Versions 1, 2 and 3: "one" is never changed, "two" once, "three" twice.
      for (const [name, changes] of [
        ["one", 0],
        ["two", 1],
        ["three", 2],
      ] as const) {
        const r = await q.post(at("VersionedWithField"), { name });
        expectStatus(r, 201);
        for (let i = 0; i < changes; i++) expectStatus(await q.put(at("VersionedWithField", r.body.id), { name }), 200);
      }
    });
    after(() => q?.close());
    const body = (r: Reply) => {
      expectStatus(r, 200);
      return r.body;
    };

    test("a filter compares it: GET ?filter=ver == 2, and ver > 1", async () => {
      assert.deepEqual(
        body(await get(`${at("VersionedWithField")}?filter=${encodeURIComponent("ver == 2")}`)).map((o: any) => o.name),
        ["two"],
      );
      assert.deepEqual(
        body(await get(`${at("VersionedWithField")}?filter=${encodeURIComponent("ver > 1")}`))
          .map((o: any) => o.ver)
          .sort(),
        [2, 3],
      );
    });
    test("JDOQL selects, orders and groups by it, and it equals JDOHelper.getVersion(this)", async () => {
      assert.deepEqual(body(await jdoql(`SELECT name, ver FROM ${VF} ORDER BY ver DESC`)), [
        ["three", 3],
        ["two", 2],
        ["one", 1],
      ]);
      assert.deepEqual(body(await jdoql(`SELECT ver, count(this) FROM ${VF} GROUP BY ver ORDER BY ver ASC`)), [
        [1, 1],
        [2, 1],
        [3, 1],
      ]);
      assert.deepEqual(body(await jdoql(`SELECT count(this) FROM ${VF} WHERE ver == JDOHelper.getVersion(this)`)), 3);
    });
    test("JPQL compares, selects, orders and groups by it", async () => {
      assert.deepEqual(body(await jpql("SELECT v.name FROM VersionedWithField v WHERE v.ver = 3")), ["three"]);
      assert.deepEqual(body(await jpql("SELECT v.ver FROM VersionedWithField v ORDER BY v.ver")), [1, 2, 3]);
      assert.deepEqual(body(await jpql("SELECT v.ver, COUNT(v) FROM VersionedWithField v GROUP BY v.ver HAVING v.ver >= 2 ORDER BY v.ver")), [
        [2, 1],
        [3, 1],
      ]);
      assert.deepEqual(body(await jpql("SELECT v.name FROM VersionedWithField v WHERE v.ver = VERSION(v) AND v.ver < 3 ORDER BY v.ver DESC")), ["two", "one"]);
    });
  });

  test("a value sent for the version field does not change the version", async () => {
    const r = await create(h, "VersionedWithField", { name: "sent", ver: 7 });
    assert.equal(r.body._version, 1);
    assert.equal(r.body.ver, 1);
  });
});
