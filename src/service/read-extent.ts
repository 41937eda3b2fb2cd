/**
 * GET of an extent, streamed: the extent is read in pages (one read batch each) and written as
 * one JSON array, page by page, so memory holds a page, not the extent. The first page is read
 * before the answer starts, so a failure there is still a problem document; a later page that
 * fails aborts the stream. Pages are separate batches, not one transaction: each page is
 * consistent, and a write between two pages may be seen or not.
 *
 * Page sizes: the first page holds at most `rt.firstPageSize` objects (100 by default), so a
 * large extent starts its answer as soon as a small one would; each later page holds as many
 * objects as keep its JSON near `rt.pageBytes` (512 KiB by default), judged by the page before
 * it, and at most `rt.pageSize` (1000 by default). Objects written with many related objects in
 * full make small pages, so the server's memory does not grow with what a fetch plan asks for.
 */
import { type ArrayPage, jsonArrayBody } from "../json/array-stream.ts";
import { AnswerBudget } from "../json/answer-budget.ts";
import { stringify } from "../json/exact.ts";
import { Serializer } from "../read/serialize.ts";
import type { ClassMeta } from "../metadata/model.ts";
import { type Cursor, loadExtentPage, readExtentPageJson } from "../read/extent-pages.ts";
import type { FetchPlan } from "../read/fetch-plan.ts";
import { reachesFetchDepth } from "../read/load.ts";
import { getExtent } from "./read.ts";
import type { Runtime } from "./runtime.ts";

/** The JSON array of `meta`'s extent: text when it fits one page, else a stream. */
export async function extentBody(rt: Runtime, meta: ClassMeta, fetch: FetchPlan): Promise<string | ReadableStream<Uint8Array>> {
  // Beyond the depth the loader always reaches (maxFetchDepth=-1), what an object's JSON holds
  // can depend on the other objects read with it: read the extent at once, as it always was.
  if (!reachesFetchDepth(fetch)) return stringify(await getExtent(rt, meta, fetch));
  return jsonArrayBody(await page(rt, meta, fetch, Math.min(rt.firstPageSize, rt.pageSize)), (error) => {
    console.error(`[extent] the streamed extent of ${meta.name} failed after its first page; the answer is cut short:`, error);
  });
}

async function page(rt: Runtime, meta: ClassMeta, fetch: FetchPlan, size: number, after?: Cursor): Promise<ArrayPage> {
  // Written by SQL where a JSON select can (src/read/json-select.ts), else read as objects.
  let elements: string[];
  let next: Cursor | undefined;
  // A page is what the server builds at once: it is held to answerBytes.
  const budget = new AnswerBudget(rt.limits.answerBytes);
  const json = await readExtentPageJson(rt.store, rt.model, meta, fetch, size, after, budget);
  if (json) ({ elements, next } = json);
  else {
    const loaded = await loadExtentPage(rt.store, rt.model, meta, fetch, size, after);
    const serializer = new Serializer(rt.model, loaded.objects, fetch, budget);
    elements = serializer.all(loaded.roots).map((o) => stringify(o));
    next = loaded.next;
  }
  if (!next) return { elements };
  const bytes = elements.reduce((n, e) => n + e.length, 0);
  const nextSize = Math.max(1, Math.min(rt.pageSize, Math.floor((size * rt.pageBytes) / Math.max(bytes, 1))));
  return { elements, next: pageAfter(rt, meta, fetch, nextSize, next) };
}

/**
 * How to read the page after `cursor`, made apart from `page`: a closure made there would share
 * its scope with the serializer and keep the whole page's objects alive until the next page is read.
 */
function pageAfter(rt: Runtime, meta: ClassMeta, fetch: FetchPlan, size: number, cursor: Cursor): () => Promise<ArrayPage> {
  return () => page(rt, meta, fetch, size, cursor);
}
