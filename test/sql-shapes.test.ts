/**
 * Write statements are compiled once per shape (src/write/write-plan.ts `shaped`, the one cache of
 * statement shapes): a request binds its values to its shape's placeholders, so the same write
 * with other values compiles nothing, and the shapes a client can make are bounded by the cache.
 * `statement()` (src/store/sql.ts) compiles what runs once, at start-up.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { cacheSizes } from "../src/cache/bounded-cache.ts";
import { resolveContext } from "../src/config/resolve-context.ts";
import { loadConfigDir } from "../src/runtime/load-config-dir.ts";
import { bind, compile, ident, sql, statement } from "../src/store/sql.ts";
import { startHarness } from "./support/harness.ts";

const SCHEMA = new URL("../schema/jdo", import.meta.url).pathname;
const AUTHOR = "/org.extent.sample.Author";

test("statement() is the compiler's statement, values bound", () => {
  const query = sql`UPDATE ${ident("T")} SET ${ident("v")} = ${"it's"} WHERE ${ident("id")} = ${2}`;
  assert.deepEqual(statement(query), bind(compile(query)));
  assert.deepEqual(statement(query).params, ["it's", 2]);
});

test("the same writes with other values compile no statement: creations, updates and releases of an inverse collection", async () => {
  const { context: sample } = resolveContext(await loadConfigDir(SCHEMA), "sample");
  const h = await startHarness({ metadata: sample.metadata });
  try {
    const shapes = () => cacheSizes(h.model).statementShapes!.size;
    // A graph, then its collection cut to one work (the others released: author set to NULL).
    const round = async (n: number) => {
      const created = await h.post(AUTHOR, {
        name: `Author ${n}`,
        works: [1, 2, 3].map((i) => ({ class: "org.extent.sample.Book", title: `Work ${n}.${i}`, isbn: `${n}-${i}`, pages: i })),
      });
      assert.equal(created.status, 201, created.text);
      const kept = created.body.works[0];
      const cut = await h.put(`${AUTHOR}/${created.body._id}`, { name: `Author ${n}!`, works: [kept] });
      assert.equal(cut.status, 200, cut.text);
      assert.equal(cut.body.works.length, 1);
    };
    await round(1);
    const after = shapes();
    assert.ok(after > 0);
    await round(2);
    await round(3);
    assert.equal(shapes(), after, "a second and third round with other values compiled new statements");
  } finally {
    h.close();
  }
});
