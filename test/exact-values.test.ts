/**
 * Values that a double cannot hold, through HTTP: longs and BigIntegers to ±2^63 (a double holds
 * integers to 2^53), as fields, keys (plain, composite, ancestor), foreign keys, join tables,
 * collections and map keys. Each is stored, read back (JSON selects and the object path), and
 * queried (comparisons, ordering, min/max, projections, parameters, literals) digit for digit;
 * what no Java type holds is refused with its path. Model: test/models/exact/package.jdo.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { decimalKey } from "../src/json/decimal.ts";
import { type Decimal, JsonNumber, decimalOf, parseJson } from "../src/json/exact.ts";
import { type Harness, type Reply, startHarness } from "./support/harness.ts";

const MODEL = { metadata: [{ source: "test/models/exact/package.jdo", text: readFileSync(new URL("./models/exact/package.jdo", import.meta.url), "utf8") }] };
const P = "test.exact";
const MAX = "9223372036854775807";
const MIN = "-9223372036854775808";
/** 2^53 + 1: the first integer a double does not hold. */
const ODD = "9007199254740993";

let h: Harness;
before(async () => {
  h = await startHarness(MODEL);
});
after(() => h.close());

/** A reply's body read without losing digits (the harness's JSON.parse would round them). */
const exact = (r: Reply): any => (r.text ? parseJson(r.text) : undefined);
const n = (digits: string) => new JsonNumber(digits);

function expect(r: Reply, status: number): any {
  assert.equal(r.status, status, `expected ${status}, got ${r.status}: ${r.text}`);
  return exact(r);
}

const post = (cls: string, json: string) => h.call("POST", `/${P}.${cls}`, json);
const query = (q: string, params?: string) => h.get(`/jdoql?query=${encodeURIComponent(q)}${params ? `&params=${encodeURIComponent(params)}` : ""}`);
const filter = (cls: string, f: string, params?: string) =>
  h.get(`/${P}.${cls}?filter=${encodeURIComponent(f)}${params ? `&params=${encodeURIComponent(params)}` : ""}`);

describe("longs and BigIntegers past 2^53", () => {
  before(async () => {
    expect(await post("Holder", `{"id": ${MAX}, "name": "max"}`), 201);
    expect(await post("Holder", `{"id": ${MIN}, "name": "min"}`), 201);
    expect(await post("Tag", `{"id": ${ODD}, "label": "odd"}`), 201);
    expect(await post("Tag", `{"id": -${ODD}, "label": "minus odd"}`), 201);
    const a = expect(
      await post(
        "Account",
        `{"id": ${MAX}, "owner": {"id": ${MAX}}, "units": ${MIN}, "total": ${ODD}, "big": -${ODD}, "history": [${MAX}, 1, ${MIN}], "byNumber": {"${MAX}": "max", "5": "five"}, "tags": [{"id": ${ODD}}, {"id": -${ODD}}]}`,
      ),
      201,
    );
    assert.deepEqual(a.id, n(MAX));
    expect(await post("Account", `{"id": ${ODD}, "owner": {"id": ${MIN}}, "units": 9007199254740992, "total": 1, "big": ${MAX}}`), 201);
    expect(await post("Account", `{"id": 1, "units": ${ODD}, "total": -1, "big": ${MIN}}`), 201);
  });

  test("POST answers every value and key digit for digit, and names the object in Location", async () => {
    const r = await post("Account", `{"id": -${ODD}, "owner": {"id": ${MAX}}, "units": ${MAX}, "total": ${MIN}, "history": [${ODD}]}`);
    const a = expect(r, 201);
    assert.equal(r.headers.get("location"), `/${P}.Account/-${ODD}`);
    assert.deepEqual([a.id, a.units, a.total, a.owner.id, a.history], [n(`-${ODD}`), n(MAX), n(MIN), n(MAX), [n(ODD)]]);
    expect(await h.del(`/${P}.Account/-${ODD}`), 204);
  });

  test("GET by key answers what was stored: fields, a reference, a mapped-by set, a join-table list, a List<Long>, Map<Long, String> keys", async () => {
    const a = expect(await h.get(`/${P}.Account/${MAX}?fetchGroup=all&maxFetchDepth=2`), 200);
    assert.deepEqual([a.id, a.units, a.total, a.big], [n(MAX), n(MIN), n(ODD), n(`-${ODD}`)]);
    assert.deepEqual(a.history, [n(MAX), 1, n(MIN)]);
    assert.deepEqual(Object.keys(a.byNumber).sort(), ["5", MAX]);
    assert.deepEqual(a.owner.id, n(MAX));
    assert.deepEqual(
      a.owner.accounts.map((x: any) => x.id),
      [n(MAX)],
    );
    assert.deepEqual(
      a.tags.map((t: any) => t.id),
      [n(ODD), n(`-${ODD}`)],
    );
    assert.deepEqual(
      a.tags[0].accounts.map((x: any) => x.id),
      [n(MAX)],
    );
    // The text itself holds the digits (not 9223372036854776000).
    const text = (await h.get(`/${P}.Account/${MAX}?fetchGroup=all`)).text;
    assert.ok(text.includes(`"id":${MAX}`) && text.includes(`"units":${MIN}`) && text.includes(`"history":[${MAX},1,${MIN}]`), text);
  });

  test("an ancestor key holding a long (read by the object path) round-trips, in Location too", async () => {
    expect(await post("Ledger", `{"id": ${MAX}, "kind": "k", "amount": ${MIN}}`), 201);
    const r = await post("Ledger", `{"id": ${ODD}, "kind": "k", "parent": {"id": ${MAX}, "kind": "k"}, "amount": ${ODD}}`);
    const l = expect(r, 201);
    assert.deepEqual([l.id, l.parent.id, l.amount], [n(ODD), n(MAX), n(ODD)]);
    const g = expect(await h.get(r.headers.get("location")!), 200);
    assert.deepEqual(g, l);
    const all = expect(await h.get(`/${P}.Ledger`), 200);
    assert.deepEqual(
      all.map((x: any) => [x.id, x.amount]),
      [
        [n(ODD), n(ODD)],
        [n(MAX), n(MIN)],
      ],
    );
  });

  test("PUT changes a long to another one past 2^53, and a path key past 2^53 finds its object", async () => {
    const a = expect(await h.put(`/${P}.Account/${ODD}`, { units: 0 }), 200);
    assert.equal(a.units, 0);
    const b = expect(await h.call("PUT", `/${P}.Account/${ODD}`, `{"units": 9007199254740992}`), 200);
    // 2^53 itself is a double (the next one is 2^53 + 2), so it reads back as a number.
    assert.equal(b.units, 9007199254740992);
    expect(await h.get(`/${P}.Account/9007199254740992`), 404);
    expect(await h.get(`/${P}.Account/9007199254740994`), 404);
  });

  test("queries compare, order and aggregate them exactly: literals, parameters, min/max, projections", async () => {
    const ids = async (r: Promise<Reply>) => expect(await r, 200).map((o: any) => o.id);
    // 2^53 + 1 and 2^53 are one double apart from nothing: only the exact integer matches.
    assert.deepEqual(await ids(filter("Account", `total == ${ODD}`)), [n(MAX)]);
    assert.deepEqual(await ids(filter("Account", "total == 9007199254740992")), []);
    assert.deepEqual(await ids(filter("Account", "total == :t", `{"t": ${ODD}}`)), [n(MAX)]);
    assert.deepEqual(await ids(filter("Account", "total == :t", `{"t": 9007199254740992}`)), []);
    assert.deepEqual(await ids(filter("Account", "units > :u", `{"u": 9007199254740992}`)), [1]);
    assert.deepEqual(await ids(filter("Account", `units == -${MAX} - 1 || big == ${MAX}`)), [n(ODD), n(MAX)]);
    // Arithmetic stays integer: units - 1 of 2^53 + 1 is 2^53, not a double's neighbour.
    assert.deepEqual(await ids(filter("Account", "units - 1 == 9007199254740992")), [1]);
    assert.deepEqual(await ids(filter("Account", "units + :d == :e", `{"d": -1, "e": 9007199254740992}`)), [1]);
    // A key parameter, a reference by key, a collection parameter, contains on a List<Long>.
    assert.deepEqual(await ids(filter("Account", "id == :k", `{"k": ${MAX}}`)), [n(MAX)]);
    assert.deepEqual(await ids(filter("Account", "owner == :o", `{"o": ${MIN}}`)), [n(ODD)]);
    assert.deepEqual(await ids(filter("Account", ":ks.contains(id)", `{"ks": [${MAX}, 1]}`)), [1, n(MAX)]);
    assert.deepEqual(await ids(filter("Account", `history.contains(${MIN})`)), [n(MAX)]);
    assert.deepEqual(await ids(filter("Account", "history.contains(:h)", `{"h": ${MAX}}`)), [n(MAX)]);
    // Ordering and min/max over values a double would make equal.
    const ordered = expect(await query(`SELECT id, big FROM ${P}.Account ORDER BY big DESC`), 200);
    assert.deepEqual(ordered, [
      [n(ODD), n(MAX)],
      [n(MAX), n(`-${ODD}`)],
      [1, n(MIN)],
    ]);
    assert.deepEqual(expect(await query(`SELECT min(units), max(units), max(id), min(big), count(this) FROM ${P}.Account`), 200), [
      n(MIN),
      n(ODD),
      n(MAX),
      n(MIN),
      3,
    ]);
    assert.deepEqual(
      expect(await query(`SELECT owner FROM ${P}.Account WHERE owner != null ORDER BY id ASC`), 200).map((o: any) => o.id),
      [n(MIN), n(MAX)],
    );
    assert.deepEqual(expect(await query(`SELECT units - 1, units FROM ${P}.Account WHERE id == 1`), 200), [[9007199254740992, n(ODD)]]);
    assert.deepEqual(
      expect(await h.get(`/jpql?query=${encodeURIComponent(`SELECT a.id FROM Account a WHERE a.big = ${MAX}L OR a.total = ${ODD}`)}`), 200).sort(),
      [n(MAX), n(ODD)].sort(),
    );
  });

  test("values no Java type holds are refused with their path: 422 in a body, 400 as a parameter or key", async () => {
    const r = expect(
      await post("Account", `{"id": 9223372036854775808, "units": -9223372036854775809, "total": 1e19, "big": 18446744073709551616, "history": [1, ${MAX}0]}`),
      422,
    );
    assert.deepEqual(r.errors.map((e: any) => e.path).sort(), ["/big", "/history/1", "/id", "/total", "/units"]);
    assert.match(r.errors.find((e: any) => e.path === "/big").message, /BigInteger is stored as a 64-bit integer/);
    const fraction = expect(await post("Account", `{"id": 2, "units": 9007199254740993.5}`), 422);
    assert.deepEqual(
      fraction.errors.map((e: any) => e.path),
      ["/units"],
    );
    expect(await h.get(`/${P}.Account/9223372036854775808`), 400);
    expect(await h.get(`/${P}.Account?filter=${encodeURIComponent("id == :k")}&params=${encodeURIComponent(`{"k": "${MAX}"}`)}`), 400);
  });

  test("a generated key moves past a client's number, and stops at the largest long (409, nothing written)", async () => {
    expect(await post("Entry", `{"id": ${ODD}, "note": "given"}`), 201);
    const next = expect(await post("Entry", `{"note": "generated"}`), 201);
    assert.equal(next.id, 9007199254740994);
    expect(await post("Entry", `{"id": 9223372036854775806, "note": "near the end"}`), 201);
    const r = await post("Entry", `{"note": "one too many"}`);
    assert.equal(r.status, 409, r.text);
    assert.match(exact(r).detail, /largest long/);
    assert.equal((await h.sql("SELECT count(*) FROM ENTRY"))[0]![0], 3);
  });
});

test("an extent read page by page walks keys past 2^53 exactly once, in key order (the cursor keeps their digits)", async () => {
  const paged = await startHarness(MODEL, { pageSize: 2, firstPageSize: 1 });
  try {
    const keys = [MIN, `-${ODD}`, "-1", "0", "9007199254740992", ODD, "9007199254740994", MAX];
    for (const k of keys) expect(await paged.call("POST", `/${P}.Tag`, `{"id": ${k}, "label": "t"}`), 201);
    for (const maxFetchDepth of [1, -1]) {
      const all = expect(await paged.get(`/${P}.Tag?maxFetchDepth=${maxFetchDepth}`), 200);
      assert.deepEqual(
        all.map((t: any) => String(t.id)),
        keys,
        `maxFetchDepth=${maxFetchDepth}`,
      );
    }
  } finally {
    paged.close();
  }
});

describe("BigDecimals: stored exactly, compared and sorted as numbers", () => {
  const BIG = "123456789012345678901234567890.123456789";
  /** price per account id; 100.10 and 100.1 are one value. */
  const PRICES: [number, string][] = [
    [101, BIG],
    [102, "100.10"],
    [103, "100.1"],
    [104, "-0.000000000000000000001"],
    [105, "1e21"],
    [106, "100.09999999999999999999"],
    [107, "-100"],
    [108, "0"],
    [109, "99.999999999999999999999999"],
    [110, `-${BIG}`],
  ];
  const ids = (r: Reply) => expect(r, 200).map((o: any) => (typeof o === "object" && o !== null && !(o instanceof JsonNumber) ? o.id : o));

  before(async () => {
    for (const [id, price] of PRICES) expect(await post("Account", `{"id": ${id}, "price": ${price}, "amounts": [${price}, 0.1]}`), 201);
  });

  test("a BigDecimal round-trips digit for digit through POST, GET (JSON select and object path) and PUT, and a List<BigDecimal> too", async () => {
    const r = await post("Account", `{"id": 100, "price": ${BIG}, "amounts": [${BIG}, -${BIG}]}`);
    assert.ok(r.text.includes(`"price":${BIG}`) && r.text.includes(`"amounts":[${BIG},-${BIG}]`), r.text);
    for (const depth of [1, -1]) {
      const text = (await h.get(`/${P}.Account/100?fetchGroup=all&maxFetchDepth=${depth}`)).text;
      assert.ok(text.includes(`"price":${BIG}`) && text.includes(`"amounts":[${BIG},-${BIG}]`), text);
    }
    const put = await h.call("PUT", `/${P}.Account/100`, `{"price": 0.10000000000000000000000000001}`);
    assert.ok(put.text.includes(`"price":0.10000000000000000000000000001`), put.text);
    // Every spelling of one value is that value, written as JavaScript writes a number.
    const spelt = await h.call("PUT", `/${P}.Account/100`, `{"price": "1250.00e-2"}`);
    assert.deepEqual(exact(spelt).price, 12.5);
    expect(await h.del(`/${P}.Account/100`), 204);
  });

  test("queries compare, sort, group and take min/max exactly: literals, parameters, ORDER BY, GROUP BY", async () => {
    const where = (f: string, params?: string) => filter("Account", `id > 100 && id < 200 && ${f}`, params);
    assert.deepEqual(ids(await where("price > 100.10")), [101, 105]);
    assert.deepEqual(ids(await where("price == 100.1")), [102, 103]);
    assert.deepEqual(ids(await where("price < 100.1 && price > 100.09999999999999999998")), [106]);
    assert.deepEqual(ids(await where("price == :p", `{"p": 100.10}`)), [102, 103]);
    assert.deepEqual(ids(await where("price == :p", `{"p": ${BIG}}`)), [101]);
    assert.deepEqual(ids(await where("price >= :p", `{"p": 100.09999999999999999999}`)), [101, 102, 103, 105, 106]);
    assert.deepEqual(ids(await where(":ps.contains(price)", `{"ps": [100.1, -${BIG}]}`)), [102, 103, 110]);
    assert.deepEqual(ids(await where("price == null")), []);
    const ordered = expect(await query(`SELECT id FROM ${P}.Account WHERE id > 100 && id < 200 ORDER BY price ASC, id ASC`), 200);
    assert.deepEqual(ordered, [110, 107, 104, 108, 109, 106, 102, 103, 105, 101]);
    const [min, max, count] = expect(await query(`SELECT min(price), max(price), count(DISTINCT price) FROM ${P}.Account WHERE id > 100 && id < 200`), 200);
    assert.deepEqual([min, max, count], [n(`-${BIG}`), n(BIG), 9]);
    assert.ok((await query(`SELECT max(price) FROM ${P}.Account`)).text.includes(BIG));
    const grouped = expect(
      await query(`SELECT price, count(this) FROM ${P}.Account WHERE id > 100 && id < 200 && price > 99 && price < 101 GROUP BY price ORDER BY price ASC`),
      200,
    );
    assert.deepEqual(grouped, [
      [n("99.999999999999999999999999"), 1],
      [n("100.09999999999999999999"), 1],
      [100.1, 2],
    ]);
    const jpql = await h.get(`/jpql?query=${encodeURIComponent(`SELECT a.id FROM Account a WHERE a.price = ${BIG}BD OR a.price = 100.10BD ORDER BY a.id`)}`);
    assert.deepEqual(expect(jpql, 200), [101, 102, 103]);
    const having = expect(
      await query(`SELECT price FROM ${P}.Account WHERE id > 100 && id < 200 GROUP BY price HAVING max(price) >= 1e21 ORDER BY price DESC`),
      200,
    );
    assert.deepEqual(having, [n(BIG), 1e21]);
  });

  test("arithmetic and aggregates that compute (sum, avg, *) read a BigDecimal as a double: the one approximation", async () => {
    const [sum, doubled] = expect(await query(`SELECT sum(price), max(price * 2) FROM ${P}.Account WHERE id == 102 || id == 103`), 200);
    assert.equal(sum, 200.2);
    assert.equal(doubled, 200.2);
    assert.equal(expect(await query(`SELECT price * 1 FROM ${P}.Account WHERE id == 101`), 200)[0], 1.2345678901234568e29);
  });

  test("what no decimal holds is refused: 422 in a body with its path, 400 as a parameter", async () => {
    const r = expect(await post("Account", `{"id": 200, "price": 1e400, "amounts": [1, "lots"]}`), 422);
    assert.deepEqual(r.errors.map((e: any) => e.path).sort(), ["/amounts/1", "/price"]);
    assert.match(r.errors.find((e: any) => e.path === "/price").message, /out of range for a decimal/);
    expect(await filter("Account", "price == :p", `{"p": "12.5"}`), 400);
  });

  test("the sort key orders as the numbers do, for any digits and exponents", () => {
    // A fixed sequence (a linear congruential generator), the same at every run.
    let seed = 20261125;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const random = (i: number) => {
      const digits = String(Math.floor(next() * 10 ** (1 + (i % 15)))).replace(/^0+(?=\d)/, "");
      const exponent = Math.floor(next() * 80) - 40;
      return `${next() < 0.5 ? "-" : ""}${digits}e${exponent}`;
    };
    const values = Array.from({ length: 3000 }, (_, i) => random(i)).concat([
      "0",
      "-0",
      "1",
      "-1",
      "0.1",
      "0.12",
      "0.123",
      "-0.12",
      "-0.123",
      "10",
      "9.99",
      "1e-49999",
      "-1e-49999",
      "1e308",
    ]);
    // Exact comparison: both as integers scaled by 10^50000 would be too large; compare by parts.
    const compare = (a: string, b: string): number => {
      const [x, y] = [decimalOf(a)!, decimalOf(b)!];
      const sign = (d: Decimal) => (!d.digits ? 0 : d.negative ? -1 : 1);
      if (sign(x) !== sign(y)) return sign(x) - sign(y);
      if (!x.digits) return 0;
      const magnitude =
        x.exponent !== y.exponent
          ? x.exponent - y.exponent
          : x.digits.padEnd(40, "0") < y.digits.padEnd(40, "0")
            ? -1
            : x.digits.padEnd(40, "0") > y.digits.padEnd(40, "0")
              ? 1
              : 0;
      return x.negative ? -magnitude : magnitude;
    };
    const byKey = [...values].sort((a, b) => {
      const [ka, kb] = [decimalKey(decimalOf(a)!), decimalKey(decimalOf(b)!)];
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
    for (let i = 1; i < byKey.length; i++) assert.ok(compare(byKey[i - 1]!, byKey[i]!) <= 0, `${byKey[i - 1]} sorts before ${byKey[i]}`);
    // Every spelling of one value has one key (so = compares values).
    for (const [a, b] of [
      ["100.10", "1.001e2"],
      ["-0", "0.000"],
      ["12", "1200e-2"],
      ["1e21", "1000000000000000000000.0"],
    ])
      assert.equal(decimalKey(decimalOf(a!)!), decimalKey(decimalOf(b!)!), `${a} and ${b}`);
  });
});

test("a database of an earlier release (BigDecimal columns NUMERIC, holding doubles) is converted at start-up, and compares exactly after", async () => {
  const dir = mkdtempSync(join(tmpdir(), "extent-earlier-"));
  const url = `file:${join(dir, "earlier.db")}`;
  const first = await startHarness({ ...MODEL, url, autoCreateSchema: false });
  try {
    // The table as the earlier release created it, and its values: doubles in a NUMERIC column.
    await first.store.inner.migrate([
      {
        sql: 'CREATE TABLE "ACCOUNT" ("id" INTEGER, "OWNER_ID" INTEGER, "units" INTEGER, "total" INTEGER, "big" INTEGER, "price" NUMERIC, "rate" REAL, "history" TEXT, "amounts" TEXT, "byNumber" TEXT, PRIMARY KEY ("id"))',
        params: [],
      },
    ]);
    await first.store.inner.migrate([
      {
        sql: 'INSERT INTO "ACCOUNT" ("id", "units", "rate", "price") VALUES (1, 0, 0, 100.1), (2, 0, 0, 12), (3, 0, 0, -0.5), (4, 0, 0, 1e21), (5, 0, 0, NULL)',
        params: [],
      },
    ]);
  } finally {
    first.close();
  }
  const h2 = await startHarness({ ...MODEL, url });
  try {
    assert.deepEqual(await h2.sql('SELECT "id", "price" FROM "ACCOUNT" ORDER BY "id"'), [
      [1, "3500031001 100.1"],
      [2, "35000212 12"],
      [3, "1499994~ -0.5"],
      [4, "3500221 1e+21"],
      [5, null],
    ]);
    const r = expect(await h2.call("POST", `/${P}.Account`, `{"id": 6, "price": 100.10}`), 201);
    assert.equal(r.price, 100.1);
    assert.deepEqual(
      expect(await h2.get(`/${P}.Account?filter=${encodeURIComponent("price == 100.1")}`), 200).map((a: any) => a.id),
      [1, 6],
    );
    assert.deepEqual(
      expect(await h2.get(`/jdoql?query=${encodeURIComponent(`SELECT id FROM ${P}.Account WHERE price != null ORDER BY price ASC`)}`), 200),
      [3, 2, 1, 6, 4],
    );
  } finally {
    h2.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a number a double cannot hold keeps its digits wherever its point or exponent is (the quick test before the exact one misses none)", () => {
  const digits = "12345678901234567";
  const texts = [digits, `-${digits}`, "1e400", "-2.5E-400", "1.0000000000000001e5"];
  for (let point = 1; point < digits.length; point++) texts.push(`${digits.slice(0, point)}.${digits.slice(point)}`);
  for (const text of texts) {
    const read = (parseJson(`{"a": [0, ${text}]}`) as { a: unknown[] }).a[1];
    assert.deepEqual(decimalOf(read instanceof JsonNumber ? read.text : String(read)), decimalOf(text), text);
  }
});
