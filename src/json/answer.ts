/**
 * An object as the service answers it: its JSON text, written by SQL (a JSON select) or by the
 * serializer, and its version (the ETag) when its class is versioned.
 */
import { stringify } from "./exact.ts";

export interface ObjectJson {
  json: string;
  version: number | null;
}

/** The answer of an object the serializer built. */
export function serialized(object: Record<string, unknown>): ObjectJson {
  const version = object._version;
  return { json: stringify(object), version: typeof version === "number" ? version : null };
}
