/**
 * The parameters a query uses, collected while either front end binds it (subqueries included,
 * in one list), each with the type its uses require.
 */
import { fail } from "./errors.ts";
import type { ParamSpec, Pos, QType } from "./model.ts";
import { describeType } from "./types.ts";

/** Parameters seen anywhere in a query (subqueries included), in one list. */
export class ParamCollector {
  readonly specs = new Map<string | number, ParamSpec>();
  declared = false;
  implicit = false;
  positional = false;

  use(key: string | number, type: QType, pos: Pos, primitive = false): ParamSpec {
    let spec = this.specs.get(key);
    if (!spec) this.specs.set(key, (spec = { key, type, primitive, pos }));
    else if (spec.type.kind === "unknown" && type.kind !== "unknown") spec.type = type;
    // One value cannot be both a JSON array or object (a collection, a map) and a single value:
    // the SQL would read a string as JSON.
    else if (type.kind !== "unknown" && isContainer(spec.type) !== isContainer(type)) {
      fail(`parameter ${typeof key === "number" ? `?${key}` : `:${key}`} is used both as ${describeType(spec.type)} and as ${describeType(type)}`, pos);
    }
    return spec;
  }
}

const isContainer = (t: QType): boolean => t.kind === "collection" || t.kind === "map";
