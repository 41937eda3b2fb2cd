/**
 * Requests shaped to make the server do too much (issue 16), on the "bounds" world
 * (test/fuzz/world.ts: every one of 8 employees on every one of 5 projects):
 *
 * - cartesian queries: JDOQL with 1 to 9 variables besides the candidate, weakly or not at all
 *   constrained, and JPQL with 2 to 10 identification variables over the same extents (8^10
 *   rows), projecting keys and values or objects, counting, grouping, ordering, with and without
 *   RANGE;
 * - fetch plans at depth over the dense graph (40 objects more a level): GETs by key, extents,
 *   filters and queries, and the answers of POST and PUT, with
 *   `fetchGroup=all` and `maxFetchDepth` up to the cap (10) and -1.
 *
 * Each answers 200, 400 (answerBytes; or a query the grammar refuses) or 503 (requestTimeMs),
 * within the case's budget (test/fuzz/budget.ts).
 */
import fc from "fast-check";
import { type FuzzRequest, request } from "./arbitraries.ts";
import { sometimes } from "./json.ts";

export const BOUNDS = "org.test.bounds";
export const EMPLOYEES = [1, 2, 3, 4, 5, 6, 7, 8];
export const PROJECTS = [100, 101, 102, 103, 104];

type Entity = "Employee" | "Project";
/** Each entity's collection field and the entity it holds. */
const MANY: Record<Entity, { field: string; of: Entity }> = { Employee: { field: "projects", of: "Project" }, Project: { field: "members", of: "Employee" } };
const KEYS: Record<Entity, number[]> = { Employee: EMPLOYEES, Project: PROJECTS };

const q = encodeURIComponent;
const pick = <T>(items: readonly T[], n: number): T => items[n % items.length]!;

/** 2 to 10 variables, mostly employees (8 rows each), the rest projects (5). */
const variables = fc.array(fc.constantFrom<Entity>("Employee", "Employee", "Employee", "Project"), { minLength: 2, maxLength: 10 });

/**
 * Conditions between variables that keep most of the product (`v1.id >= v0.id`), some that keep
 * a part (`v1 MEMBER OF v0.projects`: a join over the dense relation), rarely one that collapses it.
 */
function conditions(kinds: Entity[], lang: "jpql" | "jdoql"): fc.Arbitrary<string[]> {
  const n = kinds.length;
  const condition = fc.tuple(fc.nat(), fc.nat(), fc.nat(9)).map(([a, b, how]) => {
    const i = a % n;
    const j = b % n;
    const [vi, vj] = [`v${i}`, `v${j}`];
    const [ne, eq] = lang === "jpql" ? ["<>", "="] : ["!=", "=="];
    if (how <= 3) return `${vi}.id >= ${vj}.id`;
    if (how === 4) return `${vi}.id ${ne} ${vj}.id`;
    if (how === 5) return lang === "jpql" ? `${vi}.name IS NOT NULL` : `${vi}.name != null`;
    if (how === 6) return lang === "jpql" ? `${vi}.name LIKE '%'` : `${vi}.name.startsWith('')`;
    if (how === 7 && kinds[j] === MANY[kinds[i]!].of)
      return lang === "jpql" ? `${vj} MEMBER OF ${vi}.${MANY[kinds[i]!].field}` : `${vi}.${MANY[kinds[i]!].field}.contains(${vj})`;
    if (how === 8) return `${vi}.id ${eq} ${vj}.id`; // collapses the pair (when both are of one extent)
    return `${vi}.id > 0`;
  });
  return fc.array(condition, { maxLength: Math.min(n, 4) });
}

/** JPQL: `SELECT … FROM Employee v0, Employee v1, … [JOIN …] [WHERE …] [GROUP BY …] [ORDER BY …]`. */
const cartesianJpql: fc.Arbitrary<string> = variables.chain((kinds) => {
  const n = kinds.length;
  const ids = fc.integer({ min: 1, max: n }).map((k) => Array.from({ length: k }, (_, i) => `v${i}.${i % 3 === 2 ? "name" : "id"}`).join(", "));
  const items = fc.oneof(
    { weight: 4, arbitrary: fc.tuple(sometimes(fc.constant("DISTINCT "), 0.2), ids).map(([d, list]) => `${d ?? ""}${list}`) },
    { weight: 3, arbitrary: fc.constantFrom("COUNT(v0)", `COUNT(v${n - 1})`, "COUNT(DISTINCT v0)", "SUM(v0.id)", "MAX(v1.id), MIN(v0.id)", "AVG(v0.id)") },
    { weight: 1, arbitrary: fc.constantFrom("v0", "v0, v1", `v${n - 1}`, "DISTINCT v0") },
    { weight: 1, arbitrary: fc.constant("group") },
  );
  return fc
    .record({
      items,
      join: sometimes(
        fc.constantFrom(
          ...(kinds[0] === "Employee"
            ? ["JOIN v0.projects p JOIN p.members m", "JOIN v0.projects p", "LEFT JOIN v0.projects p"]
            : ["JOIN v0.members m JOIN m.projects p", "JOIN v0.members m"]),
        ),
        0.2,
      ),
      where: conditions(kinds, "jpql"),
      order: sometimes(fc.constantFrom("v0.id", `v${n - 1}.name DESC`, "v0.name, v1.id DESC"), 0.25),
    })
    .map(({ items, join, where, order }) => {
      const from = kinds.map((k, i) => `${k} v${i}`).join(", ");
      const whereText = where.length ? ` WHERE ${where.join(" AND ")}` : "";
      if (items === "group") return `SELECT v0.id, COUNT(v1) FROM ${from}${join ? ` ${join}` : ""}${whereText} GROUP BY v0.id ORDER BY v0.id`;
      // ORDER BY may only name what a DISTINCT or aggregate result keeps: only plain projections order.
      const ordered = order && !/COUNT|SUM|MAX|AVG|DISTINCT/.test(items) ? ` ORDER BY ${order}` : "";
      return `SELECT ${items} FROM ${from}${join ? ` ${join}` : ""}${whereText}${ordered}`;
    });
});

/** JDOQL: `SELECT … FROM org.test.bounds.X [WHERE …] VARIABLES X v0; … [ORDER BY …] [RANGE …]`. */
const cartesianJdoql: fc.Arbitrary<string> = variables.chain((all) => {
  const [candidate, ...kinds] = all as [Entity, ...Entity[]];
  // `this` is v-less in JDOQL: conditions name `this` where they would name v0 of JPQL.
  const n = kinds.length + 1;
  const name = (i: number) => (i === 0 ? "this" : `v${i - 1}`);
  const ids = fc.integer({ min: 1, max: n }).map((k) => Array.from({ length: k }, (_, i) => `${name(i)}.${i % 3 === 2 ? "name" : "id"}`).join(", "));
  const items = fc.oneof(
    { weight: 4, arbitrary: fc.tuple(sometimes(fc.constant("DISTINCT "), 0.2), ids).map(([d, list]) => `${d ?? ""}${list}`) },
    { weight: 2, arbitrary: fc.constantFrom("count(this)", `count(${name(n - 1)})`, "sum(this.id)", `max(${name(n - 1)}.id)`) },
    { weight: 2, arbitrary: fc.constantFrom("", "this", `${name(n - 1)}`, "this, v0") },
  );
  return fc
    .record({
      items,
      where: conditions([candidate, ...kinds], "jdoql").map((cs) => cs.map((c) => c.replace(/\bv(\d+)\b/g, (_, i: string) => name(Number(i))))),
      order: sometimes(fc.constantFrom("this.id", `${name(n - 1)}.name DESC`, "this.name ASC, v0.id DESC"), 0.25),
      range: sometimes(fc.constantFrom("0, 10", "0, 1000", "5, 6", "100000, 100010", "0, 9223372036854775807", "16000000, 16000001"), 0.4),
    })
    .map(({ items, where, order, range }) => {
      const vars = kinds.length ? ` VARIABLES ${kinds.map((k, i) => `${BOUNDS}.${k} v${i}`).join("; ")}` : "";
      const ordered = order && !/count|sum|max|DISTINCT/.test(items) ? ` ORDER BY ${order}` : "";
      return `SELECT ${items}${items ? " " : ""}FROM ${BOUNDS}.${candidate}${where.length ? ` WHERE ${where.join(" && ")}` : ""}${vars}${ordered}${range ? ` RANGE ${range}` : ""}`;
    });
});

export const cartesianRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  cartesianJpql.map((text) => request("jpql", "GET", `/jpql?query=${q(text)}`)),
  cartesianJdoql.map((text) => request("jdoql", "GET", `/jdoql?query=${q(text)}`)),
);

// --- Fetch plans at depth ----------------------------------------------------------------------

/** Mostly `all` (the collections), deep, to the cap and unlimited. */
const plan = fc
  .record({
    group: fc.constantFrom("all", "all", "all", "default", "all,default"),
    depth: fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 1, max: 10 }) },
      { weight: 2, arbitrary: fc.constant(-1) },
      { weight: 1, arbitrary: fc.constantFrom(11, 0, -2) },
    ),
  })
  .map(({ group, depth }) => `fetchGroup=${q(group)}&maxFetchDepth=${depth}`);

const entity = fc.constantFrom<Entity>("Employee", "Project");
/** A key of `e`: mostly one that exists. */
const key = (e: Entity) => fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...KEYS[e]) }, { weight: 1, arbitrary: fc.constantFrom(0, 99, 9999) });

const reads: fc.Arbitrary<FuzzRequest> = fc.tuple(entity, plan, fc.nat(), fc.constantFrom("GET", "GET", "GET", "HEAD")).chain(([e, p, n, method]) => {
  const cls = `${BOUNDS}.${e}`;
  const filter = pick(["id >= 1", "name.startsWith('employee')", `${MANY[e].field}.size() > 1`, `${MANY[e].field}.contains(x) && x.id > 0`, "true"], n);
  const jdoql = pick(
    [
      `SELECT FROM ${cls}`,
      `SELECT FROM ${cls} WHERE id > 0 RANGE 0, 3`,
      `SELECT this FROM ${cls} ORDER BY id DESC`,
      `SELECT FROM ${cls} WHERE ${MANY[e].field}.contains(x) VARIABLES ${BOUNDS}.${MANY[e].of} x`,
    ],
    n,
  );
  const jpql = pick(
    [
      `SELECT x FROM ${e} x`,
      `SELECT x FROM ${e} x JOIN x.${MANY[e].field} y`,
      `SELECT x, y FROM ${e} x, ${MANY[e].of} y`,
      `SELECT DISTINCT y FROM ${e} x JOIN x.${MANY[e].field} y`,
    ],
    n,
  );
  return fc.oneof(
    { weight: 4, arbitrary: key(e).map((k) => request("read", method, `/${cls}/${k}?${p}`)) },
    { weight: 2, arbitrary: fc.constant(request("filter", method, `/${cls}?${p}`)) },
    { weight: 2, arbitrary: fc.constant(request("filter", method, `/${cls}?filter=${q(filter)}&${p}`)) },
    { weight: 1, arbitrary: fc.constant(request("jdoql", "GET", `/jdoql?query=${q(jdoql)}&${p}`)) },
    { weight: 1, arbitrary: fc.constant(request("jpql", "GET", `/jpql?query=${q(jpql)}&${p}`)) },
  );
});

const JSON_TYPE = { "content-type": "application/json" };

/** Writes that keep the graph dense (names; a new object on every project or with every employee), answering a deep plan. */
const writes: fc.Arbitrary<FuzzRequest> = fc.tuple(entity, plan, fc.integer({ min: 1000, max: 1e9 })).chain(([e, p, fresh]) => {
  const cls = `${BOUNDS}.${e}`;
  const all = KEYS[MANY[e].of].map((id) => ({ id }));
  return fc.oneof(
    key(e).map((k) => request("update", "PUT", `/${cls}/${k}?${p}`, JSON.stringify({ name: `renamed ${fresh}` }), JSON_TYPE)),
    fc.constant(request("create", "POST", `/${cls}?${p}`, JSON.stringify({ id: fresh, name: `new ${fresh}`, [MANY[e].field]: all }), JSON_TYPE)),
  );
});

export const denseReadRequest = reads;
export const denseWriteRequest = writes;
