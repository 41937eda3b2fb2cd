/**
 * Fetch plans, as JDO defines them: a set of fetch groups (the `default` group always, `all`, or
 * named groups of the metadata) and a maximum fetch depth (1 by default, -1 unlimited).
 */
import type { ClassMeta, FieldMeta, Model } from "../metadata/model.ts";
import { FETCH_PLAN_LIMIT, FETCH_PLAN_QUERY_LIMIT, FETCH_PLAN_QUERY_WEIGHT, perClassCache, perModelCache } from "../cache/bounded-cache.ts";

export interface FetchPlan {
  /** Named groups in addition to `default`; `all` means every field. */
  groups: readonly string[];
  maxDepth: number;
  /** Single fields added to the plan, as `declaringClass.field` (a JPQL JOIN FETCH). */
  fields?: readonly string[];
  /**
   * Fields the access rules hide from the principal (src/access/): absent from the JSON, as if the
   * class had no such field (not even a reference's identity). `key` tells hidden sets apart.
   */
  hidden?: HiddenFields;
}

export interface HiddenFields {
  key: string;
  /** The names of `meta`'s fields hidden (per class: a subclass's own rules replace its superclass's). */
  of(meta: ClassMeta): ReadonlySet<string>;
}

/** Whether `plan` hides `field` of objects of `meta`. */
export const hides = (plan: FetchPlan, meta: ClassMeta, field: FieldMeta): boolean => plan.hidden?.of(meta).has(field.name) ?? false;

/**
 * A string that tells fetch plans apart, for caches (the depth aside). Plans that fetch the same
 * fields share it: groups and fields are sets (order and repeats, which a client chooses, do not
 * count), and `all` covers every field.
 */
export function planKey(plan: FetchPlan): string {
  let key = planKeys.get(plan);
  if (key === undefined) planKeys.set(plan, (key = planKeyOf(plan)));
  return key;
}

/** Each plan's key, made once: a plan is read from a query string once (fetchPlanOfQuery) and asked for its key by every cache of a request. */
const planKeys = new WeakMap<FetchPlan, string>();

function planKeyOf(plan: FetchPlan): string {
  const { groups, fields, hidden } = plan;
  const h = hidden ? `-${hidden.key}` : "";
  if (groups.includes("all")) return `all${h}`;
  const g = groups.length > 1 ? [...new Set(groups)].sort().join(",") : (groups[0] ?? "");
  return (fields?.length ? `${g}+${[...new Set(fields)].sort().join(",")}` : g) + h;
}

/**
 * `plan` with the fields `hidden` hides, made once per plan and set of hidden fields (both are
 * kept objects: plans per query string, hidden sets per set of roles), so that a principal's
 * requests find what is cached by plan (its key, its JSON selects) as requests without rules do.
 * Held weakly by both.
 */
export function narrowedPlan(plan: FetchPlan, hidden: HiddenFields): FetchPlan {
  let byHidden = narrowedPlans.get(plan);
  if (!byHidden) narrowedPlans.set(plan, (byHidden = new WeakMap()));
  let narrowed = byHidden.get(hidden);
  if (!narrowed) byHidden.set(hidden, (narrowed = { ...plan, hidden }));
  return narrowed;
}

const narrowedPlans = new WeakMap<FetchPlan, WeakMap<HiddenFields, FetchPlan>>();

export const DEFAULT_PLAN: FetchPlan = { groups: [], maxDepth: 1 };

/** The fetch groups some class of the model names, gathered once per model (not at every request that names one). */
const groupNamesOf = new WeakMap<Model, ReadonlySet<string>>();
function groupNames(model: Model): ReadonlySet<string> {
  let names = groupNamesOf.get(model);
  if (!names) groupNamesOf.set(model, (names = new Set([...model.classes.values()].flatMap((c) => [...c.fetchGroups.keys()]))));
  return names;
}

export type PlanParse = { ok: true; plan: FetchPlan } | { ok: false; parameter: string; message: string };

/**
 * Reads `fetchGroup` (alias `fetch`, comma-separated for several) and `maxFetchDepth`. `cap` is
 * the server's deepest depth (`-1`: none): a deeper request is refused, and `-1` reads to the cap.
 */
export function parseFetchPlan(model: Model, params: URLSearchParams, fallback: FetchPlan = DEFAULT_PLAN, cap = -1): PlanParse {
  const groupParam = params.get("fetchGroup") ?? params.get("fetch");
  const depthParam = params.get("maxFetchDepth");
  let groups = fallback.groups;
  if (groupParam !== null) {
    groups = groupParam
      .split(",")
      .map((g) => g.trim())
      .filter((g) => g && g !== "default");
    for (const g of groups) {
      if (g !== "all" && !groupNames(model).has(g)) {
        return { ok: false, parameter: "fetchGroup", message: `unknown fetch group "${g}": use default, all, or a fetch group of the metadata` };
      }
    }
  }
  let maxDepth = fallback.maxDepth;
  if (depthParam !== null) {
    maxDepth = /^-?\d+$/.test(depthParam.trim()) ? Number(depthParam) : NaN;
    if (!(maxDepth === -1 || (Number.isSafeInteger(maxDepth) && maxDepth >= 1))) {
      return {
        ok: false,
        parameter: "maxFetchDepth",
        message: `maxFetchDepth must be a positive integer or -1 (unlimited), got ${JSON.stringify(depthParam)}`,
      };
    }
    if (cap !== -1 && maxDepth > cap) {
      return { ok: false, parameter: "maxFetchDepth", message: `maxFetchDepth ${maxDepth} is deeper than this server allows (limit maxFetchDepth: ${cap})` };
    }
    if (maxDepth === -1 && cap !== -1) maxDepth = cap;
  }
  return { ok: true, plan: { groups, maxDepth } };
}

/**
 * `parseFetchPlan` of a query's parameters as the query-text cache keeps them (src/http/inputs.ts
 * `queryOf`: one URLSearchParams per query string, shared), remembered with them: a repeated
 * filter, listing, extent or query then gets the same plan object each time, which what is cached
 * by plan finds again (its key, the JSON select's key), where a plan parsed anew per request was
 * keyed again at every step. One plan per parameters object (for the fallback and cap it was read
 * with), held weakly by it.
 */
export function fetchPlanOfParams(model: Model, params: URLSearchParams, fallback: FetchPlan = DEFAULT_PLAN, cap = -1): PlanParse {
  const last = fromParams.get(params);
  if (last !== undefined && last.model === model && last.fallback === fallback && last.cap === cap) return last.parsed;
  const parsed = parseFetchPlan(model, params, fallback, cap);
  fromParams.set(params, { model, fallback, cap, parsed });
  return parsed;
}

const fromParams = new WeakMap<URLSearchParams, { model: Model; fallback: FetchPlan; cap: number; parsed: PlanParse }>();

/**
 * A URL without a query asks for the fallback's plan, whatever the model and the cap: one parse
 * per fallback (a GET by key or a PUT of most clients), without building the cache's key.
 */
const noQuery = new WeakMap<FetchPlan, PlanParse>();
function withoutQuery(fallback: FetchPlan): PlanParse {
  let parsed = noQuery.get(fallback);
  if (!parsed) noQuery.set(fallback, (parsed = { ok: true, plan: { groups: fallback.groups, maxDepth: fallback.maxDepth } }));
  return parsed;
}

/** Parsed fetch plans per model, by query string (with the fallback and the cap they were read against). */
const parsedPlans = perModelCache<PlanParse>("fetchPlanQueries", FETCH_PLAN_QUERY_LIMIT, { limit: FETCH_PLAN_QUERY_WEIGHT, weigh: (key) => key.length });

/**
 * `parseFetchPlan` of a URL's query (`?…`, as searchOf reads it), cached: clients repeat their
 * query strings, and reading one builds a URLSearchParams. The plan answered is shared: not to be changed.
 */
export function fetchPlanOfQuery(model: Model, search: string, fallback: FetchPlan = DEFAULT_PLAN, cap = -1): PlanParse {
  if (search === "") return withoutQuery(fallback);
  const from = fallback === DEFAULT_PLAN ? "" : `${planKey(fallback)}:${fallback.maxDepth}`;
  return parsedPlans(model).get(`${cap} ${from} ${search}`, () => parseFetchPlan(model, new URLSearchParams(search), fallback, cap));
}

/** Field lists per class, by planKey: an LRU of FETCH_PLAN_LIMIT entries per class. */
const cache = perClassCache<FieldMeta[]>("fetchPlans", FETCH_PLAN_LIMIT);

/** The fields of a class that the plan fetches, in declaration order (identity and version excluded). */
export function planFields(meta: ClassMeta, plan: FetchPlan): FieldMeta[] {
  return cache(meta).get(planKey(plan), () => {
    const all = plan.groups.includes("all");
    const named = new Set(plan.groups.flatMap((g) => (meta.fetchGroups.get(g) ?? []).map((p) => p.split(".")[0]!)));
    const extra = new Set(plan.fields ?? []);
    return [...meta.fields.values()].filter(
      (f) =>
        !f.primaryKey &&
        !f.isVersionField &&
        !hides(plan, meta, f) &&
        (all || f.defaultFetchGroup || named.has(f.name) || extra.has(`${f.declaringClass}.${f.name}`)),
    );
  });
}
