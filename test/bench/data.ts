/**
 * The benchmark's data set, generated the same for every contender: 100 publishers with 5 editors
 * each, 1,000 authors, 10,000 works (8,000 books, 2,000 magazines), 11,600 objects in all.
 * Extent's schema is created by Extent itself (so the tables, indexes and sequences are its own),
 * then rows go in with plain SQL (thousands of POSTs would only slow the set-up). json-server gets
 * the same objects as a JSON file in its own shape (`authorId`, `publisherId`).
 */
import { writeFileSync } from "node:fs";
import { createClient } from "@libsql/client";
import { createRestHandler } from "../../src/handler.ts";
import type { MetadataText } from "../../src/config/context.ts";

export const COUNTS = { publishers: 100, editorsPerPublisher: 5, authors: 1000, items: 10_000 };

export interface DataSet {
  /** libSQL URL of the database file (Extent and the floor share it). */
  url: string;
  /** json-server's database file. */
  jsonFile: string;
  objects: number;
}

const title = (i: number) => `Title ${String((i * 7919) % 10_000).padStart(4, "0")}`;
const price = (i: number) => ((i * 37) % 5000) / 100;
const authorOf = (i: number) => (i % COUNTS.authors) + 1;

export async function generate(dbFile: string, jsonFile: string, metadata: MetadataText[]): Promise<DataSet> {
  const url = `file:${dbFile}`;
  const handler = createRestHandler({ context: { name: "bench", url, metadata } });
  await handler.ready;
  handler.close();

  const client = createClient({ url });
  const { publishers, editorsPerPublisher, authors, items } = COUNTS;
  const editors = publishers * editorsPerPublisher;
  const statements: { sql: string; args: (string | number)[] }[] = [];
  const many = (table: string, columns: string[], rows: (string | number)[][]) => {
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      statements.push({
        sql: `INSERT INTO ${table} (${columns.join(", ")}) VALUES ${chunk.map(() => `(${columns.map(() => "?").join(", ")})`).join(", ")}`,
        args: chunk.flat(),
      });
    }
  };
  const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
  many(
    "PUBLISHER",
    ["id", "name", "city"],
    range(publishers).map((i) => [i, `Publisher ${i}`, `City ${i % 17}`]),
  );
  many(
    "AUTHOR",
    ["id", "name", "born"],
    range(authors).map((i) => [i, `Author ${i}`, 1900 + (i % 100)]),
  );
  many(
    "EDITOR",
    ["id", "name", "publisher", "favourite"],
    range(editors).map((i) => [i, `Editor ${i}`, Math.ceil(i / editorsPerPublisher), ((i * 13) % authors) + 1]),
  );
  const isBook = (i: number) => i % 5 !== 0;
  many(
    "ITEM",
    ["id", "KIND", "title", "price", "author", "issue"],
    range(items).map((i) => [i, isBook(i) ? "BOOK" : "MAGAZINE", title(i), price(i), authorOf(i), isBook(i) ? (null as never) : i % 52]),
  );
  many(
    "BOOK",
    ["id", "pages"],
    range(items)
      .filter(isBook)
      .map((i) => [i, 50 + (i % 900)]),
  );
  const next = { "bench.Publisher": publishers, "bench.Editor": editors, "bench.Author": authors, "bench.Item": items };
  for (const [name, max] of Object.entries(next)) statements.push({ sql: "UPDATE extent_sequence SET next_value = ? WHERE name = ?", args: [max + 1, name] });
  await client.batch(statements, "write");
  // Everything into the main file (Extent opens files in WAL mode), so a copy of it is complete.
  await client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  client.close();

  const db = {
    publishers: range(publishers).map((i) => ({ id: i, name: `Publisher ${i}`, city: `City ${i % 17}` })),
    editors: range(editors).map((i) => ({
      id: i,
      name: `Editor ${i}`,
      publisherId: Math.ceil(i / editorsPerPublisher),
      favouriteId: ((i * 13) % authors) + 1,
    })),
    authors: range(authors).map((i) => ({ id: i, name: `Author ${i}`, born: 1900 + (i % 100) })),
    items: range(items).map((i) => ({
      id: i,
      kind: isBook(i) ? "BOOK" : "MAGAZINE",
      title: title(i),
      price: price(i),
      authorId: authorOf(i),
      ...(isBook(i) ? { pages: 50 + (i % 900) } : { issue: i % 52 }),
    })),
  };
  writeFileSync(jsonFile, JSON.stringify(db));
  return { url, jsonFile, objects: publishers + editors + authors + items };
}
