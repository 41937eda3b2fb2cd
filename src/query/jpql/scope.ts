/** What binding a JPQL query keeps track of: its identification and result variables, its parameters, the scope around a subquery. */
import type { Model } from "../../metadata/model.ts";
import type { Binding, QExpr, QQuery } from "../shared/model.ts";
import type { ParamCollector } from "../shared/param-collector.ts";
import type { JSelectQuery } from "./syntax.ts";

export interface JScope {
  model: Model;
  params: ParamCollector;
  outer?: JScope;
  query: QQuery;
  /** Identification variables by lower-cased name (JPQL variables are case-insensitive). */
  variables: Map<string, Binding>;
  resultVariables: Map<string, QExpr>;
  /**
   * The query binder, which an expression reaches back to for its subqueries: it comes with the
   * scope so that the files import one way, bind.ts → expressions.ts → scope.ts.
   */
  readonly binders: Binders;
}

export interface Binders {
  /** A subquery's whole query, with `outer` as the scope it sees. */
  subquery(outer: JScope, source: JSelectQuery): QQuery;
}

export function lookupVariable(scope: JScope, name: string): Binding | undefined {
  for (let s: JScope | undefined = scope; s; s = s.outer) {
    const b = s.variables.get(name.toLowerCase());
    if (b) return b;
  }
  return undefined;
}
