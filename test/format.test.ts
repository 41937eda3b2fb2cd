/**
 * The code is formatted by Prettier (.prettierrc.json): `npm run format` formats it, and this
 * fails, naming the files, when one is not (as `npm run format:check` says).
 */
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import * as prettier from "prettier";

const ROOT = join(import.meta.dirname, "..");
const GENERATED = join(ROOT, "src", "query", "generated");

function sources(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return path === GENERATED || e.name === "node_modules" ? [] : sources(path, pattern);
    return pattern.test(e.name) ? [path] : [];
  });
}

test("src/ and test/ are formatted by Prettier", async () => {
  const files = [...sources(join(ROOT, "src"), /\.ts$/), ...sources(join(ROOT, "test"), /\.(ts|mts|js)$/)];
  const options = await prettier.resolveConfig(join(ROOT, "src", "index.ts"));
  const unformatted: string[] = [];
  for (const file of files) {
    if (!(await prettier.check(readFileSync(file, "utf8"), { ...options, filepath: file }))) unformatted.push(relative(ROOT, file));
  }
  assert.ok(files.length > 100, `found ${files.length} files`);
  assert.deepEqual(unformatted, [], "run npm run format");
});
