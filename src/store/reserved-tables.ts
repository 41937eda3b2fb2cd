/**
 * The store's own tables, next to the model's: named here, below the schema that creates them
 * (src/mapping/migrate.ts), because the store reads their names in SQLite's constraint messages.
 */
export const SEQUENCE_TABLE = "extent_sequence";
/** Inserting NULL into one of its NOT NULL columns aborts a batch: a precondition inside a batch. */
export const GUARD_TABLE = "extent_guard";
/** A view whose one value is the fingerprint of the schema last brought up to date (src/mapping/migrate.ts). */
export const SCHEMA_VIEW = "extent_schema";
/** The objects a batch deletes along dependent relations (src/write/cascade-plan.ts): filled and emptied by the batch. */
export const DOOMED_TABLE = "extent_doomed";
