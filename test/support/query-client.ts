/** Query requests for tests: JDOQL by `query=` or `filter=`, with `params=`, and the checks every answer needs. */
import assert from "node:assert/strict";
import type { Harness, Reply } from "./harness.ts";

export function withParams(url: string, params?: unknown): string {
  return params === undefined ? url : `${url}&params=${encodeURIComponent(JSON.stringify(params))}`;
}

/** Helpers bound to a harness created later (in a `before` hook). */
export function queryClient(harness: () => Harness) {
  return {
    /** GET /jdoql?query=Q[&params=P][extra] */
    jdoql: (query: string, params?: unknown, extra = ""): Promise<Reply> =>
      harness().get(withParams(`/jdoql?query=${encodeURIComponent(query)}`, params) + extra),
    /** GET /{class}?filter=F[&params=P][extra] */
    filter: (cls: string, f: string, params?: unknown, extra = ""): Promise<Reply> =>
      harness().get(withParams(`/${cls}?filter=${encodeURIComponent(f)}`, params) + extra),
    /** HEAD /{class}?filter=F[&params=P] */
    head: (cls: string, f: string, params?: unknown): Promise<Reply> => harness().call("HEAD", withParams(`/${cls}?filter=${encodeURIComponent(f)}`, params)),
  };
}

/** Asserts a 200 JSON answer and returns its body. */
export function ok(r: Reply): any {
  assert.equal(r.status, 200, `expected 200, got ${r.status}: ${r.text}`);
  assert.match(r.headers.get("content-type") ?? "", /^application\/json/);
  return r.body;
}

export interface ProblemCheck {
  /** Exact position (line, column, offset) of the error. */
  position?: { line: number; column: number; offset: number };
  /** The error's offset lies in [from, to] (line 1), for errors that may name an expression or its part. */
  offsetIn?: [number, number];
  /** A syntax error: a non-empty `expected` list. */
  expected?: boolean;
  /** Text the detail must contain. */
  mentions?: string;
}

/** Asserts an RFC 9457 problem document with this status: never a stack trace or SQL text. */
export function problem(r: Reply, status: number, check: ProblemCheck = {}): void {
  assert.equal(r.status, status, `expected ${status}, got ${r.status}: ${r.text}`);
  assert.match(r.headers.get("content-type") ?? "", /^application\/problem\+json/);
  const b = r.body;
  assert.ok(b && typeof b === "object", `problem body is not JSON: ${r.text}`);
  assert.equal(b.status, status);
  assert.equal(typeof b.type, "string");
  assert.equal(typeof b.title, "string");
  assert.equal(typeof b.detail, "string");
  assert.ok(b.detail.length > 0, "detail is empty");
  assert.doesNotMatch(r.text, /\n\s+at\s|\.ts:\d+:\d+|SELECT .* FROM "/, "no stack trace, no SQL");
  if (check.position) assert.deepEqual(b.position, check.position, `position in ${r.text}`);
  if (check.offsetIn) {
    assert.ok(b.position && typeof b.position === "object", `no position: ${r.text}`);
    assert.equal(b.position.line, 1);
    assert.equal(b.position.column, b.position.offset + 1);
    const [from, to] = check.offsetIn;
    assert.ok(b.position.offset >= from && b.position.offset <= to, `position ${JSON.stringify(b.position)} outside [${from}, ${to}]`);
  }
  if (check.expected) assert.ok(Array.isArray(b.expected) && b.expected.length > 0, `expected a non-empty "expected" list: ${r.text}`);
  if (check.mentions) assert.ok(b.detail.includes(check.mentions), `detail should mention ${check.mentions}: ${b.detail}`);
}
