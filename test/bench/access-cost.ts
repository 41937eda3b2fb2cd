/**
 * What access control costs a request, in-process, one run: the same requests to three handlers
 * over the sample model on one temporary embedded file each: without access control (the
 * baseline), with rules that let the principal read everything (authentication only, no WITH
 * clause), and with row rules (a `where` on the classes read, so every statement starts with the
 * principal's WITH clause and writes carry guards). Prints µs per request (best of 5 runs) and the
 * ratio to the baseline.
 *
 *   node --import tsx test/bench/access-cost.ts [--runtime node|bun]
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AccessOptions } from "../../src/config/access.ts";
import { resolveContext } from "../../src/config/resolve-context.ts";
import { createRestHandler, type RestHandler } from "../../src/handler.ts";
import { loadConfigDir } from "../../src/runtime/load-config-dir.ts";
import { hs256 } from "../support/tokens.ts";

const P = "org.extent.sample.";
const SECRET = "a-bench-secret-of-at-least-thirty-two-bytes";
const { context } = resolveContext(await loadConfigDir(new URL("../../schema/jdo", import.meta.url).pathname), "sample");
const all = [{ role: "*" }];
const everything = { read: all, create: all, update: all, delete: all };
const rows = {
  classes: Object.fromEntries(
    ["Author", "Item", "Book", "Magazine", "Shelf", "Member", "Category"].map((c) => [
      `${P}${c}`,
      c === "Author" || c === "Book"
        ? {
            ...everything,
            read: [{ role: "reader", where: c === "Author" ? "name != 'hidden'" : "pages < 1000000" }],
            update: [{ role: "reader", where: c === "Author" ? "name != 'hidden'" : "pages >= 0" }],
          }
        : everything,
    ]),
  ),
};
const SETUPS: Record<string, AccessOptions | undefined> = {
  "no access control": undefined,
  "rules, all rows": { jwt: { secret: SECRET }, rules: { default: "allow" } },
  "rules with where": { jwt: { secret: SECRET }, rules: rows },
};

const token = await hs256({ sub: "b", roles: ["reader"] }, SECRET);
const OPERATIONS: Record<string, number> = { "GET by key (+works)": 3000, "JDOQL with navigation": 1500, "PUT partial": 1500 };

/** A handler of one setup, with an author and five works, and each operation's request. */
async function setUp(access: AccessOptions | undefined): Promise<{ h: RestHandler; run: Record<string, () => Promise<unknown>> }> {
  const dir = mkdtempSync(join(tmpdir(), "extent-access-bench-"));
  const h: RestHandler = createRestHandler({ context: { ...context, url: `file:${join(dir, "b.db")}`, ...(access ? { access } : {}) } });
  await h.ready;
  const send = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    const r = await h.fetch(new Request(`http://b${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  const works = [1, 2, 3, 4, 5].map((i) => ({ class: `${P}Book`, title: `Work ${i}`, pages: i * 100 }));
  const { _id } = await send("POST", `/${P}Author`, { name: "A", works });
  const query = `/jdoql?query=${encodeURIComponent(`SELECT FROM ${P}Book WHERE author.name != 'x' && pages > 100`)}`;
  let n = 0;
  return {
    h,
    run: {
      "GET by key (+works)": () => send("GET", `/${P}Author/${_id}?fetchGroup=all`),
      "JDOQL with navigation": () => send("GET", query),
      "PUT partial": () => send("PUT", `/${P}Author/${_id}`, { name: `A${n++ % 2}` }),
    },
  };
}

// The setups alternate, round by round, and the best round of each counts: drift on a busy machine hits all alike.
const setups = Object.fromEntries(await Promise.all(Object.entries(SETUPS).map(async ([name, access]) => [name, await setUp(access)] as const)));
const results: Record<string, Record<string, number>> = Object.fromEntries(Object.keys(SETUPS).map((name) => [name, {}]));
for (let round = 0; round < 5; round++) {
  for (const [op, count] of Object.entries(OPERATIONS)) {
    for (const [name, { run }] of Object.entries(setups)) {
      const started = performance.now();
      for (let i = 0; i < count; i++) await run[op]!();
      const us = ((performance.now() - started) * 1000) / count;
      results[name]![op] = Math.min(results[name]![op] ?? Infinity, us);
    }
  }
}
for (const { h } of Object.values(setups)) h.close();
const base = results["no access control"]!;
console.log(`access control's cost (${process.versions.bun ? "bun" : "node"}), µs per request, best of 5; ratio to no access control`);
for (const op of Object.keys(OPERATIONS)) {
  const cells = Object.entries(results).map(([name, r]) => `${name}: ${r[op]!.toFixed(1)} µs (${(r[op]! / base[op]!).toFixed(2)}×)`);
  console.log(`  ${op.padEnd(24)} ${cells.join("   ")}`);
}
