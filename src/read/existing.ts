/**
 * Which objects of a request body already exist, and as which class: one read batch with one
 * statement per table group of each hierarchy involved, however many objects the body holds.
 */
import { keyString } from "../mapping/keys.ts";
import type { ClassMeta, Model } from "../metadata/model.ts";
import { type SQL, compile, bind, sql, tuple } from "../store/sql.ts";
import type { Store } from "../store/store.ts";
import { classOf } from "../metadata/model.ts";
import { type GroupLayout, decodeRow, fromClause, groupsOf, keyRefs, selectList } from "./row-layout.ts";
import { keysFromJson } from "./read-plan.ts";

export interface Existing {
  meta: ClassMeta;
  version?: number;
}

const compiled = new WeakMap<GroupLayout, ReturnType<typeof compile>>();

function lookupStatement(group: GroupLayout) {
  let c = compiled.get(group);
  if (!c) {
    const q: SQL = sql`SELECT ${selectList(group, false)} FROM ${fromClause(group, false)} WHERE ${tuple(keyRefs(group))} IN (${keysFromJson(group.keyColumns.length)})`;
    compiled.set(group, (c = compile(q)));
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
  for (const { root, key } of identities) byRoot.set(root, [...(byRoot.get(root) ?? []), key]);
  const lookups: { group: GroupLayout; keys: string }[] = [];
  for (const [root, keys] of byRoot) {
    const json = JSON.stringify(keys.map((k) => (k.length === 1 ? k[0] : k)));
    for (const group of groupsOf(model, classOf(model, root))) lookups.push({ group, keys: json });
  }
  const found = new Map<string, Existing>();
  if (!lookups.length) return found;
  const results = await store.batch(
    lookups.map((l) => bind(lookupStatement(l.group), { keys: l.keys })),
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
