/**
 * The sample model (schema/jdo/package.jdo) as the fuzz generators see it: class and field names
 * with a kind each, and the keys that exist once the world is seeded (test/fuzz/world.ts). Written
 * out by hand rather than read from the metadata so the generators can be built before any
 * handler exists, and so a reader sees at once what is being generated.
 */
export const PKG = "org.extent.sample";

/** The Shelf the world seeds (a client-chosen UUID key). */
export const SHELF_CODE = "0f8fad5b-d9cb-469f-a165-70867728950e";

export type Simple = "Author" | "Item" | "Book" | "Magazine" | "Shelf" | "Member" | "Category";

export type FieldKind =
  | "string"
  | "int"
  | "long"
  | "decimal"
  | "date"
  | "localdate"
  | "instant"
  | "uuid"
  | "enum"
  | "strings"
  | "map"
  | "address"
  | "categoryKey"
  | { ref: Simple }
  | { many: Simple };

export interface ClassInfo {
  abstract?: boolean;
  /** Concrete classes an object of this declared type may be (itself first when concrete). */
  concrete: Simple[];
  /** Key fields (datastore identity: `_id`). */
  key: Record<string, FieldKind>;
  /** Every persistent non-key field, inherited ones included. */
  fields: Record<string, FieldKind>;
}

const ITEM_FIELDS: Record<string, FieldKind> = {
  version: "long",
  title: "string",
  published: "date",
  price: "decimal",
  tags: "strings",
  author: { ref: "Author" },
};

export const CLASSES: Record<Simple, ClassInfo> = {
  Author: { concrete: ["Author"], key: { _id: "long" }, fields: { name: "string", born: "localdate", address: "address", works: { many: "Item" } } },
  Item: { abstract: true, concrete: ["Book", "Magazine"], key: { id: "long" }, fields: ITEM_FIELDS },
  Book: { concrete: ["Book"], key: { id: "long" }, fields: { ...ITEM_FIELDS, isbn: "string", pages: "int", genre: "enum" } },
  Magazine: { concrete: ["Magazine"], key: { id: "long" }, fields: { ...ITEM_FIELDS, issue: "int" } },
  Shelf: { concrete: ["Shelf"], key: { code: "uuid" }, fields: { label: "string", items: { many: "Item" } } },
  Member: { concrete: ["Member"], key: { email: "string" }, fields: { name: "string", joined: "instant", phones: "map", borrowed: { many: "Book" } } },
  Category: { concrete: ["Category"], key: { id: "long", kind: "string", parent: "categoryKey" }, fields: { name: "string" } },
};

export const SIMPLE_NAMES = Object.keys(CLASSES) as Simple[];
export const fullName = (c: Simple): string => `${PKG}.${c}`;
export const GENRES = ["FICTION", "SCIENCE", "HISTORY", "POETRY"];

/** Keys as JSON values: those the seeded world holds, then valid ones it does not. */
export const EXISTING_KEYS: Record<Simple, unknown[]> = {
  Author: [1, 2],
  Item: [1, 2, 3, 4],
  Book: [1, 2, 3],
  Magazine: [4],
  Shelf: [SHELF_CODE, SHELF_CODE.toUpperCase()],
  Member: ["ada@example.org", "bob@example.org"],
  Category: [
    { id: 1, kind: "genre" },
    { id: 2, kind: "genre", parent: { id: 1, kind: "genre" } },
  ],
};

export const MISSING_KEYS: Record<Simple, unknown[]> = {
  Author: [99, 0, Number.MAX_SAFE_INTEGER],
  Item: [99, 0, -1],
  Book: [4, 99],
  Magazine: [1, 99],
  Shelf: ["6ba7b810-9dad-11d1-80b4-00c04fd430c8"],
  Member: ["nobody@example.org", "", " ada@example.org"],
  Category: [
    { id: 3, kind: "genre" },
    { id: 1, kind: "genre", parent: { id: 9, kind: "x" } },
    { id: 2, kind: "genre", parent: { id: 2, kind: "genre", parent: { id: 1, kind: "genre" } } },
  ],
};

/**
 * The identity of a key value as a JSON object of key fields (what a nested reference carries): a
 * category's key is already such an object; any other value is the single key field's value.
 */
export function keyObject(c: Simple, key: unknown): Record<string, unknown> {
  const plainObject = key !== null && typeof key === "object" && Object.getPrototypeOf(key) === Object.prototype;
  if (c === "Category" && plainObject) return { ...(key as Record<string, unknown>) };
  return { [Object.keys(CLASSES[c].key)[0]!]: key };
}
