/**
 * Delete plans: one object, or a whole extent (subclasses included), in one atomic batch, with
 * the objects its dependent relations take along (src/write/cascade-plan.ts). References to the
 * deleted objects are released (foreign keys set to null, join-table rows removed) so no object
 * is left pointing at nothing, or, for a required reference, the batch is refused; then the rows
 * go, subclass tables first. First, every versioned object the deletion changes through a
 * relation takes a version step.
 * Compiled once per class and cached.
 */
import { type ClassMeta, type Model, classOf, subtree } from "../metadata/model.ts";
import { guardInsert } from "../mapping/migrate.ts";
import { type Compiled, type SQL, bind, compile, ident, join, onStoredTables, oneKeyOperand, sql, tableRef, tuple } from "../store/sql.ts";
import type { Statement } from "../store/store.ts";
import { DELETE_PLAN_LIMIT, perModelCache } from "../cache/bounded-cache.ts";
import { type At, VersionSteps } from "./version-steps.ts";
import { type GroupLayout, alias, discriminatorFilter, extentKeys, groupsOf, keyRefs } from "../read/row-layout.ts";
import {
  cascades,
  closure,
  countRequired,
  deletionParts,
  doomedKeys,
  emptyDoomed,
  fillDoomed,
  guardRequired,
  reachableRoots,
  seedsOf,
} from "./cascade-plan.ts";

/** A few per class (one object, with its guard or without; the extent): bounded by the model, the limit is a backstop. */
const plans = perModelCache<DeletePlan<Compiled>>("deletePlans", DELETE_PLAN_LIMIT);

/**
 * A deletion's statements, and what its caller adds: the access rules' guards over the doomed
 * objects go at `cascadeAt` (after the doomed set is known, before anything changes), for the
 * hierarchies `roots`; `diagnose` is the read that says which required reference refused it.
 */
export interface DeletePlan<S = Statement> {
  statements: S[];
  cascadeAt: number;
  roots: string[];
  diagnose: S;
  /** The required references the diagnosis counts, in its order. */
  required: { holder: string; field: string }[];
  /**
   * In a plan without the existence guard (`deleteOneStatements`, unguarded): the statement
   * deleting the object's primary row, which deletes none when the object is not there as its class.
   */
  rootDelete?: number | undefined;
}

function compilePlan(model: Model, d: Deletion, prefix: SQL[]): DeletePlan<Compiled> {
  const statements = [...prefix, ...deleteStatements(d)].map((q) => compile(q));
  const cascadeAt = prefix.length + (d.fill ? 1 : 0) + d.steps.statements().length + d.parts.required.length;
  const required = d.parts.required.map(({ holder, field }) => ({ holder, field }));
  return { statements, cascadeAt, roots: d.roots ?? [], diagnose: compile(d.diagnose()), required };
}

function bindPlan(plan: DeletePlan<Compiled>, values?: Record<string, unknown>): DeletePlan {
  return { ...plan, statements: plan.statements.map((c) => bind(c, values)), diagnose: bind(plan.diagnose, values) };
}

/**
 * Statements deleting one object. Guarded, the first statement aborts the batch when the object
 * does not exist as this class. `unguarded` (for a caller that adds no precondition or rule to be
 * judged after the object's existence) drops that statement where the deletion allows: no
 * dependent relation, and the class's objects in one table group. Every statement then reads the
 * key through the object's primary row and its class, so one that is not there changes nothing,
 * and the last statement, deleting that row, tells it by its count (`rootDelete`).
 */
export function deleteOneStatements(model: Model, meta: ClassMeta, key: readonly unknown[], unguarded = false): DeletePlan {
  const own = unguarded && !cascades(model, meta) && groupsOf(model, meta).length === 1;
  const compiled = plans(model).get(`one|${meta.name}${own ? "|own" : ""}`, () => {
    // Every use is `… IN (keys)`.
    const keys = oneKeyOperand(meta.keyColumns.map((_, i) => sql`${sql.placeholder(`k${i}`)}`));
    if (!own) return compilePlan(model, deletion(model, meta, keys), [guardMissing(model, meta, keys)]);
    const plan = compilePlan(model, deletion(model, meta, checkedKeys(model, meta, keys)), []);
    // The rows go last, the primary table's last of all (deletionParts): its row is read by the statements before it.
    return { ...plan, rootDelete: plan.statements.length - 1 };
  });
  return bindPlan(compiled, Object.fromEntries(key.map((v, i) => [`k${i}`, v])));
}

/** `keys` as far as they name a stored object of `meta` (or a subclass): through its primary row and its class, in one table group. */
function checkedKeys(model: Model, meta: ClassMeta, keys: SQL): SQL {
  const [g] = groupsOf(model, meta);
  return discriminatorFilter(g!, subtree(model, meta.name)) ? storedRows(model, meta, g!, keys, join(keyRefs(g!))) : keys;
}

/** `SELECT columns` of the primary rows in group `g` of the objects of `meta` (or a subclass) whose keys are `keys`. */
function storedRows(model: Model, meta: ClassMeta, g: GroupLayout, keys: SQL, columns: SQL): SQL {
  const filter = discriminatorFilter(g, subtree(model, meta.name));
  return sql`SELECT ${columns} FROM ${ident(g.primaryTable)} ${ident(alias(0))} WHERE ${tuple(keyRefs(g))} IN (${keys})${filter ? sql` AND ${filter}` : sql``}`;
}

/**
 * Statements deleting `meta`'s extent, or, given `only` (the access rules' deletion, src/access/),
 * the objects whose primary row it keeps: the keys read from the stored tables, the test's claims
 * bound from `only.values`.
 */
export function deleteExtentStatements(model: Model, meta: ClassMeta, only?: ExtentRestriction): DeletePlan {
  const compiled = plans(model).get(`extent|${meta.name}${only ? `|${only.shape}` : ""}`, () =>
    compilePlan(model, deletion(model, meta, only ? onStoredTables(() => keptKeys(model, meta, only.keep)) : extentKeys(model, meta)), []),
  );
  return bindPlan(compiled, only?.values);
}

export interface ExtentRestriction {
  /** Names `keep` for the plan cache (the operation and the principal's roles). */
  shape: string;
  keep: (alias: string) => SQL;
  values: Record<string, unknown>;
}

/** The keys of `meta`'s extent whose primary row `keep` keeps. */
function keptKeys(model: Model, meta: ClassMeta, keep: (alias: string) => SQL): SQL {
  const selects = groupsOf(model, meta).map((g) => {
    const filter = discriminatorFilter(g, subtree(model, meta.name));
    return sql`SELECT ${join(keyRefs(g))} FROM ${tableRef(g.primaryTable)} ${ident(alias(0))} WHERE ${keep(alias(0))}${filter ? sql` AND ${filter}` : sql``}`;
  });
  return join(selects, sql` UNION ALL `);
}

function guardMissing(model: Model, meta: ClassMeta, keys: SQL): SQL {
  const exists = groupsOf(model, meta).map((g) => storedRows(model, meta, g, keys, sql`1`));
  return guardInsert("missing", sql`NOT EXISTS (${join(exists, sql` UNION ALL `)})`);
}

/**
 * A deletion's statements. Without a dependent relation from the deleted class's hierarchy the
 * keys are read where they are (the one key given, the extent's rows); with one the closure goes
 * to `extent_doomed` first and every statement reads it (src/write/cascade-plan.ts).
 */
function deletion(model: Model, meta: ClassMeta, keys: SQL): Deletion {
  const steps = new VersionSteps<never>(model);
  if (!cascades(model, meta)) {
    const parts = deletionParts(model, [{ scope: meta, keys }], steps);
    return { steps, parts, diagnose: () => countRequired(deletionParts(model, [{ scope: meta, keys }], new VersionSteps<never>(model)).required) };
  }
  const roots = reachableRoots(model, [meta.root]);
  const seeds = [seedsOf(model, meta, keys)];
  const doomed = (from: "table" | "closure") => roots.map((r) => ({ scope: classOf(model, r), keys: doomedKeys(model, r, from) }));
  return {
    steps,
    parts: deletionParts(model, doomed("table"), steps),
    fill: fillDoomed(model, seeds),
    roots,
    diagnose: () => sql`${closure(model, seeds)}${countRequired(deletionParts(model, doomed("closure"), new VersionSteps<never>(model)).required)}`,
  };
}

interface Deletion {
  steps: VersionSteps<never>;
  parts: ReturnType<typeof deletionParts>;
  /** The statement filling the doomed set, when the deletion cascades. */
  fill?: SQL;
  /** The hierarchies whose objects the cascade may delete. */
  roots?: string[];
  /** Counts, per required check, the references that refused the batch (a read after it). */
  diagnose: () => SQL;
}

/** The statements in their order: the doomed set, the steps (before any change), the guards, the changes, the rows. */
function deleteStatements(d: Deletion): SQL[] {
  return [
    ...(d.fill ? [d.fill] : []),
    ...d.steps.statements().map((s) => s.sql(noValues)),
    ...d.parts.required.map(guardRequired),
    ...d.parts.changes,
    ...d.parts.rows,
    ...(d.fill ? [emptyDoomed()] : []),
  ];
}
/** A delete plan's statements are whole when compiled: the key is the only placeholder. */
const noValues: At = () => {
  throw new Error("internal: a delete plan has no values of its own");
};
