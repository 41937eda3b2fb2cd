/**
 * `JDOHelper.getObjectId(x)` compared with a literal key (`JDOHelper.getObjectId(this) == 7`):
 * the literal stands for the identity whose single key value it is, as a parameter may be given
 * as the plain key. The literal is retyped to the entity so that the comparison is one of
 * identities (the SQL generator binds its value as the key).
 */
import type { Model } from "../../metadata/model.ts";
import { fail } from "../shared/errors.ts";
import type { QExpr } from "../shared/model.ts";
import { comparable, describeType, fieldQType } from "../shared/types.ts";

/** `other` as an identity of `objectId`'s class when it is a literal key of it, else unchanged. */
export function literalKeyAsObjectId(model: Model, objectId: QExpr, other: QExpr): QExpr {
  if (objectId.kind !== "objectId" || objectId.type.kind !== "entity") return other;
  if (other.kind !== "literal" || other.value === null || other.type.kind === "entity") return other;
  const meta = objectId.type.meta;
  if (meta.keyColumns.length !== 1)
    fail(`the object id of ${meta.name} has ${meta.keyColumns.length} key values: compare it with a parameter (a JSON object of the key fields)`, other.pos);
  const identity = meta.identity;
  const keyType =
    identity.kind === "application"
      ? fieldQType(model, meta.fields.get(identity.fields[0]!)!)
      : identity.generation.kind === "uuid-string" || identity.generation.kind === "uuid-hex"
        ? ({ kind: "string" } as const)
        : ({ kind: "number", numeric: "long" } as const);
  // A number key takes a number (not a char), a String key a string: the key's own Java type.
  const fits =
    keyType.kind === "number" || keyType.kind === "string"
      ? other.type.kind === keyType.kind && !(other.type.kind === "string" && other.type.char && keyType.kind === "number")
      : comparable(model, keyType, other.type);
  if (!fits) fail(`the object id of ${meta.name} has a ${describeType(keyType)} key, not ${describeType(other.type)}`, other.pos);
  return { ...other, type: objectId.type };
}
