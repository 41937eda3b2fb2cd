/**
 * A query's candidates (objects, not UNIQUE) as its answer: text when they fit the first page,
 * else streamed page by page as extents are (src/service/paged-body.ts), so the server holds a
 * page, not the answer.
 *
 * The first read is the whole answer's read with the query's keys cut to the first page and one
 * more (one batch, one round trip, as before streaming): a small answer ends there. When more
 * match, the query's ordered keys are read in one statement, at most what answerBytes could hold
 * (else 400, as the whole answer would be), and the pages read their objects by key, in that
 * order. Each page is consistent on its own; an object deleted after the keys were read is left
 * out, and one written after them is not in the answer.
 */
import type { FetchPlan } from "../read/fetch-plan.ts";
import type { ClassMeta } from "../metadata/model.ts";
import type { SubquerySelector } from "../read/read-plan.ts";
import { readCandidateKeys, readCandidatePage, readCandidates, readFirstCandidates, readsInPages } from "../read/read-objects.ts";
import { firstPageSize, pagedBody } from "./paged-body.ts";
import type { Runtime } from "./runtime.ts";
import { type Eventually, thenNow } from "../util/eventually.ts";

/**
 * The candidates' JSON array. `query`: the runtime the query's own reads use (its statements are
 * the client's to make costly); `pages`: the one that reads pages by key.
 */
export function candidatesBody(
  query: Runtime,
  pages: Runtime,
  meta: ClassMeta,
  selector: SubquerySelector,
  values: Record<string, unknown>,
  fetch: FetchPlan,
): Eventually<string | ReadableStream<Uint8Array>> {
  // Where pages could answer other JSON than the answer read at once, it is read at once.
  if (!readsInPages(fetch)) return readCandidates(query, meta, selector, values, fetch);
  // A small answer is its first page's read: at once when the store read it at once.
  return thenNow(readFirstCandidates(query, meta, selector, values, fetch, firstPageSize(pages)), (few) =>
    few !== undefined ? few : pagedCandidates(query, pages, meta, selector, values, fetch),
  );
}

/** More candidates than a first page holds: their keys read in order, then their objects page by page. */
async function pagedCandidates(
  query: Runtime,
  pages: Runtime,
  meta: ClassMeta,
  selector: SubquerySelector,
  values: Record<string, unknown>,
  fetch: FetchPlan,
): Promise<string | ReadableStream<Uint8Array>> {
  const keys = await readCandidateKeys(query, meta, selector, values);
  return pagedBody<number>(pages, (size, at = 0) => keyedPage(pages, meta, keys, fetch, size, at), `the streamed answer of a query of ${meta.name}`);
}

/** The objects of `keys` from `at`, `size` of them, and where the next page starts. */
async function keyedPage(rt: Runtime, meta: ClassMeta, keys: readonly unknown[], fetch: FetchPlan, size: number, at: number) {
  const end = at + size;
  const elements = await readCandidatePage(rt, meta, keys.slice(at, end), fetch);
  return end < keys.length ? { elements, next: end } : { elements };
}
