/**
 * One read façade (issue 17, item 1): how objects are read — a JSON select writing their JSON in
 * SQL, or the loader and the serializer — is chosen in src/read/read-objects.ts alone, so a row
 * filter or an ordering of the objects read is added there once. This reads the imports under
 * src/: outside src/read/, no file imports what runs either path (their answers are held equal
 * by test/json-select.test.ts, and every read's statements by test/n-plus-one.test.ts).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { test } from "node:test";

const SRC = join(import.meta.dirname, "..", "src");

/** What runs a read's path: a JSON select and its rows, the loader, an extent page's rows. */
const PATHS = ["read/json-select.ts", "read/json-select-writer.ts", "read/json-rows.ts", "read/load.ts"];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.(ts|js)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

test("outside src/read/, nothing runs a JSON select or the loader: reads go through read-objects.ts", () => {
  const found: string[] = [];
  for (const file of sources(SRC)) {
    const from = relative(SRC, file);
    if (from.startsWith("read/")) continue;
    for (const m of readFileSync(file, "utf8").matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g)) {
      const to = relative(SRC, normalize(join(dirname(file), m[1]!)));
      if (PATHS.includes(to)) found.push(`${from} -> ${to}`);
    }
  }
  assert.deepEqual(found, []);
});
