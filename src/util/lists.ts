/**
 * Lists kept by key. A list grows in place: code that copied a list to add one item
 * (`[...old, item]`) was quadratic in a body's objects (about 100 ms at objectsPerRequest).
 */

/** Adds `item` to the list under `key`, making the list on its first item. */
export function append<K, T>(lists: Map<K, T[]>, key: K, item: T): void {
  const list = lists.get(key);
  if (list) list.push(item);
  else lists.set(key, [item]);
}
