/**
 * An object as the service answers it: its JSON text, written by SQL (a JSON select) or by the
 * serializer, and its version (the ETag) when its class is versioned.
 */
import type { AnswerBudget } from "./answer-budget.ts";
import { stringify } from "./exact.ts";

export interface ObjectJson {
  json: string;
  version: number | null;
}

/** The answer of an object the serializer built (within `budget` when it has one). */
export function serialized(object: Record<string, unknown>, budget?: AnswerBudget): ObjectJson {
  const version = object._version;
  const json = stringify(object);
  return { json: budget ? budget.checked(json) : json, version: typeof version === "number" ? version : null };
}
