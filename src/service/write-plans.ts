/**
 * Write plans by graph shape. Planning a write (src/service/write.ts `plan`: keys, guards, version
 * steps, rows, links, the read-back) depends on the body's shape, not on its values: which objects
 * of which classes, created or updated, which fields given, which object each reference and
 * collection names. So a shape is planned once, on stand-ins, and later writes of that shape only
 * put their values in.
 *
 * How: the first write of a shape is planned on a copy of its graph whose every value (field
 * values, keys, the versions of an If-Match, the UUIDs the plan generates) is a marker, a string no
 * request can send (it holds U+E000 and is made here). Each statement parameter of that plan is
 * then a constant, one marker (a value put in as it is), or JSON text holding markers as strings
 * (the version steps' lists of keys: the value's JSON put in). Anything else that carries a marker
 * (a value the planner inspected or transformed) leaves the shape uncached: planned per request, as
 * before. `verifyWritePlans(true)` (the test harness sets it) plans every cached write anew as well
 * and throws on any difference, so the whole test suite checks that the shape holds all the planner
 * reads.
 *
 * Writes under access rules are planned per request (their guards bind the principal's claims).
 */
import { WRITE_PLAN_LIMIT, WRITE_PLAN_WEIGHT, perModelCache } from "../cache/bounded-cache.ts";
import type { Graph, GraphNode } from "../mapping/read-graph.ts";
import type { ClassMeta, Model } from "../metadata/model.ts";
import { type FetchPlan, planKey } from "../read/fetch-plan.ts";
import type { ObjectInBatch } from "../read/read-objects.ts";
import type { Statement } from "../store/store.ts";
import { type KeyGenerator, newUuid } from "../write/write-plan.ts";
import type { Diagnosis } from "../write/orphan-plan.ts";
import type { Precondition } from "./absent.ts";
import { withFields } from "../util/objects.ts";

/** A node's class, mode and key as the write resolved them (src/service/write.ts resolveModes). */
export interface Resolved {
  node: GraphNode;
  meta: ClassMeta;
  mode: "create" | "update";
  key?: unknown[];
}

/** What a write runs and how its answer is read back: everything decided before the batch. */
export interface Planned {
  statements: Statement[];
  back: ObjectInBatch;
  root: { meta: ClassMeta; mode: "create" | "update" };
  /** Which objects a refused required reference concerns (after a batch failed with guard `required`). */
  diagnose: () => Diagnosis;
  /** The statement whose changed rows say whether the root exists, where no guard checks it (src/service/write.ts, `ownRowUpdate`). */
  rootUpdate?: number;
}

/** Plans a write on the given graph (real or stand-in), generating keys with `generate`. */
export type Plan = (graph: Graph, modes: readonly Resolved[], conditions: readonly Precondition[], generate: KeyGenerator) => Planned;

/** A statement parameter of a cached plan: a constant, the value of a hole, or JSON text with holes' values in it. */
type Param = { constant: unknown } | { hole: number } | { json: (string | number)[] };

interface Template {
  statements: { sql: string; params: Param[]; oneRow?: boolean; unbounded?: boolean }[];
  back: Omit<ObjectInBatch, "statements">;
  /** The read-back's statements: the batch's last ones. */
  backCount: number;
  root: Planned["root"];
  rootUpdate: number | undefined;
  /** Holes past the request's values: keys generated per write, by kind. */
  generated: ("uuid-string" | "uuid-hex")[];
}

/** `null`: the shape's plan inspects a value, so it is planned per request. */
const templates = perModelCache<Template | null>("writePlans", WRITE_PLAN_LIMIT, {
  limit: WRITE_PLAN_WEIGHT,
  weigh: (key, t) => key.length + (t ? t.statements.length * 16 : 0),
});

const MARK = "\uE000";
const marker = (i: number) => `${MARK}x${i}${MARK}`;
const WHOLE = /^\uE000x(\d+)\uE000$/;
const IN_JSON = /"\uE000x(\d+)\uE000"/g;

let verifying = false;

/** Tests: plan every cached write anew too and throw unless both plans are the same. */
export function verifyWritePlans(on: boolean): void {
  verifying = on;
}

/** The plan of this write: its shape's, with its values put in (planned now when the shape is new or uncacheable). */
export function cachedPlan(
  cacheOf: { model: Model; answerBytes: number },
  graph: Graph,
  modes: readonly Resolved[],
  conditions: readonly Precondition[],
  fetch: FetchPlan,
  plan: Plan,
): Planned {
  const values: unknown[] = [];
  const shape = describe(graph, modes, conditions, values, false, `${planKey(fetch)}|${fetch.maxDepth}|${cacheOf.answerBytes}`);
  const key = shape.key;
  const cache = templates(cacheOf.model);
  const template = cache.get(key, () => build(graph, modes, conditions, plan));
  if (!template) return plan(graph, modes, conditions, newUuid);
  for (const kind of template.generated) values.push(newUuid(kind));
  // A refusal is explained by planning the write itself (rare: only a batch that failed a guard asks).
  const planned = fill(template, values, () => plan(graph, modes, conditions, newUuid).diagnose());
  if (verifying) verify(planned, plan(graph, modes, conditions, replaying(values, shape.count)), key);
  return planned;
}

/** Plans the shape on stand-ins; the template, or null when a parameter carries a marker in any other way. */
function build(graph: Graph, modes: readonly Resolved[], conditions: readonly Precondition[], plan: Plan): Template | null {
  const stand: unknown[] = [];
  const copy = describe(graph, modes, conditions, stand, true, "");
  const generated: Template["generated"] = [];
  let planned: Planned;
  try {
    planned = plan(copy.graph!, copy.modes!, copy.conditions!, (kind) => (generated.push(kind), marker(stand.length + generated.length - 1)));
  } catch {
    // Refused on stand-ins (a value the planner checks): planned per request, which answers as it should.
    return null;
  }
  const statements: Template["statements"] = [];
  for (const s of planned.statements) {
    const params: Param[] = [];
    for (const p of s.params) {
      const param = paramOf(p);
      if (!param) return null;
      params.push(param);
    }
    statements.push({ sql: s.sql, params, ...(s.oneRow ? { oneRow: true } : {}), ...(s.unbounded ? { unbounded: true } : {}) });
  }
  const { statements: backStatements, ...back } = planned.back;
  // Only the root's class and mode: its key in the stand-ins' plan is markers.
  const root = { meta: planned.root.meta, mode: planned.root.mode };
  return { statements, back, backCount: backStatements.length, root, rootUpdate: planned.rootUpdate, generated };
}

function paramOf(p: unknown): Param | undefined {
  if (typeof p === "string") {
    if (!p.includes(MARK)) return { constant: p };
    const whole = WHOLE.exec(p);
    if (whole) return { hole: Number(whole[1]) };
    // JSON text with markers as its strings: split around them; no marker may be left elsewhere.
    const parts: (string | number)[] = [];
    let at = 0;
    for (const m of p.matchAll(IN_JSON)) {
      parts.push(p.slice(at, m.index), Number(m[1]));
      at = m.index + m[0].length;
    }
    parts.push(p.slice(at));
    return parts.some((x) => typeof x === "string" && x.includes(MARK)) ? undefined : { json: parts };
  }
  // Bytes, numbers, null: constants of the shape; any other object might hide a marker.
  if (p !== null && typeof p === "object" && !(p instanceof Uint8Array)) return undefined;
  return { constant: p };
}

/** The template's statements with this write's values in (plain loops: it runs for every statement of every write). */
function fill(t: Template, values: readonly unknown[], diagnose: () => Diagnosis): Planned {
  const statements: Statement[] = new Array(t.statements.length);
  for (let i = 0; i < t.statements.length; i++) {
    const s = t.statements[i]!;
    const params: unknown[] = new Array(s.params.length);
    for (let j = 0; j < s.params.length; j++) params[j] = paramValue(s.params[j]!, values);
    const statement: Statement = { sql: s.sql, params };
    if (s.oneRow) statement.oneRow = true;
    if (s.unbounded) statement.unbounded = true;
    statements[i] = statement;
  }
  const back: ObjectInBatch = withFields(t.back, { statements: statements.slice(statements.length - t.backCount) });
  return { statements, back, root: t.root, diagnose, rootUpdate: t.rootUpdate };
}

function paramValue(p: Param, values: readonly unknown[]): unknown {
  if ("constant" in p) return p.constant;
  if ("hole" in p) return values[p.hole];
  let text = "";
  for (const x of p.json) text += typeof x === "number" ? JSON.stringify(values[x]) : x;
  return text;
}

/** Generates, in order, the keys the cached plan's values hold (so a second plan of the write matches it). */
function replaying(values: readonly unknown[], from: number): KeyGenerator {
  let next = from;
  return () => values[next++] as string;
}

function verify(cached: Planned, fresh: Planned, key: string): void {
  const same =
    cached.root.meta === fresh.root.meta &&
    cached.rootUpdate === fresh.rootUpdate &&
    cached.back.statements.length === fresh.back.statements.length &&
    cached.statements.length === fresh.statements.length &&
    cached.statements.every((s, i) => {
      const f = fresh.statements[i]!;
      return (
        s.sql === f.sql &&
        !!s.oneRow === !!f.oneRow &&
        !!s.unbounded === !!f.unbounded &&
        s.params.length === f.params.length &&
        s.params.every((p, j) => sameValue(p, f.params[j]))
      );
    });
  if (!same) {
    throw new Error(
      `internal: the cached write plan of shape ${JSON.stringify(key)} differs from the write's own plan:\n${JSON.stringify(cached.statements, replacer)}\n${JSON.stringify(fresh.statements, replacer)}`,
    );
  }
}

const replacer = (_: string, v: unknown) => (typeof v === "bigint" ? `${v}n` : v instanceof Uint8Array ? [...v] : v);

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return a.length === b.length && a.every((x, i) => x === b[i]);
  return Object.is(a, b);
}

/**
 * The write's shape, as a key, and its values in the order the stand-ins number them (pushed to
 * `values`); with `copy`, also the graph, modes and conditions with a marker for every value.
 */
function describe(
  graph: Graph,
  modes: readonly Resolved[],
  conditions: readonly Precondition[],
  values: unknown[],
  copy: boolean,
  prefix: string,
): { key: string; count: number; graph?: Graph; modes?: Resolved[]; conditions?: Precondition[] } {
  const shape = new Shape(values, copy, prefix);
  const copies = copy ? graph.nodes.map((n): GraphNode => ({ ...n, values: new Map(), refs: new Map(), many: new Map() })) : [];
  let modeKeyed = false;
  for (const m of modes) {
    const n = m.node;
    const i = n.index;
    const c = copies[i];
    shape.part(`${i}:${n.meta.name}>${m.meta.name}:${m.mode}`);
    // Key values: their types decide whether a given number moves the sequence (write-plan.ts assignKeys).
    if (n.key) {
      shape.part(`k${typeChars(n.key)}`);
      if (c) c.key = n.key.map((v) => shape.take(v));
      else for (const v of n.key) values.push(v);
    }
    if (m.key && m.key !== n.key) {
      shape.part(`K${typeChars(m.key)}`);
      modeKeyed = true;
    }
    for (const [name, v] of n.values) {
      const embedded = (m.meta.fields.get(name) ?? n.meta.fields.get(name))?.embeddedColumns;
      shape.part(`v${name}`);
      if (embedded && v !== null && typeof v === "object") {
        // An embedded object's columns each take one of its fields (or null).
        shape.part("{");
        const record: Record<string, unknown> = {};
        for (const sub of Object.keys(embedded)) record[sub] = shape.take((v as Record<string, unknown>)[sub] ?? null);
        c?.values.set(name, record);
      } else {
        const stand = shape.take(v);
        c?.values.set(name, stand);
      }
    }
    for (const [name, t] of n.refs) {
      shape.part(`r${name}=${t ? t.index : "-"}`);
      c?.refs.set(name, t ? copies[t.index]! : null);
    }
    for (const [name, elements] of n.many) {
      let list = "";
      for (let e = 0; e < elements.length; e++) list += e ? `,${elements[e]!.index}` : `${elements[e]!.index}`;
      shape.part(`m${name}=${list}`);
      c?.many.set(
        name,
        elements.map((e) => copies[e.index]!),
      );
    }
  }
  // The root's key from the path (an update's), after the nodes'.
  const modeKeys = modeKeyed ? modes.map((m) => (m.key && m.key !== m.node.key ? m.key.map((v) => shape.take(v)) : undefined)) : undefined;
  // An If-Match's versions: the batch's guard holds them as one JSON list.
  const standConditions = conditions.map((c) => {
    shape.part(`c${c.want}:${c.versions === "*" ? "*" : c.versions.length}`);
    return { ...c, versions: c.versions === "*" ? ("*" as const) : (c.versions.map((v) => shape.take(v)) as unknown as number[]) };
  });
  const count = values.length;
  if (!copy) return { key: shape.key(), count };
  const standModes = modes.map((m, i): Resolved => {
    const c = copies[m.node.index]!;
    return { node: c, meta: m.meta, mode: m.mode, key: m.key === m.node.key ? c.key : modeKeys?.[i] };
  });
  const standGraph: Graph = { root: copies[graph.root.index]!, nodes: copies, errors: [] };
  return { key: shape.key(), count, graph: standGraph, modes: standModes, conditions: standConditions };
}

/**
 * A write's shape as it is described: the key's parts (after `prefix`, the fetch plan's) joined by
 * U+0001 once, at the end, and its values gathered in order, each a marker in the copy (the
 * markers stand in the copy only: a write of a known shape just gathers its values). Joined, not
 * concatenated part by part: a POST's key of 30 parts built and looked up in 2.1 µs against 5.6 on
 * Node (the runtime flattens the chain of concatenations to hash it), 1.2 against 1.4–2.3 on Bun.
 * A class, not closures in `describe`: on Node, tsx names each named closure as it is made.
 */
class Shape {
  private readonly parts: string[];
  constructor(
    private readonly values: unknown[],
    private readonly copy: boolean,
    prefix: string,
  ) {
    this.parts = [prefix];
  }

  part(text: string): void {
    this.parts.push(text);
  }

  key(): string {
    return this.parts.join("\u0001");
  }

  take(v: unknown): unknown {
    this.values.push(v);
    return this.copy ? marker(this.values.length - 1) : undefined;
  }
}

function typeChars(key: readonly unknown[]): string {
  let out = "";
  for (const v of key) out += typeChar(v);
  return out;
}

function typeChar(v: unknown): string {
  return typeof v === "number" ? "n" : typeof v === "string" ? "s" : typeof v === "bigint" ? "b" : v === null ? "0" : "o";
}
