/**
 * Generated HTTP requests on the sample model: bodies for POST and PUT, keys in paths and bodies,
 * fetch-plan query strings, headers. Values are mostly of the right kind (so that requests get
 * past the first check and reach the store) and otherwise hostile (json.ts).
 */
import fc from "fast-check";
import { deepNesting, hostile, jsonText, sometimes, unknownName } from "./json.ts";
import { CLASSES, EXISTING_KEYS, type FieldKind, GENRES, MISSING_KEYS, PKG, SIMPLE_NAMES, type Simple, fullName, keyObject } from "./model.ts";

/** What a request is, for the statuses it may answer (properties.ts). */
export type RequestKind = "create" | "update" | "delete" | "read" | "filter" | "jdoql" | "jpql" | "method";

export interface FuzzRequest {
  kind: RequestKind;
  method: string;
  path: string;
  body?: string;
  headers: Record<string, string>;
  /**
   * The statuses this request may answer, when its generator knows them (a key past keyBytes must
   * be refused): instead of its kind's. 503 (the time limit) and 414 (a URL past urlBytes) stay allowed.
   */
  expect?: number[];
}

/** A request printed short: paths and bodies longer than `max` are cut, with their length. */
export function describeRequest(r: FuzzRequest, max = 400): string {
  const cut = (s: string) => (s.length > max ? `${s.slice(0, max)}… (${s.length} chars)` : s);
  const headers = Object.keys(r.headers).length ? ` ${JSON.stringify(r.headers)}` : "";
  return `${r.method} ${cut(r.path)}${headers}${r.body === undefined ? "" : ` body ${cut(JSON.stringify(r.body))}`}`;
}

export function request(kind: RequestKind, method: string, path: string, body?: string, headers: Record<string, string> = {}, expect?: number[]): FuzzRequest {
  return { kind, method, path, body, headers, expect, [fc.toStringMethod]: () => describeRequest({ kind, method, path, body, headers }) } as FuzzRequest;
}

// --- Values of each field kind -------------------------------------------------------------------

// Four-digit years: ISO-8601's extended years (+275760-…) are among the hostile strings.
const isoDate = fc.date({ noInvalidDate: true, min: new Date("0000-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z") });

const GOOD: Record<Exclude<FieldKind, object>, fc.Arbitrary<unknown>> = {
  string: fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: "grapheme", maxLength: 8 })),
  int: fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.integer()),
  long: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.maxSafeInteger()),
  decimal: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom("12.50", "-0", "1e3", "1e400", "1e-400", "0.1")),
  date: fc.oneof(
    fc.maxSafeInteger(),
    isoDate.map((d) => d.toISOString()),
    fc.constantFrom("2024-01-01", "2024-01-01T10:00", "2024-01-01T10:00:00+02:00"),
  ),
  localdate: fc.oneof(
    fc.maxSafeInteger(),
    isoDate.map((d) => d.toISOString().slice(0, 10)),
  ),
  instant: fc.oneof(
    fc.maxSafeInteger(),
    isoDate.map((d) => d.toISOString()),
  ),
  uuid: fc.oneof(
    fc.uuid(),
    fc.uuid().map((u) => u.toUpperCase()),
  ),
  enum: fc.oneof(fc.constantFrom(...GENRES), fc.integer({ min: -1, max: 4 })),
  strings: fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.constant(null)), { maxLength: 4 }),
  map: fc
    .array(
      fc.tuple(
        fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("home", "", "__proto__", "constructor", "toString")),
        fc.oneof(fc.string({ maxLength: 8 }), fc.constant(null)),
      ),
      { maxLength: 3 },
    )
    .map((entries) => Object.fromEntries(entries)), // fromEntries: "__proto__" as an own key
  address: fc.record(
    { street: fc.string({ maxLength: 8 }), city: fc.string({ maxLength: 8 }), country: fc.constantFrom("US", "PL", null) },
    { requiredKeys: [] },
  ),
  categoryKey: fc.constant(null), // replaced below: it needs the key pools
};

/** A category's ancestor key: an existing one, a missing one, none, or deeper chains. */
const categoryParent: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, ...EXISTING_KEYS.Category, ...MISSING_KEYS.Category),
  fc.integer({ min: 1, max: 300 }).map((n) => {
    let key: unknown = null;
    for (let i = 0; i < n; i++) key = { id: i, kind: "chain", parent: key };
    return key;
  }),
);
GOOD.categoryKey = categoryParent;

/** A key value of class `c`: existing, valid but missing, new, or of the wrong kind. */
function keyValue(c: Simple): fc.Arbitrary<unknown> {
  const fresh: Record<Simple, fc.Arbitrary<unknown>> = {
    Author: fc.integer({ min: 100, max: 1e9 }),
    Item: fc.integer({ min: 100, max: 1e9 }),
    Book: fc.integer({ min: 100, max: 1e9 }),
    Magazine: fc.integer({ min: 100, max: 1e9 }),
    Shelf: fc.uuid(),
    Member: fc.string({ maxLength: 10 }).map((s) => `${s}@fuzz.example`),
    Category: fc.record(
      { id: fc.integer({ min: 3, max: 1e9 }), kind: fc.constantFrom("genre", "topic", ""), parent: categoryParent },
      { requiredKeys: ["id", "kind"] },
    ),
  };
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...EXISTING_KEYS[c]) },
    { weight: 2, arbitrary: fc.constantFrom(...MISSING_KEYS[c]) },
    { weight: 3, arbitrary: fresh[c] },
    { weight: 1, arbitrary: hostile },
  );
}

/** A nested reference by identity only, sometimes naming its class. */
function identityRef(c: Simple): fc.Arbitrary<unknown> {
  return fc
    .tuple(keyValue(c), sometimes(fc.constantFrom(...CLASSES[c].concrete), 0.5))
    .map(([key, cls]) => (cls ? { class: fullName(cls), ...keyObject(c, key) } : keyObject(c, key)));
}

/** The `class` member of an object declared as `declared` that is really `actual`. */
function classTag(declared: Simple, actual: Simple): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constant(undefined) },
    { weight: 5, arbitrary: fc.constant(fullName(actual)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        fullName(declared),
        ...SIMPLE_NAMES.map(fullName),
        `${PKG}.Nope`,
        actual,
        `${PKG}.Address`,
        `${PKG}.Category$Key`,
        `${PKG}.Genre`,
        "",
        " ",
        "java.lang.Object",
        fullName(actual).toUpperCase(),
        42,
        null,
        ["x"],
        { class: fullName(actual) },
      ),
    },
  );
}

function fieldValue(kind: FieldKind, depth: number): fc.Arbitrary<unknown> {
  let good: fc.Arbitrary<unknown>;
  if (typeof kind === "string") good = GOOD[kind];
  else if ("ref" in kind) {
    good = fc.oneof(identityRef(kind.ref), fc.constant(null), ...(depth < 2 ? [objectOf(kind.ref, depth + 1)] : []));
  } else {
    const element = depth < 2 ? fc.oneof(identityRef(kind.many), objectOf(kind.many, depth + 1)) : identityRef(kind.many);
    good = fc.array(element, { maxLength: 3 });
  }
  // Rarely hostile: an object has several fields, and one bad value refuses it all.
  return fc.oneof({ weight: 12, arbitrary: good }, { weight: 1, arbitrary: hostile });
}

const objects = new Map<string, fc.Arbitrary<Record<string, unknown>>>();

/**
 * An object declared as `c` at nesting `depth`: its class tag, some key fields, some fields of the
 * class it really is, now and then unknown fields and a `_version`. Small key pools make the same
 * identity appear twice in one body, and nested objects point back at their owners.
 */
export function objectOf(c: Simple, depth = 0, keyChance = 0.5): fc.Arbitrary<Record<string, unknown>> {
  const id = `${c}@${depth}@${keyChance}`;
  let arb = objects.get(id);
  if (arb) return arb;
  arb = fc.constantFrom(...CLASSES[c].concrete).chain((actual) => {
    const info = CLASSES[actual];
    const fields = Object.fromEntries(Object.entries(info.fields).map(([name, kind]) => [name, fieldValue(kind, depth)]));
    return fc
      .record({
        tag: classTag(c, actual),
        key: sometimes(keyValue(actual), keyChance),
        fields: fc.record(fields, { requiredKeys: [] }),
        extra: sometimes(fc.array(fc.tuple(unknownName, hostile), { minLength: 1, maxLength: 2 }), 0.1),
        version: sometimes(fc.constantFrom(1, 2, 0, "1", null), 0.1),
      })
      .map(({ tag, key, fields, extra, version }) => {
        const entries: [string, unknown][] = [];
        if (tag !== undefined) entries.push(["class", tag]);
        if (key !== undefined) entries.push(...Object.entries(keyObject(actual, key)));
        entries.push(...Object.entries(fields));
        if (extra) entries.push(...extra);
        if (version !== undefined) entries.push(["_version", version]);
        // fromEntries makes `__proto__` an own member, written out like any other.
        return Object.fromEntries(entries);
      });
  });
  objects.set(id, arb);
  return arb;
}

/** A request body: mostly an object of the class, else any value, broken text, or too much of it. */
export function bodyText(c: Simple, keyChance = 0.5): fc.Arbitrary<string> {
  const object = objectOf(c, 0, keyChance).map(jsonText);
  return fc.oneof(
    { weight: 30, arbitrary: object },
    { weight: 2, arbitrary: hostile.map(jsonText) },
    {
      weight: 2,
      arbitrary: fc.tuple(object, fc.nat(), fc.constantFrom("cut", "insert", "trailing-comma")).map(([text, at, how]) => {
        const i = at % (text.length + 1);
        return how === "cut" ? text.slice(0, i) : how === "insert" ? text.slice(0, i) + '}]",'[at % 4] + text.slice(i) : text.replace(/}$/, ",}");
      }),
    },
    { weight: 1, arbitrary: fc.constantFrom("", " ", "{", "nul", '{"a":1,}', "\ufeff{}", "{}{}", "[]", "null", "'{}'", "{'name':'x'}", "\u0000") },
    { weight: 1, arbitrary: deepNesting.map((d) => `{"name":${d.text}}`) },
    // Just over the default limit of 1 MiB: 413, whatever the content.
    { weight: 1, arbitrary: fc.constantFrom(1024 * 1024 + 1, 2 * 1024 * 1024).map((n) => `{"name":"${"x".repeat(n)}"}`) },
  );
}

export const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant("application/json") },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "application/json; charset=utf-8",
      "application/merge-patch+json",
      "APPLICATION/JSON",
      "text/plain",
      "application/xml",
      "multipart/form-data; boundary=x",
      "application/x-www-form-urlencoded",
      "application/jsonx",
      "json",
      ";",
    ),
  },
);

export const ifMatch = sometimes(fc.constantFrom('"1"', '"2"', '"999"', "*", 'W/"1"', "garbage", '""'), 0.15);

// --- Keys in paths -------------------------------------------------------------------------------

const GARBAGE_SEGMENTS = [
  "abc",
  "-1",
  "1.5",
  "1e3",
  "0x1",
  "99999999999999999999999",
  "9007199254740993",
  "-9007199254740993",
  "%ZZ",
  "%",
  "%E0%A4%A",
  "%00",
  "null",
  "true",
  "%5B1%5D",
  "%7B%7D",
  "%5B%5D",
  "%20",
  "..",
  "%2F",
  "1%2F2",
  "%201",
  "%EF%BC%91",
  "%7B",
  "%7B%22id%22%3A1%7D",
  "%22x%22",
];

/** The `{key}` of a path for class `c`: plain values, JSON objects, garbage, huge numbers. */
export function keySegment(c: Simple): fc.Arbitrary<string> {
  const plain = (k: unknown) => encodeURIComponent(typeof k === "object" && k !== null ? JSON.stringify(k) : String(k));
  const asObject = (k: unknown) => encodeURIComponent(jsonText(keyObject(c, k)));
  return fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom(...EXISTING_KEYS[c]).map(plain) },
    { weight: 3, arbitrary: fc.constantFrom(...MISSING_KEYS[c]).map(plain) },
    { weight: 2, arbitrary: keyValue(c).map(asObject) },
    { weight: 2, arbitrary: fc.constantFrom(...GARBAGE_SEGMENTS) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.integer({ min: 20, max: 5000 }).map((n) => "9".repeat(n)) },
    { weight: 1, arbitrary: fc.record({ id: hostile, kind: hostile, parent: hostile }, { requiredKeys: [] }).map((o) => encodeURIComponent(jsonText(o))) },
    { weight: 1, arbitrary: deepNesting.map((d) => encodeURIComponent(`{"id":1,"kind":"genre","parent":${d.text}}`)) },
  );
}

/** A class segment: mostly a served class, else names the model does not serve. */
export const classSegment: fc.Arbitrary<{ simple: Simple; segment: string }> = fc.oneof(
  { weight: 20, arbitrary: fc.constantFrom(...SIMPLE_NAMES).map((simple) => ({ simple, segment: fullName(simple) })) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...SIMPLE_NAMES),
        fc.constantFrom(
          `${PKG}.Address`,
          `${PKG}.Nope`,
          `${PKG}.Category$Key`,
          `${PKG}.Genre`,
          "Author",
          "ORG.EXTENT.SAMPLE.AUTHOR",
          "jdoql",
          "query",
          "jpql",
          "%ZZ",
          "%2E%2E",
          "org.extent.sample.Author%00",
          "",
          "java.lang.Object",
        ),
      )
      .map(([simple, segment]) => ({ simple, segment })),
  },
);

// --- Fetch plans ---------------------------------------------------------------------------------

/** Mostly plans that work, so that requests get past them. */
const planParams = fc.record(
  {
    group: fc.tuple(
      fc.constantFrom("fetchGroup", "fetch"),
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom("default", "all", "withAuthor", "all,withAuthor") },
        { weight: 1, arbitrary: fc.constantFrom("bogus", "", " all ", "ALL", "default,bogus", "withAuthor,,", "%ZZ") },
      ),
    ),
    depth: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom("1", "2", "3", "-1", "10") },
      { weight: 1, arbitrary: fc.constantFrom("0", "-2", "11", "64", "65", "1000", "abc", "1.5", "1e3", "99999999999999999999", "9007199254740991", " 2", "") },
    ),
  },
  { requiredKeys: [] },
);

/** `fetchGroup` and `maxFetchDepth` as query-string pairs (raw, so `%ZZ` stays malformed). */
export const fetchPlanPairs: fc.Arbitrary<string[]> = sometimes(planParams, 0.4).map((p) => {
  if (!p) return [];
  const pairs: string[] = [];
  if (p.group) pairs.push(`${p.group[0]}=${p.group[1] === "%ZZ" ? "%ZZ" : encodeURIComponent(p.group[1])}`);
  if (p.depth !== undefined) pairs.push(`maxFetchDepth=${encodeURIComponent(p.depth)}`);
  return pairs;
});

export const query = (pairs: string[]): string => (pairs.length ? `?${pairs.join("&")}` : "");

// --- Write and read requests ----------------------------------------------------------------------

export const createRequest: fc.Arbitrary<FuzzRequest> = classSegment.chain(({ simple, segment }) =>
  fc
    .record({ body: bodyText(simple), type: contentType, plan: fetchPlanPairs })
    .map(({ body, type, plan }) => request("create", "POST", `/${segment}${query(plan)}`, body, { "content-type": type })),
);

export const updateRequest: fc.Arbitrary<FuzzRequest> = classSegment.chain(({ simple, segment }) =>
  fc
    // Key fields in a PUT body are rare: they must repeat the path's key.
    .record({ key: keySegment(simple), body: bodyText(simple, 0.1), type: contentType, plan: fetchPlanPairs, match: ifMatch })
    .map(({ key, body, type, plan, match }) =>
      request("update", "PUT", `/${segment}/${key}${query(plan)}`, body, { "content-type": type, ...(match ? { "if-match": match } : {}) }),
    ),
);

/**
 * Deletes by path key, or on the class path with the key object as body. A body is always sent on
 * the class path: without one, DELETE empties the extent (legal, tested elsewhere, and it would
 * leave the rest of the run an empty database).
 */
export const deleteRequest: fc.Arbitrary<FuzzRequest> = classSegment.chain(({ simple, segment }) =>
  fc.oneof(
    // An empty key included: `DELETE /{class}/` is a 400, never the whole extent.
    fc
      .record({ key: keySegment(simple), match: ifMatch })
      .map(({ key, match }) => request("delete", "DELETE", `/${segment}/${key}`, undefined, match ? { "if-match": match } : {})),
    fc
      .record({
        key: fc.oneof(
          keyValue(simple).map((k) => jsonText(keyObject(simple, k))),
          hostile.map(jsonText).filter((t) => t.trim() !== ""),
        ),
        type: contentType,
        qs: fc.oneof({ weight: 12, arbitrary: fc.constant("") }, { weight: 1, arbitrary: fc.constantFrom("?filter=true", "?x", "?") }),
      })
      .map(({ key, type, qs }) => request("delete", "DELETE", `/${segment}${qs}`, key, { "content-type": type })),
  ),
);

export const readRequest: fc.Arbitrary<FuzzRequest> = classSegment.chain(({ simple, segment }) =>
  fc
    .record({ method: fc.constantFrom("GET", "GET", "GET", "HEAD"), key: keySegment(simple), plan: fetchPlanPairs, match: ifMatch })
    .map(({ method, key, plan, match }) => request("read", method, `/${segment}/${key}${query(plan)}`, undefined, match ? { "if-none-match": match } : {})),
);

/** Methods a path does not take (PATCH, OPTIONS, POST on a key, PUT on a class), and unknown paths. */
export const methodRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({
    method: fc.constantFrom("PATCH", "OPTIONS", "POST", "PUT", "DELETE", "GET", "PURGE", "PROPFIND"),
    cls: classSegment,
    shape: fc.constantFrom("class", "key", "deeper", "query", "root"),
    key: fc.constantFrom("1", "2", "x", "%7B%7D"),
    body: sometimes(fc.constantFrom('{"name":"x"}', "{}", "[", "null"), 0.5),
  })
  .filter(({ method, shape }) => {
    // Only requests a path does not take: the allowed ones are the other properties' business.
    if (shape === "class") return !["GET", "POST", "DELETE"].includes(method);
    if (shape === "key") return !["GET", "PUT", "DELETE"].includes(method);
    if (shape === "query") return method !== "GET";
    if (shape === "root") return method !== "GET";
    return true;
  })
  .map(({ method, cls, shape, key, body }) => {
    const path =
      shape === "class"
        ? `/${cls.segment}`
        : shape === "key"
          ? `/${cls.segment}/${key}`
          : shape === "deeper"
            ? `/${cls.segment}/${key}/works`
            : shape === "query"
              ? `/${["jdoql", "jpql", "query"][key.length % 3]}`
              : "/";
    const sent = method === "GET" ? undefined : body; // fetch refuses a GET with a body
    return request("method", method, path, sent, sent ? { "content-type": "application/json" } : {});
  });
