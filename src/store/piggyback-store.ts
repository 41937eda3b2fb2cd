/**
 * A store whose first read batch also runs a few statements of the caller's, after its own, so
 * that facts a read's answer needs beside its objects (a page's cursor, a count) cost no round
 * trip of their own and are read in the same transaction as the objects.
 */
import type { Statement, StatementResult, Store } from "./store.ts";

export function piggyback(store: Store, extra: readonly Statement[]): { store: Store; results: () => readonly StatementResult[] } {
  let taken: StatementResult[] | undefined;
  const wrapped: Store = {
    interrupts: store.interrupts,
    batch: async (statements, mode, deadline) => {
      if (taken || mode !== "read") return store.batch(statements, mode, deadline);
      taken = [];
      const results = await store.batch([...statements, ...extra], mode, deadline);
      taken = results.slice(statements.length);
      return results.slice(0, statements.length);
    },
    migrate: (statements) => store.migrate(statements),
    close: () => store.close(),
  };
  return {
    store: wrapped,
    results: () => {
      if (!taken || taken.length !== extra.length) throw new Error("internal: the read ran no batch to carry its statements");
      return taken;
    },
  };
}
