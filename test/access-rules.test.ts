/**
 * The access rules file (issue 18, contract §8): checked against the model when the handler is
 * built, each mistake naming the file and the rule; read by the CLI from `extent.access.file` or
 * `--access-file`; and what access control costs: no round trip, and a read by key stays a
 * lookup by key.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readRulesFile } from "../src/cli/rules-file.ts";
import { parseServeArgs } from "../src/cli/args.ts";
import type { PersistenceContext } from "../src/config/context.ts";
import { resolveContext } from "../src/config/resolve-context.ts";
import { createRestHandler } from "../src/handler.ts";
import { loadConfigDir } from "../src/runtime/load-config-dir.ts";
import { P, accessFixture, grant, seedLibrary } from "./support/access-fixture.ts";

const SCHEMA = new URL("../schema/jdo", import.meta.url).pathname;
const { context: sample } = resolveContext(await loadConfigDir(SCHEMA), "sample");

function startUp(rules: unknown, rulesSource?: string): () => void {
  return () =>
    createRestHandler({ context: { ...sample, url: ":memory:", access: { anonymousRole: "guest", rules, ...(rulesSource ? { rulesSource } : {}) } } }).close();
}

describe("rules checked at start-up, naming the file and the rule", () => {
  test("the document's shape", () => {
    assert.throws(startUp({ default: "maybe" }, "rules.json"), /^AccessRulesError: rules\.json: default: must be "allow" or "deny"/);
    assert.throws(
      startUp({ classes: { [`${P}Book`]: { reed: [] } } }, "rules.json"),
      /rules\.json: classes\["org\.extent\.sample\.Book"\]\.reed: is not a rule/,
    );
    assert.throws(startUp({ classes: { [`${P}Book`]: { read: [{ roles: "x" }] } } }), /access\.rules: classes\[.*\]\.read\[0\]\.role: must be given/);
    assert.throws(startUp({ classes: { [`${P}Book`]: { read: [{ role: "" }] } } }), /read\[0\]\.role: must not be empty/);
    assert.throws(startUp([]), /access\.rules: the rules must be an object/);
  });

  test("unknown classes, with the full name suggested for a simple one", () => {
    assert.throws(
      startUp({ classes: { "org.x.Nothing": { read: [grant("*")] } } }, "r.json"),
      /r\.json: classes\["org\.x\.Nothing"\]: the model has no persistent class/,
    );
    assert.throws(startUp({ classes: { Book: { read: [grant("*")] } } }), /classes\.Book: .*did you mean "org\.extent\.sample\.Book"/);
    assert.throws(startUp({ classes: { [`${P}Address`]: { read: [grant("*")] } } }), /no persistent class "org\.extent\.sample\.Address"/);
  });

  test("filters that do not compile against their class: the rule, line and column", () => {
    assert.throws(
      startUp({ classes: { [`${P}Book`]: { update: [grant("x"), grant("y", "pages >")] } } }, "r.json"),
      /r\.json: classes\[.*Book"\]\.update\[1\]\.where: line 1, column \d+/,
    );
    assert.throws(startUp({ classes: { [`${P}Book`]: { read: [grant("x", "nosuch == 1")] } } }), /read\[0\]\.where: .*nosuch/);
    assert.throws(startUp({ classes: { [`${P}Member`]: { read: [grant("x", "email == ?1")] } } }), /claims as :name/);
    assert.throws(
      startUp({ classes: { [`${P}Member`]: { read: [grant("x", "email == :sub")] }, [`${P}Book`]: { read: [grant("x", "pages == :sub")] } } }),
      /:sub is used as/,
    );
  });

  test("field rules: a field of the class, not a key field for read, roles that some grant gives", () => {
    const fields = (f: unknown) => startUp({ classes: { [`${P}Book`]: { read: [grant("staff")], fields: f } } }, "r.json");
    assert.throws(fields({ cost: { read: ["staff"] } }), /r\.json: classes\[.*Book"\]\.fields\.cost: org\.extent\.sample\.Book has no persistent field "cost"/);
    assert.throws(fields({ id: { read: ["staff"] } }), /fields\.id\.read: "id" is a key field/);
    assert.throws(fields({ price: { read: ["staf"] } }), /fields\.price\.read: no grant names the role "staf"/);
    assert.throws(fields({ price: { reed: ["staff"] } }), /fields\.price\.reed: is not a rule \(a field's rules are read and write\)/);
    assert.doesNotThrow(fields({ price: { read: ["staff", "*"], write: ["staff"] }, title: {} }));
  });

  test("a subclass with its own rules in its superclass's table needs a discriminator", async () => {
    // The sample's Item hierarchy has one: its own rules per class work (see access-read.test.ts).
    assert.doesNotThrow(startUp({ classes: { [`${P}Item`]: { read: [grant("*")] }, [`${P}Magazine`]: { read: [grant("x", "issue > 1")] } } }));
  });
});

describe("the rules file in the CLI", () => {
  const dir = mkdtempSync(join(tmpdir(), "extent-rules-"));
  writeFileSync(join(dir, "rules.json"), JSON.stringify({ classes: { [`${P}Book`]: { read: [grant("*")] } } }));
  writeFileSync(join(dir, "broken.json"), "{ classes: ");

  test("extent.access.file is read relative to the configuration folder, --access-file relative to the working folder", () => {
    const context: PersistenceContext = { name: "u", access: { file: "rules.json" } };
    assert.deepEqual(readRulesFile(context, dir, undefined), { ok: true });
    assert.deepEqual(context.access?.rules, { classes: { [`${P}Book`]: { read: [{ role: "*" }] } } });
    assert.match(context.access!.rulesSource!, /rules\.json$/);
    const flagged: PersistenceContext = { name: "u" };
    assert.deepEqual(readRulesFile(flagged, "/nowhere", join(dir, "rules.json")), { ok: true });
    assert.ok(flagged.access?.rules);
    const parsed = parseServeArgs(["--config", "c", "--persistence-context", "u", "--access-file", "r.json"]);
    assert.ok(parsed.ok && parsed.options.accessFile === "r.json");
  });

  test("a missing or broken file names itself", () => {
    const missing = readRulesFile({ name: "u", access: { file: "none.json" } }, dir, undefined);
    assert.ok(!missing.ok && /^extent\.access\.file: cannot read .*none\.json/.test(missing.message));
    const broken = readRulesFile({ name: "u" }, dir, join(dir, "broken.json"));
    assert.ok(!broken.ok && /broken\.json: the access rules are not valid JSON/.test(broken.message));
  });
});

describe("what access control costs", () => {
  test("no round trip: a read stays one batch, a write its one or two, with the rules' filters in them", async () => {
    const rules = {
      classes: {
        [`${P}Author`]: { read: [grant("*")], create: [grant("admin")] },
        [`${P}Item`]: { read: [grant("*", "price < 50"), grant("admin")], create: [grant("admin")], update: [grant("admin"), grant("staff", "price < 50")] },
        [`${P}Book`]: {
          read: [grant("*", "pages < 500"), grant("admin")],
          create: [grant("admin"), grant("staff")],
          update: [grant("admin"), grant("staff", "pages < 500")],
        },
        [`${P}Member`]: { read: [grant("member", "email == :email"), grant("staff")], create: [grant("admin")] },
        [`${P}Shelf`]: { read: [grant("*")], create: [grant("admin")] },
      },
    };
    const f = await accessFixture(rules, { serverTiming: true });
    try {
      const book = await seedLibrary(f);
      const cost = async (method: string, path: string, who: string, body?: unknown) => {
        const r = await f.call(method, path, who, body);
        assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${await r.text()}`);
        return /store;desc="(\d+) round trips?/.exec(r.headers.get("server-timing") ?? "")?.[1];
      };
      assert.equal(await cost("GET", `/${P}Book/${book.Short}?fetchGroup=all`, "staff"), "1");
      assert.equal(await cost("GET", `/${P}Book`, "staff"), "1");
      assert.equal(await cost("GET", `/jdoql?query=${encodeURIComponent(`SELECT FROM ${P}Book WHERE author.name != 'x'`)}`, "staff"), "1");
      assert.equal(await cost("PUT", `/${P}Book/${book.Short}`, "staff", { title: "S." }), "1");
      // Written but hidden from its writer (staff reads books under 500 pages): its Location, no body.
      const created = await f.call("POST", `/${P}Book`, "staff", { title: "Tome", pages: 2000 });
      assert.equal(created.status, 201);
      assert.equal(await created.text(), "");
      const location = created.headers.get("location") ?? "";
      assert.match(location, /\/org\.extent\.sample\.Book\/\d+$/);
      assert.equal((await f.json("GET", location, "admin")).title, "Tome");
      assert.equal((await f.call("GET", location, "staff")).status, 404);
    } finally {
      f.close();
    }
  });
});

describe("the sample's secured unit", () => {
  test("schema/jdo's sample-secured unit reads its rules file and starts: guests read books, members only themselves", async () => {
    const { context } = resolveContext(await loadConfigDir(SCHEMA), "sample-secured");
    assert.deepEqual(readRulesFile(context, SCHEMA, undefined), { ok: true });
    context.access!.jwt = { secret: "a-test-secret-of-at-least-thirty-two-bytes" };
    const h = createRestHandler({ context: { ...context, url: ":memory:" } });
    try {
      await h.ready;
      assert.equal((await h.fetch(new Request(`http://x/${P}Book`))).status, 200);
      assert.equal((await h.fetch(new Request(`http://x/${P}Member`))).status, 401);
      assert.equal(
        (await h.fetch(new Request(`http://x/${P}Book`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }))).status,
        401,
      );
    } finally {
      h.close();
    }
  });
});
