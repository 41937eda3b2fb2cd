/**
 * How a request names an object in its answers: the 404 of a key that names no object, and the
 * object in a failed precondition, with the key as the client writes it (never the stored form,
 * such as an ancestor key's canonical text or the key's column values).
 */
import { NotFoundError, PreconditionFailedError, type StatedCondition } from "../errors/request-errors.ts";
import { keyText } from "../read/serialize.ts";
import type { ClassMeta, Model } from "../metadata/model.ts";
import type { VersionCondition } from "../write/write-guards.ts";

/** A version condition and the header it came from (src/http/conditional.ts reads them), for the 412's message. */
export interface Precondition extends VersionCondition, StatedCondition {}

/** `org.x.Item 3`, `org.x.Category {"id":2,"kind":"genre","parent":null}`. */
export function objectNamed(model: Model, meta: ClassMeta, key: readonly unknown[]): string {
  return `${meta.name} ${keyText(model, meta, key)}`;
}

export function noSuchObject(model: Model, meta: ClassMeta, key: readonly unknown[]): NotFoundError {
  return new NotFoundError(`no ${meta.name} with key ${keyText(model, meta, key)}`);
}

/** The 412 of a write whose guard found the version of the object failing one of `conditions`. */
export function preconditionFailed(model: Model, meta: ClassMeta, key: readonly unknown[], conditions: readonly Precondition[]): PreconditionFailedError {
  return new PreconditionFailedError(conditions, objectNamed(model, meta, key));
}
