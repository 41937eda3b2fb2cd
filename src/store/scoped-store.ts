/**
 * A store whose statements are rewritten before they run: how access control puts its view of the
 * tables in front of each statement a request runs (src/access/visibility.ts). One place, below
 * every read and write path, so no path can run a statement past it.
 */
import type { Statement, Store } from "./store.ts";

export function scopedStore(store: Store, rewrite: (statement: Statement) => Statement): Store {
  return {
    interrupts: store.interrupts,
    batch: (statements, mode, deadline) => store.batch(statements.map(rewrite), mode, deadline),
    migrate: (statements) => store.migrate(statements),
    close: () => store.close(),
  };
}
