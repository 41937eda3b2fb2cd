/**
 * Values at the edges of what the server takes (issue 16), on the sample world:
 *
 * - long keys: String keys around and past `keyBytes` (1024 UTF-8 bytes; characters of 1 to 4
 *   bytes, so that characters and bytes differ) in paths, bodies (own keys, ancestor keys, the key
 *   object of a DELETE) and entity parameters, and past `urlBytes` in a path. A key whose bytes
 *   are surely past the limit must be refused as the README says (422 in a body, 400 in a path or
 *   parameter), one surely within it must not be refused for its length;
 * - extreme numbers: longs at and past ±2^63, doubles at the extremes (1e308, 5e-324, -0, past
 *   them), BigDecimals of hundreds of digits, dates at and past JavaScript's range, in bodies,
 *   path keys, parameters and query literals, and aggregates over what was stored.
 *
 * Numbers are placed as raw JSON text, so that what `JSON.stringify` cannot write (`-0`, `1e999`,
 * 400 digits) reaches the server as a client would send it.
 */
import fc from "fast-check";
import { DEFAULT_LIMITS } from "../../src/config/limits.ts";
import { type FuzzRequest, request } from "./arbitraries.ts";
import { PKG } from "./model.ts";

const q = encodeURIComponent;
const JSON_TYPE = { "content-type": "application/json" };
const KEY_BYTES = DEFAULT_LIMITS.keyBytes;

// --- Long keys ----------------------------------------------------------------------------------

/** A string of exactly `bytes` UTF-8 bytes, of characters `ch` (1 to 4 bytes each) padded with "x". */
function ofBytes(bytes: number, ch: string): string {
  const size = Buffer.byteLength(ch);
  return ch.repeat(Math.floor(bytes / size)) + "x".repeat(bytes % size);
}

/** Key texts around the limit (most), far past it, and past what a URL may carry. */
const longKey = fc
  .tuple(
    fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: KEY_BYTES - 8, max: KEY_BYTES + 8 }) },
      { weight: 2, arbitrary: fc.integer({ min: KEY_BYTES - 200, max: KEY_BYTES + 200 }) },
      { weight: 1, arbitrary: fc.constantFrom(2 * KEY_BYTES, 10_000, 40_000) },
    ),
    fc.constantFrom("x", "é", "€", "𝕏", "a/b", "%", "é𝕏"),
  )
  .map(([bytes, ch]) => ofBytes(bytes, ch));

const bytesOf = (s: string) => Buffer.byteLength(s);
/**
 * The statuses a key of `bytes` allows: `refused` past the limit, `accepted` within it, either
 * within `slack` of it (a composite key adds its other parts, an ancestor's JSON, to the count).
 */
function byLength(bytes: number, refused: number[], accepted: number[], slack = 0): number[] {
  if (bytes > KEY_BYTES + slack) return refused;
  if (bytes <= KEY_BYTES - slack) return accepted;
  return [...new Set([...refused, ...accepted])];
}

const longKeyRequests: fc.Arbitrary<FuzzRequest>[] = [
  // Own String keys in bodies: Member's email, Shelf's code.
  fc.tuple(longKey, fc.constantFrom("Member", "Shelf")).map(([key, cls]) => {
    const body = cls === "Member" ? { email: key, name: "long" } : { code: key, label: "long" };
    return request("create", "POST", `/${PKG}.${cls}`, JSON.stringify(body), JSON_TYPE, byLength(bytesOf(key), [422], [201, 409]));
  }),
  // A composite key with an ancestor: its parts (and the ancestor's JSON) are summed.
  fc.tuple(longKey, fc.boolean()).map(([kind, inParent]) => {
    const body = inParent ? { id: 9, kind: "t", parent: { id: 1, kind: kind }, name: "c" } : { id: 9, kind: kind, name: "c" };
    return request("create", "POST", `/${PKG}.Category`, JSON.stringify(body), JSON_TYPE, byLength(bytesOf(kind), [422], [201, 409, 422], 64));
  }),
  // The key object of a DELETE on the class path.
  longKey.map((key) => request("delete", "DELETE", `/${PKG}.Member`, JSON.stringify({ email: key }), JSON_TYPE, byLength(bytesOf(key), [422], [204, 404]))),
  // Path keys: GET, HEAD, PUT, DELETE.
  fc.tuple(longKey, fc.constantFrom("GET", "HEAD", "PUT", "DELETE"), fc.boolean()).map(([key, method, composite]) => {
    const segment = composite ? q(JSON.stringify({ id: 1, kind: key })) : q(key);
    const cls = composite ? "Category" : "Member";
    const kind = method === "PUT" ? "update" : method === "DELETE" ? "delete" : "read";
    const found = method === "DELETE" ? [204, 404] : [200, 404]; // earlier cases may have made it
    const body = method === "PUT" ? JSON.stringify({ name: "renamed" }) : undefined;
    return request(kind, method, `/${PKG}.${cls}/${segment}`, body, body ? JSON_TYPE : {}, byLength(bytesOf(key), [400], found, composite ? 64 : 0));
  }),
  // Entity parameters: the key alone, a key object, a collection of them; and a plain String parameter, which has no key limit.
  fc.tuple(longKey, fc.nat(5)).map(([key, form]) => {
    const [lang, text, value] = [
      ["jdoql", `SELECT FROM ${PKG}.Member WHERE this == :p`, key],
      ["jdoql", `SELECT FROM ${PKG}.Member WHERE :p.contains(this)`, [key, "ada@example.org"]],
      ["jdoql", `SELECT FROM ${PKG}.Member WHERE JDOHelper.getObjectId(this) == :p`, { email: key }],
      ["jpql", "SELECT m FROM Member m WHERE m = :p", { class: `${PKG}.Member`, email: key }],
      ["jpql", "SELECT c FROM Category c WHERE c = :p", { id: 1, kind: key }],
      ["jdoql", `SELECT FROM ${PKG}.Member WHERE email == :p`, key],
    ][form] as [string, string, unknown];
    const expect = form === 5 ? [200] : byLength(bytesOf(key), [400], [200], form === 4 ? 64 : 0);
    return request(lang as "jdoql" | "jpql", "GET", `/${lang}?query=${q(text)}&params=${q(JSON.stringify({ p: value }))}`, undefined, {}, expect);
  }),
];

export const longKeyRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(...longKeyRequests);

// --- Extreme numbers ----------------------------------------------------------------------------

const zeros = (n: number) => "0".repeat(n);
const LONGS = [
  "9223372036854775807",
  "9223372036854775808",
  "-9223372036854775808",
  "-9223372036854775809",
  "18446744073709551615",
  "18446744073709551616",
  "9007199254740991",
  "9007199254740992",
  "9007199254740993",
  "-9007199254740993",
  "4611686018427387904",
  "2147483647",
  "2147483648",
  "-2147483649",
  "1e19",
  "-1e19",
  "9.223372036854775807e18",
  "0",
  "-0",
  `1${zeros(400)}`,
  `-1${zeros(40)}`,
  "1e308",
  "1e309",
  "5e-324",
];
const DOUBLES = [
  "1e308",
  "1.7976931348623157e308",
  "1.7976931348623158e308",
  "1.8e308",
  "-1.7976931348623157e308",
  "5e-324",
  "4.9e-324",
  "2.4e-324",
  "2.2250738585072014e-308",
  "2.225073858507201e-308",
  "-0",
  "-0.0",
  "0.0",
  "1e-400",
  "1e999",
  "-1e999",
  "0.1",
  "1e16",
  "123456789.123456789",
];
const DECIMALS = [
  "123456789012345678901234567890.123456789",
  `${"9".repeat(300)}.${"9".repeat(300)}`,
  `-${"1234567890".repeat(20)}`,
  `0.${zeros(400)}1`,
  `1${zeros(2000)}`,
  "1e-400",
  "1e+400",
  "9.99999999999999999999e307",
  "-0.00",
  "12.50",
];
const DATES = [
  "8640000000000000",
  "8640000000000001",
  "-8640000000000000",
  "-8640000000000001",
  "9223372036854775807",
  "-9223372036854775808",
  "1e20",
  "253402300799999",
  "-62167219200000",
  "-62167219200001",
  "0",
  "-1",
  ...[
    "+275760-09-13T00:00:00.000Z",
    "+275760-09-13T00:00:00.001Z",
    "-271821-04-20T00:00:00.000Z",
    "-271821-04-19T23:59:59.999Z",
    "9999-12-31T23:59:59.999Z",
    "0000-01-01T00:00:00Z",
    "-000001-12-31T00:00:00Z",
    "+010000-01-01",
    "275760-09-13",
    "2024-02-29",
    "1970-01-01T00:00:00.000000001Z",
  ].map((d) => JSON.stringify(d)),
];

/** Raw JSON text of a number of each kind: a listed extreme, or a random one of the kind's range and beyond. */
const longNumber = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...LONGS) },
  { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 65n), max: 2n ** 65n }).map(String) },
);
const doubleText = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...DOUBLES) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => (Object.is(d, -0) ? "-0" : String(d))) },
);
const decimalText = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...DECIMALS) },
  { weight: 1, arbitrary: fc.tuple(fc.stringMatching(/^-?[1-9][0-9]{20,400}$/), fc.stringMatching(/^[0-9]{0,400}$/)).map(([i, f]) => (f ? `${i}.${f}` : i)) },
);
const dateText = fc.constantFrom(...DATES);
const numberText = fc.oneof(longNumber, doubleText, decimalText);

/** A body with extreme values in some of the fields of a class (the others plain). */
const extremeBodies: fc.Arbitrary<{ cls: string; body: string }> = fc.oneof(
  fc
    .record({
      id: fc.option(longNumber),
      pages: fc.option(longNumber),
      price: fc.option(fc.oneof(decimalText, doubleText)),
      published: fc.option(dateText),
      version: fc.option(longNumber),
    })
    .map((v) => ({
      cls: "Book",
      body: `{"title":"extreme"${Object.entries(v)
        .map(([f, t]) => (t === null ? "" : `,"${f}":${t}`))
        .join("")}}`,
    })),
  fc.record({ born: dateText }).map((v) => ({ cls: "Author", body: `{"name":"extreme","born":${v.born}}` })),
  fc.tuple(fc.nat(), dateText).map(([n, joined]) => ({ cls: "Member", body: `{"email":"n${n}@extreme.example","name":"x","joined":${joined}}` })),
  fc
    .tuple(longNumber, fc.option(longNumber))
    .map(([id, parent]) => ({ cls: "Category", body: `{"id":${id},"kind":"x","name":"extreme"${parent ? `,"parent":{"id":${parent},"kind":"genre"}` : ""}}` })),
  fc.tuple(fc.constantFrom("issue", "price"), numberText).map(([f, t]) => ({ cls: "Magazine", body: `{"title":"extreme","${f}":${t}}` })),
);

/** JDOQL and JPQL texts with extreme literals, or `:p` to be given one; aggregates over what was stored. */
const JDOQL_TEMPLATES = [
  `SELECT FROM ${PKG}.Item WHERE id == $`,
  `SELECT FROM ${PKG}.Item WHERE price > $`,
  `SELECT FROM ${PKG}.Book WHERE pages < $`,
  `SELECT FROM ${PKG}.Item WHERE price == $ || id != $`,
  `SELECT id + $ FROM ${PKG}.Item`,
  `SELECT id * $ FROM ${PKG}.Item`,
  `SELECT $ / id FROM ${PKG}.Item`,
  `SELECT $ % 7 FROM ${PKG}.Item`,
  `SELECT Math.abs($) FROM ${PKG}.Item`,
  `SELECT Math.sqrt($), Math.exp($) FROM ${PKG}.Item`,
  `SELECT (int) $ FROM ${PKG}.Item`,
  `SELECT (long) $ FROM ${PKG}.Item`,
  `SELECT (double) $ FROM ${PKG}.Item`,
  `SELECT max(price) - $ FROM ${PKG}.Item`,
  `SELECT price FROM ${PKG}.Item ORDER BY price RANGE 0, $`,
  `SELECT FROM ${PKG}.Item WHERE JDOHelper.getVersion(this) == $`,
];
const JDOQL_FIXED = [
  `SELECT sum(id), sum(version), avg(price) FROM ${PKG}.Item`,
  `SELECT sum(price), max(price), min(price) FROM ${PKG}.Item`,
  `SELECT sum(pages), avg(pages) FROM ${PKG}.Book`,
  `SELECT Long.MAX_VALUE + 1, Long.MIN_VALUE - 1, Long.MIN_VALUE / -1, -Long.MIN_VALUE FROM ${PKG}.Item`,
  `SELECT Math.abs(Long.MIN_VALUE) FROM ${PKG}.Item`,
  `SELECT id * 9223372036854775807 FROM ${PKG}.Item`,
  `SELECT sum(id * 4611686018427387904) FROM ${PKG}.Item`,
  `SELECT FROM ${PKG}.Item ORDER BY price DESC, published`,
  `SELECT published, count(this) FROM ${PKG}.Item GROUP BY published`,
  `SELECT max(born), min(born) FROM ${PKG}.Author`,
  `SELECT FROM ${PKG}.Member ORDER BY joined`,
  `SELECT published.getYear(), published.getMonth() FROM ${PKG}.Item`,
  `SELECT born.getYear() FROM ${PKG}.Author`,
  `SELECT FROM ${PKG}.Category ORDER BY id`,
];
const JPQL_TEMPLATES = [
  "SELECT e FROM Item e WHERE e.id = $",
  "SELECT e FROM Item e WHERE e.price > $",
  "SELECT e.id + $, e.id * $ FROM Item e",
  "SELECT ABS($), SQRT($), SIGN($) FROM Item e",
  "SELECT MOD($, 7), MOD(7, $) FROM Item e",
  "SELECT POWER($, 2), EXP($), LN($) FROM Item e",
  "SELECT ROUND($, 2), ROUND(e.price, $) FROM Item e",
  "SELECT FLOOR($), CEILING($) FROM Item e",
  "SELECT CAST($ AS INTEGER), CAST($ AS DOUBLE) FROM Item e",
  "SELECT e FROM Book e WHERE e.pages BETWEEN $ AND $",
  "SELECT e FROM Item e WHERE e.id IN ($, 1, 2)",
];
const JPQL_FIXED = [
  "SELECT SUM(e.id), SUM(e.price), AVG(e.price) FROM Item e",
  "SELECT SUM(b.pages), MAX(b.pages) FROM Book b",
  "SELECT MAX(e.published), MIN(e.published) FROM Item e",
  "SELECT EXTRACT(YEAR FROM e.published) FROM Item e",
  "SELECT e FROM Item e ORDER BY e.price, e.published",
  "SELECT c FROM Category c ORDER BY c.id DESC",
  "SELECT SUM(e.id * 4611686018427387904) FROM Item e",
  "SELECT MOD(-9223372036854775808, -1), -(-9223372036854775808) FROM Item e",
];

/** A query literal: the number's text as the grammar may write it (JDOQL takes L, d and f suffixes). */
const literal = (lang: "jdoql" | "jpql") =>
  fc.oneof(
    numberText.map((t) => (t.startsWith("-") ? `(${t})` : t)),
    lang === "jdoql"
      ? fc.constantFrom(
          "9223372036854775807L",
          "Long.MAX_VALUE",
          "Long.MIN_VALUE",
          "Integer.MAX_VALUE",
          "1e308d",
          "1.0e-45f",
          "3.4028235e38f",
          "0x7fffffffffffffff",
        )
      : fc.constantFrom("9223372036854775807L", "1e308D", "3.4028235e38F", "-9223372036854775808"),
  );

const queryRequests: fc.Arbitrary<FuzzRequest>[] = (["jdoql", "jpql"] as const).flatMap((lang) => {
  const templates = lang === "jdoql" ? JDOQL_TEMPLATES : JPQL_TEMPLATES;
  const fixed = lang === "jdoql" ? JDOQL_FIXED : JPQL_FIXED;
  const path = (text: string, params?: string) => `/${lang}?query=${q(text)}${params === undefined ? "" : `&params=${q(params)}`}`;
  return [
    fc.tuple(fc.constantFrom(...templates), literal(lang), literal(lang)).map(([t, a, b]) => request(lang, "GET", path(t.replace("$", a).replaceAll("$", b)))),
    // The same with parameters: extreme numbers, and dates for the date templates, as raw JSON.
    fc.tuple(fc.constantFrom(...templates), fc.oneof(numberText, dateText)).map(([t, p]) => request(lang, "GET", path(t.replaceAll("$", ":p"), `{"p":${p}}`))),
    fc.constantFrom(...fixed).map((t) => request(lang, "GET", path(t))),
  ];
});

const dateQueries = fc
  .tuple(
    fc.constantFrom(
      `SELECT FROM ${PKG}.Item WHERE published < :p`,
      `SELECT FROM ${PKG}.Author WHERE born >= :p`,
      `SELECT FROM ${PKG}.Member WHERE joined == :p`,
      `SELECT FROM ${PKG}.Item WHERE published.getYear() > :p`,
    ),
    dateText,
  )
  .map(([text, p]) => request("jdoql", "GET", `/jdoql?query=${q(text)}&params=${q(`{"p":${p}}`)}`));

export const extremeNumberRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  { weight: 4, arbitrary: extremeBodies.map(({ cls, body }) => request("create", "POST", `/${PKG}.${cls}`, body, JSON_TYPE)) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom(1, 2, 3),
        extremeBodies.filter((b) => b.cls === "Book"),
      )
      .map(([id, { body }]) => request("update", "PUT", `/${PKG}.Book/${id}`, body.replace(/,"id":[^,}]+/, ""), JSON_TYPE)),
  },
  { weight: 1, arbitrary: longNumber.map((id) => request("read", "GET", `/${PKG}.Item/${q(id)}`)) },
  { weight: 1, arbitrary: longNumber.map((id) => request("read", "GET", `/${PKG}.Category/${q(`{"id":${id},"kind":"genre"}`)}`)) },
  { weight: 6, arbitrary: fc.oneof(...queryRequests) },
  { weight: 1, arbitrary: dateQueries },
);
