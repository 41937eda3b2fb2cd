/**
 * A store whose every statement starts with the same WITH clause: how access control puts its
 * view of the tables in front of each statement a request runs (src/access/visibility.ts). A
 * statement that has its own WITH gets the clause's tables added in front of its own.
 */
import type { Statement, Store } from "./store.ts";

export function scopedStore(store: Store, withClause: Statement): Store {
  const ctes = withClause.sql.replace(/^WITH /, "");
  const scoped = (s: Statement): Statement => {
    const own = /^\s*WITH\s+(RECURSIVE\s+)?/i.exec(s.sql);
    const text = own ? `WITH ${own[1] ?? ""}${ctes}, ${s.sql.slice(own[0].length)}` : `${withClause.sql} ${s.sql}`;
    return { ...s, sql: text, params: withClause.params.length ? [...withClause.params, ...s.params] : s.params };
  };
  return {
    interrupts: store.interrupts,
    batch: (statements, mode, deadline) => store.batch(statements.map(scoped), mode, deadline),
    migrate: (statements) => store.migrate(statements),
    close: () => store.close(),
  };
}
