/**
 * JSON selects (src/read/json-select.ts) write what the object path writes. Over models with
 * data (the sample, the JDO TCK company in both identity forms, a graph of cycles and shared
 * objects, every inheritance strategy, a hierarchy with a join table, one field of every type),
 * for every class, every fetch plan (default, all, each named group) at depths 1 to 3, the whole
 * extent and every object by key: the text a JSON select writes, row by row and as one row, is
 * valid JSON and equals the serializer's JSON of the objects the loader reads, digit for digit
 * (read with src/json/exact.ts: a long past 2^53 is compared by its digits, not as a double). Every select it builds is read by SQLite's
 * parser (the nesting estimate is checked on nestings of each construct too), and the reads it
 * leaves to the object path are the ones it names.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { JsonNumber, decimalOf, parseJson, stringify } from "../src/json/exact.ts";
import { Serializer } from "../src/read/serialize.ts";
import { base64Marks } from "../src/json/sql-values.ts";
import type { ClassMeta } from "../src/metadata/model.ts";
import { type FetchPlan, planKey } from "../src/read/fetch-plan.ts";
import { jsonTexts, readJson, readJsonArray } from "../src/read/json-rows.ts";
import { type JsonSelect, jsonSelect, jsonSelectRefusal } from "../src/read/json-select.ts";
import { load } from "../src/read/load.ts";
import { lookupStatement } from "../src/read/existing.ts";
import { groupsOf } from "../src/read/row-layout.ts";
import type { RootSelector } from "../src/read/read-plan.ts";
import { PARSER_BUDGET, parserNesting } from "../src/store/parser-nesting.ts";
import { type Harness, startHarness } from "./support/harness.ts";
import { graphModel, seedGraph } from "./support/graph-model.ts";
import { loadCompanyData } from "./fixtures/company-query-data.ts";
import { tckCompanyModel } from "./fixtures/tck-company.ts";
import { sampleHarness } from "./fuzz/world.ts";

const DEPTHS = [1, 2, 3];

/** The fetch plans compared: default and `all`, and each named group of the model, at each depth. */
function plansOf(h: Harness): FetchPlan[] {
  const named = new Set<string>();
  for (const c of h.model.classes.values()) for (const g of c.fetchGroups.keys()) named.add(g);
  return DEPTHS.flatMap((maxDepth) => [[], ["all"], ...[...named].map((g) => [g])].map((groups) => ({ groups, maxDepth })));
}

interface Outcome {
  compared: number;
  /** GETs by key read by a JSON select, and those of them marked fixed-cost. */
  byKey: number;
  fixedCost: number;
  /** Refusal reasons, each with one read it was given for. */
  refused: Map<string, string>;
}

/**
 * JSON text as its values: whole numbers and decimals of more than 17 digits by their digits
 * (src/json/exact.ts), other numbers as doubles. (SQLite may spell a double with more digits than
 * JavaScript does, `4.94065645841247e-324` for `5e-324`: the same double.)
 */
function exactJson(text: string): unknown {
  const doubles = (v: unknown): unknown => {
    if (v instanceof JsonNumber) return /[.eE]/.test(v.text) && (decimalOf(v.text)?.digits.length ?? 99) <= 17 ? Number(v.text) : v;
    if (Array.isArray(v)) return v.map(doubles);
    if (v && typeof v === "object") for (const k of Object.keys(v)) (v as Record<string, unknown>)[k] = doubles((v as Record<string, unknown>)[k]);
    return v;
  };
  return doubles(parseJson(text));
}

/** The object path's texts for a selection (load, then the serializer). */
async function objectPath(
  h: Harness,
  meta: ClassMeta,
  selector: RootSelector,
  fetch: FetchPlan,
  values: Record<string, unknown>,
): Promise<{ texts: string[]; keys: unknown[] }> {
  const { roots, objects } = await load(h.store, h.model, meta, selector, fetch, values);
  const serializer = new Serializer(h.model, objects, fetch);
  return { texts: roots.map((r) => stringify(serializer.object(r))), keys: roots.map((r) => (r.key.length === 1 ? r.key[0] : r.key)) };
}

/** Compares both paths for every class and plan of the harness's model. */
async function compareAll(h: Harness): Promise<Outcome> {
  const outcome: Outcome = { compared: 0, byKey: 0, fixedCost: 0, refused: new Map() };
  for (const meta of h.model.classes.values()) {
    if (meta.embeddedOnly) continue;
    for (const fetch of plansOf(h)) {
      const extent = await objectPath(h, meta, { kind: "extent" }, fetch, {});
      const selections: [RootSelector, Record<string, unknown>, string[]][] = [
        [{ kind: "extent" }, {}, extent.texts],
        [{ kind: "keys" }, { keys: JSON.stringify(extent.keys) }, extent.texts],
      ];
      for (const [selector, values, expected] of selections) {
        const what = `${meta.name} ${selector.kind} ${planKey(fetch) || "default"} depth ${fetch.maxDepth}`;
        const select = jsonSelect(h.model, meta, selector, fetch);
        if (!select) {
          const reason = jsonSelectRefusal(h.model, meta, selector, fetch)!;
          if (!outcome.refused.has(reason)) outcome.refused.set(reason, what);
          continue;
        }
        const texts = jsonTexts(await readJson(h.store, h.model, select, values));
        const parsed = texts.map((t, i) => {
          try {
            return exactJson(t);
          } catch {
            assert.fail(`${what}: object ${i} is not JSON: ${t.slice(0, 300)}`);
          }
        });
        assert.deepStrictEqual(
          parsed,
          expected.map((t) => exactJson(t)),
          what,
        );
        if (select.array) {
          // The same objects as one row: the array written in SQL, brackets and all.
          const array = await readJsonArray(h.store, select, values);
          assert.deepStrictEqual(exactJson(array.array), parsed, `${what}, as one row`);
          assert.equal(array.visible, parsed.length, `${what}, as one row: visible objects`);
        }
        outcome.compared++;
      }
      const byKey = jsonSelect(h.model, meta, { kind: "key" }, fetch);
      if (byKey) {
        outcome.byKey++;
        if (byKey.fixedCost) outcome.fixedCost++;
        const what = `${meta.name} by key ${planKey(fetch) || "default"} depth ${fetch.maxDepth}`;
        assert.equal(byKey.fixedCost, await onlyKeyLookups(h, byKey), `${what}: fixed-cost exactly when SQLite finds every row by a unique key`);
      }
    }
  }
  await assertLookupsByKey(h);
  return outcome;
}

/**
 * The lookups of existing objects (HEAD by key, a write's objects with keys: src/read/existing.ts)
 * are fixed-cost reads: SQLite's plan searches each table group by its primary key for each key of
 * the request's list (json_each), and reads nothing else.
 */
async function assertLookupsByKey(h: Harness): Promise<void> {
  const step =
    /^(SEARCH \S+ USING (INTEGER PRIMARY KEY|(COVERING )?INDEX sqlite_autoindex_\S+) \([^)]*\)( LEFT-JOIN)?|LIST SUBQUERY \d+|SCAN json_each VIRTUAL TABLE INDEX \d+:|CREATE BLOOM FILTER)$/;
  for (const meta of h.model.classes.values()) {
    if (meta.embeddedOnly || meta.root !== meta.name) continue;
    for (const group of groupsOf(h.model, meta))
      for (const oneKey of [false, true]) {
        const { sql } = lookupStatement(group, oneKey);
        const plan = (await h.sql(`EXPLAIN QUERY PLAN ${sql}`, ["[1]"])).map((row) => String(row[3]));
        assert.ok(
          plan.every((s) => step.test(s)),
          `${meta.name}'s lookup by ${oneKey ? "one key" : "keys"}: ${plan.join(" ; ")}`,
        );
      }
  }
}

/**
 * Whether SQLite's plan for each of the select's statements finds every row it reads by a primary
 * or unique key (a search of an integer primary key or of an automatic index, in the statement or
 * in a scalar subquery): a cost no number of stored rows can grow, what `fixedCost` claims.
 */
async function onlyKeyLookups(h: Harness, select: JsonSelect): Promise<boolean> {
  const keyLookup = /^(SEARCH \S+ USING (INTEGER PRIMARY KEY|(COVERING )?INDEX sqlite_autoindex_\S+) \([^)]*\)( LEFT-JOIN)?|CORRELATED SCALAR SUBQUERY \d+)$/;
  for (const step of select.steps) {
    const plan = await h.sql(
      `EXPLAIN QUERY PLAN ${step.compiled.sql}`,
      step.compiled.params.map(() => null),
    );
    if (!plan.every((row) => keyLookup.test(String(row[3])))) return false;
  }
  return true;
}

/** The refusals are the named ones only, and most reads were compared. */
function assertOutcome(outcome: Outcome, allowed: string[], atLeast: number): void {
  for (const [reason, example] of outcome.refused)
    assert.ok(
      allowed.some((a) => reason.includes(a)),
      `unexpected refusal "${reason}" (e.g. ${example})`,
    );
  assert.ok(outcome.compared >= atLeast, `compared ${outcome.compared} reads, expected at least ${atLeast}`);
}

describe("JSON selects write what the object path writes", () => {
  test("the sample model (every class, new-table and superclass-table, embedded, collections, maps, an M-N join table)", async () => {
    const h = await sampleHarness();
    try {
      // Category's key holds its parent's key: ancestor keys are left to the object path; so are
      // some plans at depth 3.
      const outcome = await compareAll(h);
      assertOutcome(outcome, ["ancestor keys", "nested deeper"], 60);
      // Without collections, a GET by key is fixed-cost (most classes' default plans); with them it is not.
      assert.ok(outcome.fixedCost > 0 && outcome.fixedCost < outcome.byKey, `${outcome.fixedCost} of ${outcome.byKey} GETs by key fixed-cost`);
    } finally {
      h.close();
    }
  });

  test("the JDO TCK company model with its query data (a hierarchy in one table, M-N both ways, embedded addresses)", async () => {
    const h = await startHarness(tckCompanyModel("applicationidentity"));
    try {
      await loadCompanyData(h);
      // Persons with every relation in full, and most classes at depth 3, make statements too large.
      assertOutcome(await compareAll(h), ["over the subquery limit", "over the size limit", "nested deeper"], 90);
    } finally {
      h.close();
    }
  });

  test("a graph of cycles and shared objects (self references, a ring through a join table, a subclass in the same table)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "extent-json-select-"));
    const h = await startHarness({ models: [graphModel], url: `file:${join(dir, "graph.db")}` });
    try {
      await seedGraph(`file:${join(dir, "graph.db")}`, 40, 4);
      // Persons at depth 3 nest more levels of related persons than SQLite's parser reads.
      assertOutcome(await compareAll(h), ["nested deeper", "over the subquery limit", "over the size limit"], 30);
    } finally {
      h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("every inheritance strategy (new-table, superclass-table, subclass-table, complete-table in several tables) and references into each", async () => {
    const h = await startHarness({
      metadata: [{ source: "inheritance/package.jdo", text: readFileSync(new URL("./models/inheritance/package.jdo", import.meta.url), "utf8") }],
    });
    try {
      const P = "org.test.inh";
      const post = async (cls: string, body: unknown) => {
        const r = await h.post(`/${P}.${cls}`, body);
        assert.equal(r.status, 201, r.text);
        return r.body;
      };
      const car = await post("SportsCar", { make: "Fast", doors: 2, topSpeed: 300 });
      await post("Truck", { make: "Big", payload: 12.5 });
      const circle = await post("Circle", { color: "red", radius: 1.5 });
      const square = await post("Square", { color: "blue", side: 2 });
      const savings = await post("Savings", { holder: "Ann", balance: 10.25, rate: 0.1 + 0.2 });
      await post("Checking", { holder: "Bob", balance: -3, overdraft: 100 });
      const dog = await post("Dog", { name: "Rex", breed: "Collie" });
      const cat = await post("Cat", { name: "Tom", indoor: true });
      await post("Owner", {
        name: "Zoe",
        vehicle: { _id: car._id },
        shapes: [{ id: square.id }, { id: circle.id }],
        account: { number: savings.number },
        pets: [
          { class: `${P}.Cat`, id: cat.id },
          { class: `${P}.Dog`, id: dog.id },
        ],
      });
      await post("Owner", { name: "Yan" });
      assertOutcome(await compareAll(h), [], 100);
    } finally {
      h.close();
    }
  });

  test("a hierarchy with a discriminator, a join table both ways and a mapped-by set", async () => {
    const h = await startHarness({
      metadata: [{ source: "n-plus-one/package.jdo", text: readFileSync(new URL("./models/n-plus-one/package.jdo", import.meta.url), "utf8") }],
    });
    try {
      const P = "org.test.np";
      const tag = async (label: string) => (await h.post(`/${P}.Tag`, { label })).body._id;
      const tags = [await tag("red"), await tag("green"), await tag("blue")];
      const region = (await h.post(`/${P}.Region`, { name: "north" })).body._id;
      const kinds = ["Book", "Dvd", "Item"];
      const items = Array.from({ length: 7 }, (_, i) => ({
        class: `${P}.${kinds[i % 3]}`,
        name: `item ${i}`,
        tags: tags.filter((_, j) => (i + j) % 2 === 0).map((t) => ({ _id: t })),
        ...(i % 3 === 0 ? { pages: i } : i % 3 === 1 ? { minutes: i } : {}),
      }));
      const shop = await h.post(`/${P}.Shop`, { name: "shop", region: { _id: region }, items });
      assert.equal(shop.status, 201);
      // Rows another writer left of no class of the model (an unknown discriminator, none): left
      // out of the shop's mapped-by list and of a tag's join-table list, on both paths.
      await h.sql(`INSERT INTO ITEM ("_id", DTYPE, name, shop) VALUES (100, 'org.test.np.Gone', 'gone', ?), (101, NULL, 'none', ?)`, [
        shop.body._id,
        shop.body._id,
      ]);
      await h.sql(`INSERT INTO ITEM_TAG (ITEM_ID, TAG_ID) VALUES (100, ?), (101, ?)`, [tags[0], tags[0]]);
      const listed = await h.get(`/${P}.Shop/${shop.body._id}?fetchGroup=all`);
      assert.deepEqual(
        listed.body.items.map((i: { name: string }) => i.name).sort(),
        items.map((i) => i.name),
      );
      assertOutcome(await compareAll(h), ["nested deeper"], 40);
    } finally {
      h.close();
    }
  });

  test("longs and BigIntegers past 2^53 as fields, keys, references, join tables, collections and map keys; BigDecimals of any digits", async () => {
    const h = await startHarness({
      metadata: [{ source: "exact/package.jdo", text: readFileSync(new URL("./models/exact/package.jdo", import.meta.url), "utf8") }],
    });
    try {
      const [MAX, MIN, ODD] = ["9223372036854775807", "-9223372036854775808", "9007199254740993"];
      const post = async (cls: string, json: string) => assert.equal((await h.call("POST", `/test.exact.${cls}`, json)).status, 201);
      await post("Holder", `{"id": ${MAX}, "name": "max"}`);
      await post("Holder", `{"id": ${MIN}, "name": "min"}`);
      await post("Tag", `{"id": ${ODD}, "label": "odd"}`);
      await post("Tag", `{"id": -${ODD}, "label": "minus odd"}`);
      await post(
        "Account",
        `{"id": ${MAX}, "owner": {"id": ${MAX}}, "units": ${MIN}, "total": ${ODD}, "big": -${ODD}, "history": [${MAX}, 1, ${MIN}], "byNumber": {"${MAX}": "max"}, "tags": [{"id": ${ODD}}, {"id": -${ODD}}]}`,
      );
      await post(
        "Account",
        `{"id": ${MIN}, "owner": {"id": ${MIN}}, "units": ${ODD}, "tags": [{"id": -${ODD}}], "price": 123456789012345678901234567890.123456789, "amounts": [-0.000000000000000000000000001, 1e21, 100.10]}`,
      );
      await post("Account", `{"id": 1, "owner": {"id": ${MAX}}, "units": 1, "price": -1e-7}`);
      // Ledger's ancestor key is left to the object path, and so are some plans at depth 3.
      assertOutcome(await compareAll(h), ["ancestor keys", "nested deeper", "over the subquery limit", "over the size limit"], 30);
    } finally {
      h.close();
    }
  });

  test("one field of every type, with the values JSON and SQLite write differently", async () => {
    const h = await startHarness({
      metadata: [{ source: "types/package.jdo", text: readFileSync(new URL("./models/types/package.jdo", import.meta.url), "utf8") }],
    });
    try {
      const doubles = [0.1 + 0.2, 1e-7, 2.5e-7, 1e21, 1e20, 5e-324, 1.7976931348623157e308, -1.5e-300, 123456.789, 1 / 3, 100, -0, 2 ** 53 + 2];
      for (const [i, d] of doubles.entries()) {
        const body = {
          pDouble: d,
          wDouble: -d,
          pFloat: 1.25,
          wFloat: null,
          bigDecimal: d,
          pChar: i % 2 ? "\u0000" : "é",
          wCharacter: '"',
          pBoolean: i % 2 === 0,
          wBoolean: i % 3 === 0 ? null : false,
          pLong: Number.MAX_SAFE_INTEGER - i,
          wLong: -(2 ** 40),
          string: `quote " backslash \\ controls \u0001\u0008\t\n\f\r\u001f\u007f line \u2028 emoji 😀 ${i}`,
          bytes: btoa(String.fromCharCode(...Array.from({ length: i * 7 }, (_, j) => (j * 37 + i) % 256))),
          color: ["RED", "GREEN", "BLUE"][i % 3],
          size: ["SMALL", "MEDIUM", "LARGE"][i % 3],
          tags: ["a", "b\u0001"],
          scores: [1, -2, 3],
          attributes: { "x y": 1, __proto__: 2 },
          labels: { k: 'v"' },
          address: i % 2 ? null : { street: "Main", zip: "1234", floor: i },
          utilDate: 86_400_000 * i,
          localTime: 3_600_000,
          uuid: "0F8FAD5B-D9CB-469F-A165-70867728950E",
        };
        const r = await h.post("/test.types.AllTypes", JSON.parse(JSON.stringify(body).replace('"__proto__"', '"__proto__"')));
        assert.equal(r.status, 201, r.text);
      }
      assertOutcome(await compareAll(h), [], 12);
      // Every double reads back as the same number (0.1 + 0.2 is not 0.3).
      const meta = h.model.classes.get("test.types.AllTypes")!;
      const select = jsonSelect(h.model, meta, { kind: "extent" }, { groups: [], maxDepth: 1 })!;
      const read = jsonTexts(await readJson(h.store, h.model, select, {})).map((t) => JSON.parse(t));
      assert.deepStrictEqual(
        read.map((o) => o.pDouble),
        doubles.map((d) => (Object.is(d, -0) ? 0 : d)),
      );
    } finally {
      h.close();
    }
  });
});

test("byte[] values are written as hex between U+0001 marks and read as base64", () => {
  assert.equal(base64Marks('{"b":"\u0001000102FF\u0001","c":"\u0001\u0001"}'), `{"b":"${btoa("\u0000\u0001\u0002\u00ff")}","c":""}`);
  assert.equal(base64Marks('{"plain":"text"}'), '{"plain":"text"}');
});

/**
 * The parser whose fixed stack the estimate is for: SQLite 3.45's, as libSQL's server (sqld) and D1
 * run it; @libsql/client's own `libsql` 0.5 binding has it. (The embedded store's binding, 0.6, is
 * SQLite 3.47, whose parser stack grows as needed: it reads every JSON select the estimate passes.)
 */
const FixedStackDatabase = createRequire(createRequire(import.meta.url).resolve("@libsql/client"))("libsql") as new (path: string) => {
  exec(sql: string): void;
  prepare(sql: string): { raw(on: boolean): { get(): unknown[] } };
};

describe("the parser nesting estimate", () => {
  const db = new FixedStackDatabase(":memory:");
  db.exec("CREATE TABLE t(a, b)");
  test("is measured on SQLite 3.45's parser", () => assert.match(String(db.prepare("SELECT sqlite_version()").raw(true).get()[0]), /^3\.45\./));
  const parses = (sql: string) => {
    try {
      db.prepare(sql);
      return true;
    } catch {
      return false;
    }
  };
  // Each construct a JSON select nests, opened n times around a value.
  const CONSTRUCTS: Record<string, [string, string]> = {
    parenthesis: ["(", ")"],
    "function, first argument": ["concat(", ")"],
    "function, later argument": ["concat('a', ", ")"],
    "CASE WHEN ... THEN": ["CASE WHEN 1 THEN ", " END"],
    "CASE ... ELSE": ["CASE WHEN 1 THEN 2 ELSE ", " END"],
    iif: ["iif(1, 'x', ", ")"],
    "scalar subquery": ["(SELECT ", ")"],
    "subquery in a condition": ["(SELECT 1 FROM t WHERE a = (SELECT ", "))"],
    "subquery in IN": ["(SELECT 1 FROM t WHERE a IN (SELECT ", "))"],
    "an ordered group_concat, as a to-many relation": [
      "concat('x', (SELECT group_concat(x, ',') FROM (SELECT iif(a = 1, 'x', ",
      ") AS x FROM t WHERE (a, b) = (1, 2) ORDER BY a)))",
    ],
    "a reference, as a to-one relation": [
      "(SELECT concat('x', CASE WHEN t.a IS NULL THEN 'null' WHEN t.a = 2 THEN 'x' ELSE coalesce((SELECT ",
      " FROM t WHERE a = 1), 'd') END) FROM t)",
    ],
  };
  for (const [name, [open, close]] of Object.entries(CONSTRUCTS)) {
    test(`${name}: the estimate passes only what the parser reads`, () => {
      const nested = (n: number) => `SELECT ${open.repeat(n)}1${close.repeat(n)}`;
      assert.ok(parses(nested(1)), `the construct itself parses: ${nested(1)}`);
      let n = 1;
      while (n < 200 && parses(nested(n + 1))) n++;
      // n parses, n + 1 does not.
      assert.ok(parserNesting(nested(n + 1)) > PARSER_BUDGET, `${n + 1} levels overflow the parser, estimated ${parserNesting(nested(n + 1))}`);
      const passed = Math.floor(n * 0.75);
      assert.ok(
        parserNesting(nested(passed)) <= PARSER_BUDGET,
        `the estimate is not far above the truth: ${passed} of ${n} levels estimated ${parserNesting(nested(passed))}`,
      );
    });
  }
});
