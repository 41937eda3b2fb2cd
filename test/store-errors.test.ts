/**
 * The store's one translation of the drivers' errors (src/store/store-errors.ts): SQLite's message
 * becomes the error the layers above act on, and the message is kept for the log.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { StoreBusyError, StoreMemoryError, StoreTooBigError } from "../src/errors/capacity-errors.ts";
import { StoreConstraintError, StoreRefusalError } from "../src/store/store.ts";
import { translateStoreError } from "../src/store/store-errors.ts";

const translated = (message: string) => translateStoreError(new Error(message));

test("a locked database, the engine's memory and its length limit", () => {
  assert.ok(translated("SQLITE_BUSY: database is locked") instanceof StoreBusyError);
  assert.ok(translated("out of memory") instanceof StoreMemoryError);
  assert.ok(translated("SQLITE_TOOBIG: string or blob too big") instanceof StoreTooBigError);
});

test("what a statement computes past the engine's limits: one reason each, the message kept", () => {
  const cases: [string, StoreRefusalError["reason"]][] = [
    ["SQLITE_ERROR: parser stack overflow", "too-deep"],
    ["Expression tree is too large (maximum depth 1000)", "too-deep"],
    ["too many terms in compound SELECT", "too-deep"],
    ["SQLITE_ERROR: integer overflow", "integer-overflow"],
    ["Numerical result out of range", "out-of-range"],
    ["Numerical argument out of domain", "out-of-range"],
    ["LIKE or GLOB pattern too complex", "pattern-too-long"],
  ];
  for (const [message, reason] of cases) {
    const error = translated(message);
    assert.ok(error instanceof StoreRefusalError, message);
    assert.equal(error.reason, reason);
    assert.equal(error.message, message);
  }
});

test("constraints: guards by name, duplicate keys, the rest; any other error unchanged", () => {
  const guard = translated("SQLITE_CONSTRAINT: NOT NULL constraint failed: extent_guard.stale");
  assert.ok(guard instanceof StoreConstraintError && guard.kind === "guard");
  const unique = translated("UNIQUE constraint failed: person.id");
  assert.ok(unique instanceof StoreConstraintError && unique.kind === "unique");
  const other = new Error("no such table: nowhere");
  assert.equal(translateStoreError(other), other);
});
