/**
 * Start-up over a Java source tree of 100 persistent classes (issue 21, item 6): the grammar is
 * loaded once, every file parsed once, and the model built. Prints the times; fails only when
 * reading takes longer than a generous bound on a loaded machine.
 *
 * Run: node --import tsx --test test/java-startup.test.ts
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadModel } from "../src/config/load-model.ts";
import { javaParser, readJavaModel } from "../src/runtime/java-sources.ts";
import { CLASSES, source, writeJavaTree } from "./support/java-tree.ts";

test(`reading a source tree of ${CLASSES} persistent classes`, async () => {
  const dir = mkdtempSync(join(tmpdir(), "extent-java-"));
  try {
    writeJavaTree(dir);

    let t = performance.now();
    await javaParser();
    const grammarMs = performance.now() - t;
    t = performance.now();
    const java = await readJavaModel([dir]);
    const readMs = performance.now() - t;
    assert.deepEqual(java.problems, []);
    t = performance.now();
    const model = loadModel({ documents: java.documents });
    const buildMs = performance.now() - t;
    assert.equal(model.classes.size, CLASSES);
    const lines = java.units && CLASSES * source(0).split("\n").length;
    console.log(
      `# grammar ${grammarMs.toFixed(0)} ms; ${CLASSES + 1} files (${lines} lines) read, parsed and declared in ${readMs.toFixed(0)} ms; model built in ${buildMs.toFixed(0)} ms`,
    );
    assert.ok(readMs < 5000, `reading took ${readMs} ms`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
