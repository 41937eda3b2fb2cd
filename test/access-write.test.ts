/**
 * Access control, writes (issue 18, contract §8): create, update and delete grants with their
 * filters, judged inside the write's one batch on the state it leaves (create, update) and finds
 * (update, delete); nested objects of a body; DELETE of an extent. A refused write is a 403 (a 404
 * where read hides the object) and leaves nothing behind.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { type AccessFixture, P, accessFixture, grant, seedLibrary } from "./support/access-fixture.ts";

const RULES = {
  default: "deny",
  classes: {
    [`${P}Author`]: { read: [grant("*")], create: [grant("admin")] },
    [`${P}Item`]: { read: [grant("*")], create: [grant("admin")], update: [grant("admin")] },
    [`${P}Book`]: {
      read: [grant("staff"), grant("member", "pages < 500")],
      create: [grant("admin")],
      update: [grant("admin"), grant("staff", "pages < 1000")],
      delete: [grant("admin")],
    },
    [`${P}Member`]: {
      read: [grant("member", "email == :email"), grant("staff")],
      create: [grant("admin")],
      update: [grant("member", "email == :email"), grant("admin")],
      delete: [grant("admin")],
    },
    [`${P}Shelf`]: {
      read: [grant("*")],
      create: [grant("member", "label.startsWith('m-')"), grant("admin")],
      update: [grant("member", "label.startsWith('m-')"), grant("admin")],
      delete: [grant("staff", "label != 'keep'"), grant("admin")],
    },
  },
};

let f: AccessFixture;
let book: Record<string, number>;
before(async () => {
  f = await accessFixture(RULES);
  book = await seedLibrary(f);
});
after(() => f.close());

async function status(method: string, path: string, who: string | undefined, body?: unknown): Promise<number> {
  const r = await f.call(method, path, who, body);
  if (r.status >= 400) {
    assert.match(r.headers.get("content-type") ?? "", /problem\+json/);
    assert.equal(((await r.json()) as { status: number }).status, r.status);
  } else await r.body?.cancel();
  return r.status;
}
const labels = async () => (await f.json("GET", `/${P}Shelf`, "staff")).map((s: { label: string }) => s.label).sort();

describe("create", () => {
  test("the filter judges the object as it would be stored: refused, nothing is written", async () => {
    assert.equal(await status("POST", `/${P}Shelf`, "ann", { code: "a1", label: "m-ann" }), 201);
    assert.equal(await status("POST", `/${P}Shelf`, "ann", { code: "a2", label: "other" }), 403);
    assert.deepEqual(await labels(), ["front", "m-ann"]);
    // Anonymous: no grant at all, asked for credentials.
    assert.equal(await status("POST", `/${P}Shelf`, undefined, { code: "a3", label: "m-x" }), 401);
  });

  test("a nested object the principal may not create refuses the whole body", async () => {
    const body = { code: "a4", label: "m-nested", items: [{ class: `${P}Book`, title: "New", pages: 10 }] };
    assert.equal(await status("POST", `/${P}Shelf`, "ann", body), 403);
    assert.deepEqual(await labels(), ["front", "m-ann"]);
    assert.equal((await f.json("GET", `/${P}Book`, "staff")).length, 4);
  });
});

describe("update", () => {
  test("judged on the state found and the state left", async () => {
    // Found: "m-ann" passes; left: "m-renamed" passes.
    assert.equal(await status("PUT", `/${P}Shelf/a1`, "ann", { label: "m-renamed" }), 200);
    // Left fails: the label would leave the member's grant.
    assert.equal(await status("PUT", `/${P}Shelf/a1`, "ann", { label: "taken" }), 403);
    // Found fails: "front" is not the member's to change, whatever it becomes.
    assert.equal(await status("PUT", `/${P}Shelf/s1`, "ann", { label: "m-mine-now" }), 403);
    assert.deepEqual(await labels(), ["front", "m-renamed"]);
  });

  test("an object read hides is a 404, one read shows but the grants refuse a 403; claims decide", async () => {
    assert.equal(await status("PUT", `/${P}Member/ann@x.org`, "ann", { name: "Ann B." }), 200);
    assert.equal(await status("PUT", `/${P}Member/bob@x.org`, "ann", { name: "Owned" }), 404);
    assert.equal(await status("PUT", `/${P}Member/ann@x.org`, "noEmail", { name: "Eve" }), 404);
    assert.equal(await status("PUT", `/${P}Member/ann@x.org`, "sneaky", { name: "Mal" }), 404);
    assert.deepEqual(
      (await f.json("GET", `/${P}Member`, "staff")).map((m: { name: string }) => m.name),
      ["Ann B.", "Bob"],
    );
    // Staff may read every book but change only those under 1000 pages... and the state left counts.
    assert.equal(await status("PUT", `/${P}Book/${book.Long}`, "staff", { title: "Long (2nd ed.)" }), 200);
    assert.equal(await status("PUT", `/${P}Book/${book.Long}`, "staff", { pages: 1200 }), 403);
    assert.equal((await f.json("GET", `/${P}Book/${book.Long}`, "staff")).pages, 900);
  });

  test("a nested existing object is linked with read alone; changing its fields needs its update grant", async () => {
    // Bob may read Short (100 pages) and link it; he has no Book update grant.
    assert.equal(await status("PUT", `/${P}Member/bob@x.org`, "bob", { borrowed: [{ id: book.Short }] }), 200);
    assert.equal(await status("PUT", `/${P}Member/bob@x.org`, "bob", { borrowed: [{ id: book.Short, title: "Mine" }] }), 403);
    assert.equal((await f.json("GET", `/${P}Book/${book.Short}`, "staff")).title, "Short");
  });

  test("a collection holding objects the principal cannot see cannot be replaced (it would change them)", async () => {
    // Ann's loans hold Long (900 pages), which members cannot read: replacing them would return it unseen.
    assert.equal(await status("PUT", `/${P}Member/ann@x.org`, "ann", { borrowed: [{ id: book.Short }] }), 403);
    const [ann] = (await f.json("GET", `/${P}Member?fetchGroup=all`, "staff")).filter((m: { email: string }) => m.email === "ann@x.org");
    assert.deepEqual(ann.borrowed.map((b: { id: number }) => b.id).sort(), [book.Short, book.Long].sort());
    // Her other fields she may still change.
    assert.equal(await status("PUT", `/${P}Member/ann@x.org`, "ann", { name: "Ann C." }), 200);
  });
});

describe("delete", () => {
  test("one object: 404 where read hides it, 403 where delete refuses it, nothing deleted", async () => {
    assert.equal(await status("DELETE", `/${P}Member/bob@x.org`, "ann"), 403);
    assert.equal(await status("DELETE", `/${P}Book/${book.Long}`, "ann"), 403);
    assert.equal((await f.json("GET", `/${P}Member`, "staff")).length, 2);
  });

  test("DELETE of an extent deletes the objects the principal may delete, and only those", async () => {
    await f.json("POST", `/${P}Shelf`, "admin", { code: "k1", label: "keep" });
    await f.json("POST", `/${P}Shelf`, "admin", { code: "k2", label: "scrap" });
    assert.equal(await status("DELETE", `/${P}Shelf/k1`, "staff"), 403);
    assert.equal(await status("DELETE", `/${P}Shelf`, "staff"), 204);
    assert.deepEqual(await labels(), ["keep"]);
  });
});
