/** JPQL entity names: how FROM, TREAT, a TYPE comparison or JOIN finds the class a name stands for. */
import type { ClassMeta, Model } from "../../metadata/model.ts";
import { fail } from "../shared/errors.ts";
import type { Pos } from "../shared/model.ts";

/** An entity by JPQL entity name (the simple name unless renamed) or, as DataNucleus allows, its class name. */
export function entityNamed(model: Model, name: string, pos: Pos): ClassMeta {
  const byName = [...model.classes.values()].find((c) => !c.embeddedOnly && (c.entityName === name || c.name === name));
  if (!byName) fail(`unknown entity "${name}" (entity names are case-sensitive)`, pos);
  return byName;
}
