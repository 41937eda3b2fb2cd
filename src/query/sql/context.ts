/**
 * The generator's scopes: which SQL stands for each binding (the candidate, variables), nested
 * for EXISTS and scalar subqueries so that inner SQL sees outer rows (correlation).
 */
import type { Model } from "../../metadata/model.ts";
import { type SQL, sql } from "../../store/sql.ts";
import type { Binding, ParamRef, QExpr } from "../shared/model.ts";
import type { EntityRef } from "./entities.ts";

export type BoundSql = { kind: "entity"; ref: EntityRef } | { kind: "value"; value: SQL; key?: SQL };

export class GenContext {
  private readonly bindings = new Map<Binding, BoundSql>();
  /** Navigations read from a row of this scope's FROM instead of by key (src/query/sql/semijoin.ts). */
  private readonly rows = new Map<QExpr, EntityRef>();

  constructor(
    readonly model: Model,
    readonly parent?: GenContext,
    /** The variables of the query being compiled: only these are scoped by EXISTS here. */
    readonly variables: ReadonlySet<Binding> = new Set(),
    private readonly counter: { n: number } = { n: 0 },
  ) {}

  /** A nested scope of the same query (an EXISTS over its variables). */
  child(): GenContext {
    return new GenContext(this.model, this, this.variables, this.counter);
  }

  /** The scope of a subquery: sees the outer bindings, scopes its own variables. */
  subquery(variables: Iterable<Binding>): GenContext {
    return new GenContext(this.model, this, new Set(variables), this.counter);
  }

  bind(binding: Binding, bound: BoundSql): void {
    this.bindings.set(binding, bound);
  }

  lookup(binding: Binding): BoundSql | undefined {
    return this.bindings.get(binding) ?? this.parent?.lookup(binding);
  }

  /** In this scope, the object `navigation` reaches is the row `ref`. */
  override(navigation: QExpr, ref: EntityRef): void {
    this.rows.set(navigation, ref);
  }

  overridden(navigation: QExpr): EntityRef | undefined {
    return this.rows.get(navigation) ?? this.parent?.overridden(navigation);
  }

  /** A fresh table-alias prefix, unique in the whole statement. */
  prefix(): string {
    return `q${++this.counter.n}_`;
  }

  readonly nextAlias = (): string => `x${++this.counter.n}`;
}

/** Parameters are placeholders named after their key; entity keys and derived values get suffixes. */
export function paramName(ref: ParamRef | string | number, part?: string | number): string {
  const key = typeof ref === "object" ? ref.key : ref;
  return part === undefined ? `p.${key}` : `p.${key}.${part}`;
}

export const placeholder = (ref: ParamRef | string | number, part?: string | number): SQL => sql`${sql.placeholder(paramName(ref, part))}`;
