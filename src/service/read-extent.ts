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
import type { ClassMeta } from "../metadata/model.ts";
import type { Cursor } from "../read/extent-pages.ts";
import type { FetchPlan } from "../read/fetch-plan.ts";
import { readExtent, readExtentPage, readsInPages } from "../read/read-objects.ts";
import type { Runtime } from "./runtime.ts";

/** The JSON array of `meta`'s extent: text when it fits one page, else a stream. */
export async function extentBody(rt: Runtime, meta: ClassMeta, fetch: FetchPlan): Promise<string | ReadableStream<Uint8Array>> {
  // Where pages could answer other JSON than the extent read at once, it is read at once.
  if (!readsInPages(fetch)) return readExtent(rt, meta, fetch);
  return jsonArrayBody(await page(rt, meta, fetch, Math.min(rt.firstPageSize, rt.pageSize)), (error) => {
    console.error(`[extent] the streamed extent of ${meta.name} failed after its first page; the answer is cut short:`, error);
  });
}

async function page(rt: Runtime, meta: ClassMeta, fetch: FetchPlan, size: number, after?: Cursor): Promise<ArrayPage> {
  // Written by SQL or read as objects, as the read façade chooses; held to answerBytes.
  const { elements, next } = await readExtentPage(rt, meta, fetch, size, after);
  if (!next) return { elements };
  const bytes = elements.reduce((n, e) => n + e.length, 0);
  const nextSize = Math.max(1, Math.min(rt.pageSize, Math.floor((size * rt.pageBytes) / Math.max(bytes, 1))));
  return { elements, next: pageAfter(rt, meta, fetch, nextSize, next) };
}

/**
 * How to read the page after `cursor`, made apart from `page`: a closure made there would share
 * its scope with the page's read and keep what it read alive until the next page is read.
 */
function pageAfter(rt: Runtime, meta: ClassMeta, fetch: FetchPlan, size: number, cursor: Cursor): () => Promise<ArrayPage> {
  return () => page(rt, meta, fetch, size, cursor);
}
