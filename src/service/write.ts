/**
 * POST and PUT: body → object graph → which objects exist (one read) → one atomic write batch
 * that ends by reading the written object back, so the response costs no further round trip.
 */
import type { ObjectJson } from "../json/answer.ts";
import { type Graph, type GraphNode, readGraph } from "../mapping/read-graph.ts";
import { keyFieldsJson } from "../read/serialize.ts";
import { keyFieldColumns, keyString } from "../mapping/keys.ts";
import { relationStorage } from "../mapping/relation-storage.ts";
import { type ClassMeta, type FieldMeta, type Model, isAncestor } from "../metadata/model.ts";
import type { FetchPlan } from "../read/fetch-plan.ts";
import { type ObjectFromBatch, type ObjectInBatch, objectFromBatch, objectInBatch } from "../read/read-objects.ts";
import type { RootSelector } from "../read/read-plan.ts";
import { type Existing, findExisting } from "../read/existing.ts";
import type { WriteNode } from "../write/write-node.ts";
import { assignKeys, slotPattern, slotPlaceholders, slotValues, writeStatements, newUuid } from "../write/write-plan.ts";
import { guardExists, guardNoHiddenElements, guardVersion, keyOfWrite } from "../write/write-guards.ts";
import { type Plan, type Planned, cachedPlan } from "./write-plans.ts";
import { oneKeyOperand } from "../store/sql.ts";
import { append } from "../util/lists.ts";
import { type Precondition, noSuchObject, preconditionFailed } from "./absent.ts";
import { ConflictError, InvalidInputError, UnfitBodyError } from "../errors/request-errors.ts";
import type { Runtime } from "./runtime.ts";
import { type Statement, type StatementResult, StoreConstraintError, batchEventually } from "../store/store.ts";
import { refused } from "../access/refusal.ts";
import { requiredRefusal } from "./required.ts";
import { type Eventually, thenNow } from "../util/eventually.ts";

export interface WriteResult {
  /** The object as the batch read it back; absent when the access rules let the principal write it but not read it. */
  object?: ObjectJson;
  /** The written object's runtime class. */
  meta: ClassMeta;
  /** Its key fields as its JSON writes them (for the Location of a new object). */
  identity: Record<string, unknown>;
}

function unprocessable(graph: Graph): never {
  throw new UnfitBodyError(`the body does not fit class ${graph.root.declared.name}`, graph.errors);
}

async function lookup(rt: Runtime, nodes: readonly GraphNode[], extra: { root: string; key: readonly unknown[] }[] = []): Promise<Map<string, Existing>> {
  const ids = [...extra, ...nodes.filter((n) => n.key).map((n) => ({ root: n.meta.root, key: n.key! }))];
  return ids.length ? findExisting(rt.store, rt.model, ids) : new Map();
}

/** The references an element of a mapped-by collection in the body gets from its owner there, by element. */
function referencesFromOwners(model: Model, graph: Graph): Map<GraphNode, string[]> {
  const assigned = new Map<GraphNode, string[]>();
  for (const owner of graph.nodes)
    for (const [name, elements] of owner.many) {
      const field = owner.meta.fields.get(name);
      const s = field?.relation && relationStorage(model, field);
      if (s?.kind !== "target-fk") continue;
      for (const e of elements) append(assigned, e, s.owning.name);
    }
  return assigned;
}

/**
 * The fields a new object of a class must carry (null-value="exception", optional=false, NOT NULL
 * columns); primitives have Java's default, and keys are checked apart.
 */
const requiredOnCreate = perClass((_model, meta): readonly FieldMeta[] =>
  [...meta.fields.values()].filter((f) => !(f.nullable || f.primaryKey || f.isVersionField || (f.type.kind === "basic" && f.type.primitive))),
);

/** Decides, for each node, create or update, and with which class; every problem is a 4xx. */
function resolveModes(rt: Runtime, graph: Graph, existing: Map<string, Existing>, root: { mode: "create" | "update"; key?: unknown[] }) {
  const errors: { path: string; message: string }[] = [];
  // Made when a new object lacks a required field (most bodies give them all).
  let assigned: Map<GraphNode, string[]> | undefined;
  const out = graph.nodes.map((node) => {
    const isRoot = node === graph.root;
    const key = isRoot && root.key ? root.key : node.key;
    const found = key ? existing.get(keyString(node.meta.root, key)) : undefined;
    if (found) {
      if (!isAncestor(rt.model, node.meta.name, found.meta.name)) {
        errors.push({ path: node.path, message: `the object with this key is a ${found.meta.name}, not a ${node.meta.name}` });
      }
      return { node, meta: found.meta, mode: "update" as const, key };
    }
    if (node.meta.identity.kind === "datastore" && key) {
      errors.push({ path: `${node.path}/_id`, message: `no ${node.meta.name} has _id ${JSON.stringify(key[0])}` });
    }
    if (node.meta.abstract) {
      if (!node.explicitClass)
        throw new InvalidInputError(`${node.meta.name} is abstract: say which subclass to create with "class"${node.path ? ` at ${node.path}` : ""}`);
      errors.push({ path: `${node.path}/class`, message: `${node.meta.name} is abstract and cannot be created` });
    }
    const parts = keyFieldColumns(node.meta);
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (key?.[i] === undefined && part.generation.kind === "none")
        errors.push({ path: `${node.path}/${part.field}`, message: `key field "${part.field}" is required: ${node.meta.name} does not generate it` });
    }
    for (const field of requiredOnCreate(rt, node.meta)) {
      if (node.values.has(field.name) || node.refs.has(field.name) || node.many.has(field.name)) continue;
      if (!(assigned ??= referencesFromOwners(rt.model, graph)).get(node)?.includes(field.name)) {
        errors.push({ path: `${node.path}/${field.name}`, message: `${field.name} is required: it must not be null` });
      }
    }
    return { node, meta: node.meta, mode: "create" as const, key };
  });
  if (errors.length) throw new UnfitBodyError(`the body does not fit class ${graph.root.declared.name}`, errors);
  return out;
}

/** Reads the root object back inside the write batch, whatever way its key was chosen. */
function readBack(rt: Runtime, w: WriteNode, fetch: FetchPlan): ObjectInBatch {
  const selector: RootSelector = {
    kind: "subquery",
    cacheKey: `readback:${slotPattern(w.key)}`,
    keys: () => {
      const slot = slotPlaceholders(w.key);
      return oneKeyOperand(w.key.map((_, i) => slot(i)));
    },
  };
  const back = objectInBatch(rt, w.meta, selector, slotValues(w.key), fetch);
  if (!back) {
    throw new InvalidInputError(
      `the answer this write asks for (fetchGroup ${fetch.groups.join(",") || "default"}, maxFetchDepth ${fetch.maxDepth}) is too large to read back in one statement: ask for a smaller fetch group or maxFetchDepth; nothing was changed`,
    );
  }
  return back;
}

/**
 * The written object as the batch read it back; under access rules that hide it from the
 * principal who wrote it, only its identity (from the batch's `SELECT <key>`, the result before
 * the read-back's).
 */
function answer(rt: Runtime, back: ObjectInBatch, results: readonly StatementResult[], fetch: FetchPlan, root: { meta: ClassMeta }): Eventually<WriteResult> {
  return thenNow(objectFromBatch(rt, back, results, fetch), (read) => answerOf(rt, back, results, root, read));
}

function answerOf(
  rt: Runtime,
  back: ObjectInBatch,
  results: readonly StatementResult[],
  root: { meta: ClassMeta },
  read: ObjectFromBatch | undefined,
): WriteResult {
  if (read) return { object: read.object, meta: read.meta, identity: keyFieldsJson(rt.model, read.meta, read.key) };
  if (!rt.access) throw new Error("internal: the written object was not read back");
  const key = results[results.length - back.statements.length - 1]!.rows[0]!;
  return { meta: root.meta, identity: keyFieldsJson(rt.model, root.meta, key) };
}

/**
 * Plans a write on `graph` (the request's, or the stand-ins of src/service/write-plans.ts): the
 * guards, the access rules' checks, the key reservations, the writes and the read-back, in batch order.
 */
function plan(rt: Runtime, fetch: FetchPlan): Plan {
  return (graph, modes, conditions, generate) => {
    const { writes, prelude } = assignKeys(modes, generate);
    const rootWrite = writes.find((w) => w.node === graph.root)!;
    const cascadeGuards = (roots: string[]) => (rt.access ? rt.access.control.cascadeGuards(rt.access.principal, roots) : []);
    const written = writeStatements(rt.model, writes, cascadeGuards);
    const ownRowOnly = ownRowUpdate(rt, writes, rootWrite, conditions, written);
    const guards = writes
      .filter((w) => w.mode === "update")
      // The version condition after the root's existence guard: an absent object is a 404 whatever the precondition.
      .flatMap((w) =>
        w !== rootWrite
          ? [guardExists(w.meta, w.key, "changed")]
          : ownRowOnly
            ? []
            : [guardExists(w.meta, w.key, "missing"), ...conditions.map((c) => guardVersion(w.meta, w.key, c))],
      );
    const back = readBack(rt, rootWrite, fetch);
    const allowed = accessGuards(rt, writes, rootWrite);
    const keyBack = rt.access ? [keyOfWrite(rootWrite)] : [];
    const before = [...guards, ...allowed.before, ...prelude];
    const statements = [...before, ...written.statements, ...allowed.after, ...keyBack, ...back.statements];
    return { statements, back, root: rootWrite, diagnose: written.diagnose, rootUpdate: ownRowOnly ? before.length : undefined };
  };
}

/**
 * Whether the write changes nothing but its object's own row: one UPDATE of its primary table, by
 * key and class (src/write/write-plan.ts, `updateRow`). That UPDATE changes a row exactly when the
 * existence guard would pass, so the rows it changed say whether the object exists (none: 404,
 * and nothing changed) and the batch needs no guard before it: a partial PUT is two statements,
 * the UPDATE and the read-back. Not under a precondition (the 404 is decided before the 412 inside
 * the batch) nor under access rules (their guard judges the object found before the write).
 */
function ownRowUpdate(
  rt: Runtime,
  writes: readonly WriteNode[],
  root: WriteNode,
  conditions: readonly Precondition[],
  written: ReturnType<typeof writeStatements>,
): boolean {
  if (rt.access || conditions.length || writes.length !== 1 || root.mode !== "update" || written.statements.length !== 1) return false;
  return written.statements[0] === written.primaryUpdate(root);
}

/**
 * Plans the write and runs its batch; the written object as read back. At once, without a promise,
 * when the store runs the batch on the calling thread (`Store.batchNow`: an embedded file).
 */
function execute(
  rt: Runtime,
  graph: Graph,
  modes: ReturnType<typeof resolveModes>,
  fetch: FetchPlan,
  conditions: readonly Precondition[] = [],
): Eventually<WriteResult> {
  if (rt.access) {
    const refusedFields = rt.access.control.refusedFields(rt.access.principal, graph.nodes);
    if (refusedFields.length) throw new UnfitBodyError(`the body sets fields the principal may not write`, refusedFields);
  }
  // Under access rules the guards bind the principal's claims: planned per request.
  const planned = rt.access
    ? plan(rt, fetch)(graph, modes, conditions, newUuid)
    : cachedPlan({ model: rt.model, answerBytes: rt.limits.answerBytes }, graph, modes, conditions, fetch, plan(rt, fetch));
  // A refusal is the same whether the batch was refused at once (a throw) or later (a rejection).
  let ran: Eventually<StatementResult[]>;
  try {
    ran = batchEventually(rt.store, planned.statements, "write");
  } catch (error) {
    return refusal(rt, graph, planned, conditions, error);
  }
  if (!(ran instanceof Promise)) return written(rt, graph, planned, ran, fetch);
  return ran.then(
    (done) => written(rt, graph, planned, done, fetch),
    (error: unknown) => refusal(rt, graph, planned, conditions, error),
  );
}

/** What a batch's refusal means for the request: always a rejection (a constraint's 404, 409, 412, 403, 422; anything else as it came). */
async function refusal(rt: Runtime, graph: Graph, planned: Planned, conditions: readonly Precondition[], error: unknown): Promise<never> {
  if (!(error instanceof StoreConstraintError)) throw error;
  if (error.kind === "guard" && error.guard === "stale") throw preconditionFailed(rt.model, graph.root.declared, graph.root.key!, conditions);
  if (error.kind === "guard" && error.guard === "missing") throw noSuchObject(rt.model, graph.root.declared, graph.root.key!);
  if (error.kind === "guard" && error.guard === "forbidden") throw refused(rt.access!.principal, graph.root.declared, planned.root.mode, "this object");
  if (error.kind === "guard" && error.guard === "required") throw await requiredRefusal(rt, planned.diagnose(), `this write`);
  if (error.kind === "guard" && error.guard === "sequence")
    throw new ConflictError("a generated key would pass 9223372036854775807, the largest long: the key sequence has no numbers left (give the key instead)");
  if (error.kind === "guard") throw new ConflictError("an object of the request was deleted or changed by another request meanwhile; retry");
  if (error.kind === "unique") throw new ConflictError("an object with the same key already exists");
  throw new ConflictError("the database refused the change (a constraint failed)");
}

/** The batch ran: the written object as it read it back. */
function written(rt: Runtime, graph: Graph, planned: Planned, results: StatementResult[], fetch: FetchPlan): Eventually<WriteResult> {
  // No existence guard: the root's UPDATE changed no row, so it does not exist (and nothing changed).
  if (planned.rootUpdate !== undefined && results[planned.rootUpdate]!.rowsAffected === 0) throw noSuchObject(rt.model, graph.root.declared, graph.root.key!);
  return answer(rt, planned.back, results, fetch, planned.root);
}

/**
 * The access rules' checks of a write (contract §8), inside its batch: every object it creates or
 * changes is judged on the state it leaves (after the writes), an object it changes also on the
 * state it finds (before them). A nested object that only names an existing one (a link) needs
 * no update grant; a collection it replaces must hold no object the principal cannot see. A class
 * the principal has no grant for at all is refused before the batch.
 */
function accessGuards(rt: Runtime, writes: readonly WriteNode[], root: WriteNode): { before: Statement[]; after: Statement[] } {
  const before: Statement[] = [];
  const after: Statement[] = [];
  if (!rt.access) return { before, after };
  const { control, principal } = rt.access;
  for (const w of writes) {
    if (w !== root && w.mode === "update" && !changesFields(w.node)) continue;
    // A collection it replaces must hold no object the principal cannot see (it would change them).
    if (w.mode === "update")
      for (const name of w.node.many.keys()) {
        const field = w.meta.fields.get(name)!;
        const target = rt.model.classes.get(field.relation!.target);
        if (target?.primaryTable && control.restricts(principal, target.primaryTable)) before.push(...guardNoHiddenElements(rt.model, w, field));
      }
    const guard = control.writeGuard(principal, w.meta, w.key, w.mode);
    if (!guard) continue;
    if (w.mode === "update") before.push(guard);
    after.push(guard);
  }
  return { before, after };
}

/** Whether a body's object sets anything of its object beyond naming it. */
const changesFields = (node: GraphNode): boolean =>
  node.refs.size > 0 || node.many.size > 0 || [...node.values.keys()].some((f) => !node.meta.fields.get(f)?.primaryKey);

/** A POST: at once (no promise) when nothing is looked up first and the store runs the batch at once. */
export function createObject(rt: Runtime, meta: ClassMeta, body: unknown, fetch: FetchPlan): Eventually<WriteResult> {
  const graph = readGraph(rt.model, meta, body, rt.limits.keyBytes);
  if (graph.errors.length) unprocessable(graph);
  // A new object whose whole hierarchy keeps its keys in one table, in a body naming no other
  // object: that table's PRIMARY KEY refuses a duplicate inside the batch (409), so there is
  // nothing to look up first.
  const alone = graph.root.meta.identity.kind === "application" && oneKeyTable(rt, graph.root.meta) && graph.nodes.every((n) => n === graph.root || !n.key);
  if (alone) return execute(rt, graph, resolveModes(rt, graph, new Map<string, Existing>(), { mode: "create" }), fetch);
  return createLookingUp(rt, graph, fetch);
}

/** A POST whose objects are looked up first (one read), then written. */
async function createLookingUp(rt: Runtime, graph: Graph, fetch: FetchPlan): Promise<WriteResult> {
  const existing = await lookup(rt, graph.nodes);
  if (graph.root.key && existing.has(keyString(graph.root.meta.root, graph.root.key))) {
    throw new ConflictError(`a ${existing.get(keyString(graph.root.meta.root, graph.root.key))!.meta.name} with this key already exists`);
  }
  return execute(rt, graph, resolveModes(rt, graph, existing, { mode: "create" }), fetch);
}

const keyChanged = () =>
  new UnfitBodyError("the key in the body differs from the key in the path: a key cannot be changed", [
    { path: "", message: "key fields differ from the path" },
  ]);

/**
 * A PUT needs no lookup when the batch's guard can tell on its own that the object is a `meta`:
 * `meta` has no subclasses, and its table holds no other class or says each row's class in a
 * discriminator (which the guard checks).
 */
const guardKnowsClass = perClass((model, meta) => {
  if (meta.subclasses.length || !meta.primaryTable) return false;
  if (meta.discriminator?.values[meta.name] !== undefined) return true;
  return [...model.classes.values()].every((other) => other === meta || other.primaryTable !== meta.primaryTable);
});

/** Every object of the hierarchy has its row in one table, whose PRIMARY KEY sees every key. */
const oneKeyTable = perClass(
  (model, meta) =>
    meta.primaryTable !== undefined && [...model.classes.values()].every((other) => other.root !== meta.root || other.primaryTable === meta.primaryTable),
);

/** A fact of a class that depends on the model alone: worked out once per class, not per request. */
function perClass<T>(decide: (model: Model, meta: ClassMeta) => T): (rt: Runtime, meta: ClassMeta) => T {
  const known = new WeakMap<ClassMeta, T>();
  return (rt, meta) => {
    let answer = known.get(meta);
    if (answer === undefined) known.set(meta, (answer = decide(rt.model, meta)));
    return answer;
  };
}

/** A PUT: at once (no promise) when nothing is looked up first and the store runs the batch at once. */
export function updateObject(
  rt: Runtime,
  meta: ClassMeta,
  key: unknown[],
  body: unknown,
  fetch: FetchPlan,
  conditions: readonly Precondition[] = [],
): Eventually<WriteResult> {
  const graph = readGraph(rt.model, meta, body, rt.limits.keyBytes);
  if (!graph.errors.length && guardKnowsClass(rt, meta) && graph.nodes.every((n) => n === graph.root || !n.key)) {
    // Nothing to look up: the batch's own guard answers 404 unless a `meta` has this key. One round trip.
    if (graph.root.key && keyString(meta.root, graph.root.key) !== keyString(meta.root, key)) throw keyChanged();
    graph.root.key = key;
    // Set, not built from a list: JavaScriptCore's Map(iterable) costs more than the rest of this line.
    const known = new Map<string, Existing>().set(keyString(meta.root, key), { meta });
    return execute(rt, graph, resolveModes(rt, graph, known, { mode: "update", key }), fetch, conditions);
  }
  return updateLookingUp(rt, meta, key, body, fetch, conditions, graph);
}

/** A PUT whose objects are looked up first (one read), then written. */
async function updateLookingUp(
  rt: Runtime,
  meta: ClassMeta,
  key: unknown[],
  body: unknown,
  fetch: FetchPlan,
  conditions: readonly Precondition[],
  declared: Graph,
): Promise<WriteResult> {
  const rootId = { root: meta.root, key };
  let graph = declared;
  // Nested identities are looked up with the root even if the body had errors for the declared
  // class: the root may be a subclass whose fields make the body valid.
  let existing = await lookup(
    rt,
    graph.nodes.filter((n) => n !== graph.root),
    [rootId],
  );
  const found = existing.get(keyString(meta.root, key));
  if (!found || !isAncestor(rt.model, meta.name, found.meta.name)) throw noSuchObject(rt.model, meta, key);
  if (found.meta !== meta || graph.errors.length) {
    // The object is of a subclass: its own fields are allowed too.
    graph = readGraph(rt.model, found.meta, body, rt.limits.keyBytes);
    if (graph.errors.length) unprocessable(graph);
    const missing = graph.nodes.filter((n) => n.key && !existing.has(keyString(n.meta.root, n.key)));
    if (missing.length) existing = new Map([...existing, ...(await lookup(rt, missing))]);
  }
  if (graph.root.key && keyString(meta.root, graph.root.key) !== keyString(meta.root, key)) throw keyChanged();
  graph.root.key = key;
  return execute(rt, graph, resolveModes(rt, graph, existing, { mode: "update", key }), fetch, conditions);
}
