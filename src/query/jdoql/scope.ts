/**
 * What binding a JDOQL query keeps track of: the query being built, its names, variables and
 * parameters, and the scope of the query around a subquery.
 */
import type { Model } from "../../metadata/model.ts";
import type { Binding, ParamSpec, QExpr, QQuery, QType } from "../shared/model.ts";
import type { ParamCollector } from "../shared/param-collector.ts";
import type { TypeNames } from "./names.ts";
import type { SExpr, SQuery } from "./syntax.ts";

export interface Scope {
  model: Model;
  names: TypeNames;
  query: QQuery;
  /** The name that stands for the candidate in a subquery with an alias (then `this` is the outer candidate). */
  alias?: string;
  variables: Map<string, Binding>;
  declaredVariables: boolean;
  declaredParams: Map<string, ParamSpec>;
  params: ParamCollector;
  outer?: Scope;
  /**
   * The binders that files below `bind.ts` reach back to (a method's arguments are expressions,
   * an expression may hold a subquery): they come with the scope so that the files import one
   * way, bind.ts → result.ts → expressions.ts → methods.ts → scope.ts.
   */
  readonly binders: Binders;
}

export interface Binders {
  expr(scope: Scope, e: SExpr, expected?: QType): QExpr;
  /** A subquery's whole query, with `outer` as the scope it sees. */
  subquery(outer: Scope, source: SQuery): QQuery;
}

/** An implicit parameter takes the type of what it is compared with. */
export function retypeParam(scope: Scope, param: QExpr, type: QType): QExpr {
  if (param.kind !== "param" || type.kind === "null" || type.kind === "unknown") return param;
  const spec = scope.params.use(param.ref.key, type, param.pos);
  // A declared collection of unknown elements learns its element type too.
  if (spec.type.kind === "collection" && spec.type.element.kind === "unknown" && type.kind === "collection") spec.type = type;
  return { ...param, type };
}
