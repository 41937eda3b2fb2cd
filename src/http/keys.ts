/**
 * The `{primary key}` of a URL or body: a plain value for single-field and datastore identity,
 * or a JSON object of the key fields (URL-encoded in a path) for composite keys. Parsed into
 * stored-form key values in the order of the class's key columns, no longer than `keyBytes`
 * (limits.keyBytes): 400 in a path, 422 in a body.
 */
import { decodeKeyPart } from "../mapping/read-graph.ts";
import { keyClassProblem, keyFieldColumns, keyLengthProblem } from "../mapping/keys.ts";
import { JsonNumber, numberOf, parseJson } from "../json/exact.ts";
import { pointer } from "../json/values.ts";
import type { ClassMeta, Model } from "../metadata/model.ts";
import { HttpError } from "./problem.ts";

export function keyFromPath(model: Model, meta: ClassMeta, segment: string, keyBytes: number): unknown[] {
  const parts = keyFieldColumns(meta);
  const composite = parts.length !== 1 || parts[0]!.type.kind === "key";
  // A single key may also be written as a JSON object; a String key that merely starts with "{" stays a string.
  if (composite || /^\s*\{/.test(segment)) {
    let json: unknown;
    try {
      json = parseJson(segment);
    } catch {
      if (composite)
        throw new HttpError(
          400,
          `${meta.name} has a composite key: give it as a JSON object of ${parts.map((p) => p.field).join(", ")}, not ${JSON.stringify(segment)}`,
        );
    }
    if (json !== undefined) return keyFromObject(model, meta, json, keyBytes, "path");
  }
  const part = parts[0]!;
  const kind = part.type.kind === "basic" ? part.type.basic : undefined;
  const text = segment.trim();
  let json: unknown = segment;
  if (kind && ["byte", "short", "int", "long", "biginteger", "float", "double", "decimal"].includes(kind))
    json = /^-?\d+(\.\d+)?$/.test(text) ? numberOf(text) : segment;
  else if (kind === "boolean") json = text === "true" ? true : text === "false" ? false : segment;
  else if (kind && /date|time|instant/.test(kind) && /^-?\d+$/.test(text)) json = numberOf(text);
  const decoded = decodeKeyPart(model, meta, part.type, json, `/${part.field}`);
  if (!decoded.ok) throw new HttpError(400, `the key ${JSON.stringify(segment)} is not a valid ${part.field}: ${decoded.error.message}`);
  const tooLong = keyLengthProblem([decoded.value], keyBytes);
  if (tooLong) throw new HttpError(400, tooLong);
  return [decoded.value];
}

/** A key object, from a path (`{"id":1,"kind":"a"}` URL-encoded) or from a body. */
export function keyFromObject(model: Model, meta: ClassMeta, json: unknown, keyBytes: number, from: "path" | "body"): unknown[] {
  if (json === null || typeof json !== "object" || Array.isArray(json) || json instanceof JsonNumber)
    throw new HttpError(
      400,
      `a key must be a JSON object of ${keyFieldColumns(meta)
        .map((p) => p.field)
        .join(", ")}`,
    );
  const obj = json as Record<string, unknown>;
  const parts = keyFieldColumns(meta);
  const errors: { path: string; message: string }[] = [];
  const classProblem = keyClassProblem(model, meta, obj.class);
  if (classProblem) errors.push({ path: "/class", message: classProblem });
  const key = parts.map((part) => {
    const value = obj[part.field];
    if (value === undefined && part.type.kind !== "key") {
      errors.push({ path: pointer("", part.field), message: `key field "${part.field}" is required` });
      return undefined;
    }
    const decoded = decodeKeyPart(model, meta, part.type, value ?? null, pointer("", part.field));
    if (!decoded.ok) errors.push(decoded.error);
    return decoded.ok ? decoded.value : undefined;
  });
  for (const name of Object.keys(obj)) {
    if (name !== "class" && !parts.some((p) => p.field === name))
      errors.push({ path: pointer("", name), message: `"${name}" is not a key field of ${meta.name}` });
  }
  if (errors.length) throw new HttpError(400, `the key of ${meta.name} is not valid`, { errors });
  const tooLong = keyLengthProblem(key, keyBytes);
  if (tooLong && from === "path") throw new HttpError(400, tooLong);
  if (tooLong) throw new HttpError(422, tooLong, { errors: [{ path: parts.length === 1 ? pointer("", parts[0]!.field) : "", message: tooLong }] });
  return key;
}
