/**
 * src/query/generated/ is what `npm run grammar` makes of grammar/ (issue 17, item 7): the parsers
 * are regenerated into a temporary folder with the very commands of package.json's `grammar`
 * script (only the output folder changed) and must match the committed files byte for byte. A
 * grammar edited without regenerating, or a generated file edited by hand, fails here.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

const ROOT = join(import.meta.dirname, "..");
const GENERATED = "src/query/generated/";

test("the committed parsers are what the grammars generate", () => {
  const script: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts.grammar;
  assert.doesNotMatch(script, /["'`$\\|;<>]/, "the grammar script is plain words joined by &&: read here without a shell");
  const peggy = createRequire(join(ROOT, "package.json")).resolve("peggy/bin/peggy.js");
  const out = mkdtempSync(join(tmpdir(), "extent-grammar-"));
  try {
    for (const command of script.split("&&")) {
      const [program, ...args] = command.trim().split(/\s+/);
      assert.equal(program, "peggy", `the grammar script runs peggy only: ${command}`);
      const o = args.indexOf("-o");
      assert.ok(o >= 0 && args[o + 1]!.startsWith(GENERATED), `each peggy command writes into ${GENERATED}: ${command}`);
      args[o + 1] = join(out, args[o + 1]!.slice(GENERATED.length));
      execFileSync(process.execPath, [peggy, ...args], { cwd: ROOT, stdio: "pipe" });
    }
    const committed = readdirSync(join(ROOT, GENERATED)).sort();
    assert.deepEqual(readdirSync(out).sort(), committed, `the files in ${GENERATED} are the ones the grammar script writes`);
    for (const file of committed) {
      const fresh = readFileSync(join(out, file), "utf8");
      assert.ok(
        fresh === readFileSync(join(ROOT, GENERATED, file), "utf8"),
        `${GENERATED}${file} differs from what grammar/ generates: run \`npm run grammar\``,
      );
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
