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
    jdoql: (query: string, params?: unknown, extra = ""): Promise<Reply> => harness().get(withParams(`/jdoql?query=${encodeURIComponent(query)}`, params) + extra),
    /** GET /{class}?filter=F[&params=P][extra] */
    filter: (cls: string, f: string, params?: unknown, extra = ""): Promise<Reply> => harness().get(withParams(`/${cls}?filter=${encodeURIComponent(f)}`, params) + extra),
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
