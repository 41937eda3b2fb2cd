/**
 * Which objects of a request body already exist, and as which class: one read batch with one
 * statement per table group of each hierarchy involved, however many objects the body holds.
 */
import { keyString } from "../mapping/keys.ts";
import type { ClassMeta, Model } from "../metadata/model.ts";
import { type Compiled, type SQL, compile, bind, sql, tuple } from "../store/sql.ts";
import type { Store } from "../store/store.ts";
import { classOf } from "../metadata/model.ts";
import { type GroupLayout, decodeRow, fromClause, groupsOf, keyRefs, selectList } from "./row-layout.ts";
import { keysFromJson, oneKey, oneKeyParam } from "./read-plan.ts";
import { append } from "../util/lists.ts";

export interface Existing {
  meta: ClassMeta;
  version?: number;
}

/**
 * Up to this many keys, a lookup is a fixed-cost read (`Statement.fixedCost`): each key is one
 * search of its table's primary key (test/json-select.test.ts holds SQLite's plan to that, over
 * seven models), so no number of stored rows can make it long. More keys (a body may hold
 * `objectsPerRequest`) keep the store's time limit.
 */
const FIXED_COST_KEYS = 64;

/** Each group's lookup, of many keys and of one (the HEAD of an object: one row, fetched alone). */
const compiled = { many: new WeakMap<GroupLayout, Compiled>(), one: new WeakMap<GroupLayout, Compiled>() };

/** The lookup of one table group's rows by the keys in the `keys` placeholder (a JSON array of keys; of one key, `oneKey`'s value). */
export function lookupStatement(group: GroupLayout, one = false): Compiled {
  const cache = one ? compiled.one : compiled.many;
  let c = cache.get(group);
  if (!c) {
    const keys = one ? oneKey(group.keyColumns.length) : keysFromJson(group.keyColumns.length);
    const q: SQL = sql`SELECT ${selectList(group, false)} FROM ${fromClause(group, false)} WHERE ${tuple(keyRefs(group))} IN (${keys})`;
    cache.set(group, (c = compile(q)));
  }
  return c;
}

/** Looks up identities (root class name + key) and returns the existing ones by key string. */
export async function findExisting(
  store: Store,
  model: Model,
  identities: readonly { root: string; key: readonly unknown[] }[],
): Promise<Map<string, Existing>> {
  const byRoot = new Map<string, (readonly unknown[])[]>();
  for (const { root, key } of identities) append(byRoot, root, key);
  const fixedCost = identities.length <= FIXED_COST_KEYS;
  const lookups: { group: GroupLayout; keys: unknown; one: boolean }[] = [];
  for (const [root, keys] of byRoot) {
    const one = keys.length === 1;
    const value = one ? oneKeyParam(keys[0]!) : JSON.stringify(keys.map((k) => (k.length === 1 ? k[0] : k)));
    for (const group of groupsOf(model, classOf(model, root))) lookups.push({ group, keys: value, one });
  }
  const found = new Map<string, Existing>();
  if (!lookups.length) return found;
  const results = await store.batch(
    lookups.map((l) => {
      const statement = bind(lookupStatement(l.group, l.one), { keys: l.keys });
      statement.oneRow = l.one;
      statement.fixedCost = fixedCost;
      return statement;
    }),
    "read",
  );
  lookups.forEach(({ group }, i) => {
    for (const row of results[i]!.rows) {
      const obj = decodeRow(group, row, false);
      if (obj) found.set(keyString(obj.meta.root, obj.key), { meta: obj.meta, version: obj.version });
    }
  });
  return found;
}
