/**
 * Access control on the remote stores (issue 18): the rules' WITH clause and write guards are plain
 * SQL, so they hold on a libSQL server (sqld) and on D1 (workerd's, through miniflare) as on an
 * embedded file: reads see what `read` grants, a refused write answers 403 and leaves nothing
 * behind. sqld is skipped, saying why, where no binary can be had for this platform.
 */
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { Miniflare } from "miniflare";
import { D1Store, type D1Binding } from "../src/store/d1-store.ts";
import { openLibsqlStore } from "../src/store/libsql-store.ts";
import type { Store } from "../src/store/store.ts";
import { P, accessFixture, grant, seedLibrary } from "./support/access-fixture.ts";
import { locateSqld, startSqld } from "./support/sqld.ts";

const RULES = {
  classes: {
    [`${P}Author`]: { read: [grant("*")], create: [grant("admin")] },
    [`${P}Item`]: { read: [grant("*")], create: [grant("admin")] },
    [`${P}Book`]: {
      read: [grant("staff"), grant("member", "pages < 500")],
      create: [grant("admin")],
      update: [grant("admin"), grant("staff", "pages < 1000")],
    },
    [`${P}Member`]: { read: [grant("member", "email == :email"), grant("staff")], create: [grant("admin")], update: [grant("member", "email == :email")] },
    [`${P}Shelf`]: { read: [grant("*")], create: [grant("admin"), grant("member", "label.startsWith('m-')")] },
  },
};

async function exercise(store: Store): Promise<void> {
  const f = await accessFixture(RULES, { store });
  const book = await seedLibrary(f);
  const titles = async (who: string) => (await f.json("GET", `/${P}Book`, who)).map((b: { title: string }) => b.title).sort();
  assert.deepEqual(await titles("ann"), ["Dear", "Secret", "Short"]);
  assert.deepEqual(
    (await f.json("GET", `/${P}Member`, "ann")).map((m: { name: string }) => m.name),
    ["Ann"],
  );
  assert.equal((await f.call("GET", `/${P}Book/${book.Long}`, "ann")).status, 404);
  assert.equal(await f.json("GET", `/jdoql?query=${encodeURIComponent(`SELECT count(this) FROM ${P}Book`)}`, "ann"), 3);
  // Refused writes: on the state left (403), on what read hides (404); nothing written.
  assert.equal((await f.call("POST", `/${P}Shelf`, "ann", { code: "x", label: "nope" })).status, 403);
  assert.equal((await f.call("PUT", `/${P}Book/${book.Long}`, "staff", { pages: 1500 })).status, 403);
  assert.equal((await f.call("PUT", `/${P}Member/bob@x.org`, "ann", { name: "Mine" })).status, 404);
  assert.equal((await f.call("GET", `/${P}Shelf/x`, "staff")).status, 404);
  assert.equal((await f.json("GET", `/${P}Book/${book.Long}`, "staff")).pages, 900);
  assert.equal((await f.json("GET", `/${P}Member/bob@x.org`, "staff")).name, "Bob");
  // Allowed ones go through.
  assert.equal((await f.call("POST", `/${P}Shelf`, "ann", { code: "y", label: "m-yes" })).status, 201);
  assert.equal((await f.call("PUT", `/${P}Member/ann@x.org`, "ann", { name: "Ann B." })).status, 200);
  f.close();
}

const sqld = await locateSqld();

describe("access control on remote stores", () => {
  test("D1 (miniflare)", async () => {
    const mf = new Miniflare({
      modules: true,
      script: "export default { fetch: () => new Response(null) }",
      d1Databases: ["DB"],
      compatibilityDate: "2025-09-01",
    });
    try {
      await exercise(new D1Store((await mf.getD1Database("DB")) as unknown as D1Binding));
    } finally {
      await mf.dispose();
    }
  });

  test("a libSQL server (sqld)", { skip: typeof sqld === "string" ? false : sqld.missing }, async () => {
    const server = await startSqld();
    after(() => server.stop());
    await exercise(openLibsqlStore(server.url));
  });
});
