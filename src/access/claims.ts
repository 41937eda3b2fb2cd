/**
 * The principal's claims as the rules' filters see them: implicit parameters (`:sub`, `:email`),
 * bound as values, never spliced into text. A claim is converted as a query parameter of the same
 * type would be (src/query/params.ts); a claim the token lacks, or one that does not fit the type
 * the filter gives it, makes every filter naming it hold for no object (`claimPresent` is 0).
 */
import type { Principal } from "../config/access.ts";
import type { Model } from "../metadata/model.ts";
import { QueryError } from "../errors/query-error.ts";
import { bindParams } from "../query/params.ts";
import type { ParamSpec } from "../query/shared/model.ts";
import { paramName } from "../query/sql/context.ts";
import { type SQL, param } from "../store/sql.ts";

/** 1 when the principal has the claim `name` in a form the rules can compare, else 0. */
export const claimPresent = (name: string): SQL => param(paramName(name, "present"));

/** Placeholder values for every claim the rules name, from `principal`'s claims. */
export function claimValues(model: Model, claims: ReadonlyMap<string, ParamSpec>, principal: Principal): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, spec] of claims) {
    const given = Object.hasOwn(principal.claims, name) ? principal.claims[name] : undefined;
    let bound: Record<string, unknown> | undefined;
    if (given !== undefined && given !== null) {
      try {
        bound = bindParams(model, [spec], { [name]: given });
      } catch (error) {
        if (!(error instanceof QueryError)) throw error;
      }
    }
    Object.assign(values, bound ?? bindParams(model, [{ ...spec, primitive: false }], { [name]: null }));
    values[paramName(name, "present")] = bound ? 1 : 0;
  }
  return values;
}
