/** Assertions the tests share: a problem document of the contract, and a request that changed nothing. */
import assert from "node:assert/strict";
import { databaseDigest } from "./digest.ts";
import type { Harness, Reply } from "./harness.ts";

/** `r` is an `application/problem+json` answer of `status` whose detail matches `detail`. */
export function assertProblem(r: Reply, status: number, detail: RegExp): void {
  assert.equal(r.status, status, r.text.slice(0, 300));
  assert.match(r.headers.get("content-type") ?? "", /application\/problem\+json/);
  assert.equal(r.body.status, status);
  assert.match(r.body.detail, detail);
}

/** Runs `request` and checks that it left every table as it was. */
export async function unchanged(h: Harness, request: () => Promise<Reply>): Promise<Reply> {
  const before = await databaseDigest(h.sql);
  const reply = await request();
  assert.equal(await databaseDigest(h.sql), before, "the refused request changed the database");
  return reply;
}
