/**
 * Pages of a large extent (issue 19): page 1 and page 1,000 (pages of 100) of a 100,000-object
 * extent, read by cursor (`after=`, keyset: the query starts at the cursor's row) and by `range=`
 * (OFFSET: the query skips the rows before), in-process, in one run; ordered by the key (the
 * extent's order) and by a field (`name`). The cursor's page 1,000 should cost what its page 1
 * costs (issue 19's target: within 1.5x); a range's grows with its offset.
 *
 *   node --import tsx test/bench/listing-pages.ts [--persons 100000] [--runtime bun]
 *
 * The rows are written with plain SQL (test/support/graph-model.ts), not through the API.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRestHandler } from "../../src/handler.ts";
import { GRAPH_PKG, graphModel, seedGraph } from "../support/graph-model.ts";

const args = process.argv.slice(2);
const PERSONS = Number(args[args.indexOf("--persons") + 1] || 100_000) || 100_000;
const SIZE = 100;
const PAGE = 1000;
const url = `file:${join(mkdtempSync(join(tmpdir(), "extent-pages-")), "pages.db")}`;
const schema = createRestHandler({ context: { name: "schema", url, models: [graphModel] } });
await schema.ready;
schema.close();
await seedGraph(url, PERSONS, Math.max(1, Math.floor(PERSONS / 20)));
const h = createRestHandler({ context: { name: "pages", url, models: [graphModel] } });
await h.ready;
const PERSON = `/${GRAPH_PKG}.Person`;

async function get(query: string): Promise<Response> {
  const r = await h.fetch(new Request(`http://b${PERSON}?${query}`));
  if (r.status !== 200) throw new Error(`${query}: ${r.status} ${await r.text()}`);
  return r;
}

/** The query string of the next link of the page before page `page` (walked once, outside the timing). */
async function cursorTo(ordering: string, page: number): Promise<string> {
  const from = (page - 1) * SIZE;
  const r = await get(`${ordering}range=${from - 1},${from}`);
  await r.body?.cancel();
  // The page of one object ends right before `from`: its next link starts at `from`, with pages of one; ask for SIZE.
  const next = /<[^?>]*\?([^>]*)>; rel="next"/.exec(r.headers.get("link") ?? "")![1]!;
  return `${next}&range=0,${SIZE}`;
}

async function time(query: string, rounds = 30): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    await (await get(query)).text();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

console.log(`pages of ${SIZE} of a ${PERSONS.toLocaleString("en")}-object extent (${process.versions.bun ? "bun" : "node"}), ms per page, best of 30`);
for (const [label, ordering] of [
  ["by key", ""],
  ["by name", `ordering=name&`],
] as const) {
  const rangeFirst = await time(`${ordering}range=0,${SIZE}`);
  const rangeLater = await time(`${ordering}range=${(PAGE - 1) * SIZE},${PAGE * SIZE}`);
  const cursorFirst = await time(`${ordering}range=0,${SIZE}`);
  const cursorLater = await time(await cursorTo(ordering, PAGE));
  console.log(
    `  ${label.padEnd(8)} cursor: page 1 ${cursorFirst.toFixed(2)}, page ${PAGE} ${cursorLater.toFixed(2)} (${(cursorLater / cursorFirst).toFixed(2)}x)` +
      `   range: page 1 ${rangeFirst.toFixed(2)}, page ${PAGE} ${rangeLater.toFixed(2)} (${(rangeLater / rangeFirst).toFixed(2)}x)`,
  );
}
h.close();
