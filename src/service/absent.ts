/**
 * How a request names an object in its answers: the 404 of a key that names no object, and the
 * object in a failed precondition, with the key as the client writes it (never the stored form,
 * such as an ancestor key's canonical text or the key's column values).
 */
import { HttpError } from "../http/problem.ts";
import { keyText } from "../read/serialize.ts";
import type { ClassMeta, Model } from "../metadata/model.ts";

/** `org.x.Item 3`, `org.x.Category {"id":2,"kind":"genre","parent":null}`. */
export function objectNamed(model: Model, meta: ClassMeta, key: readonly unknown[]): string {
  return `${meta.name} ${keyText(model, meta, key)}`;
}

export function noSuchObject(model: Model, meta: ClassMeta, key: readonly unknown[]): HttpError {
  return new HttpError(404, `no ${meta.name} with key ${keyText(model, meta, key)}`);
}
