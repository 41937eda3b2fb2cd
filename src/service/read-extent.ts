/**
 * GET of an extent, streamed: the extent is read in pages of `rt.pageSize` objects (one read
 * batch each) and written as one JSON array, page by page, so memory holds a page, not the
 * extent. The first page is read before the answer starts, so a failure there is still a problem
 * document; a later page that fails aborts the stream. Pages are separate batches, not one
 * transaction: each page is consistent, and a write between two pages may be seen or not.
 */
import { type ArrayPage, jsonArrayBody } from "../json/array-stream.ts";
import { Serializer } from "../json/serialize.ts";
import type { ClassMeta } from "../metadata/model.ts";
import { type Cursor, loadExtentPage, readExtentPageJson } from "../plan/extent-pages.ts";
import type { FetchPlan } from "../plan/fetch-plan.ts";
import { reachesFetchDepth } from "../plan/load.ts";
import { getExtent } from "./read.ts";
import type { Runtime } from "./runtime.ts";

/** The JSON array of `meta`'s extent: text when it fits one page, else a stream. */
export async function extentBody(rt: Runtime, meta: ClassMeta, fetch: FetchPlan): Promise<string | ReadableStream<Uint8Array>> {
  // Beyond the depth the loader always reaches (maxFetchDepth=-1), what an object's JSON holds
  // can depend on the other objects read with it: read the extent at once, as it always was.
  if (!reachesFetchDepth(fetch)) return JSON.stringify(await getExtent(rt, meta, fetch));
  return jsonArrayBody(await page(rt, meta, fetch), (error) => {
    console.error(`[extent] the streamed extent of ${meta.name} failed after its first page; the answer is cut short:`, error);
  });
}

async function page(rt: Runtime, meta: ClassMeta, fetch: FetchPlan, after?: Cursor): Promise<ArrayPage> {
  // Written by SQL where a JSON select can (src/plan/json-select.ts), else read as objects.
  const json = await readExtentPageJson(rt.store, rt.model, meta, fetch, rt.pageSize, after);
  if (json) return { elements: json.elements, next: json.next && pageAfter(rt, meta, fetch, json.next) };
  const { roots, objects, next } = await loadExtentPage(rt.store, rt.model, meta, fetch, rt.pageSize, after);
  const serializer = new Serializer(rt.model, objects, fetch);
  const elements = roots.map((r) => JSON.stringify(serializer.object(r)));
  return { elements, next: next && pageAfter(rt, meta, fetch, next) };
}

/**
 * How to read the page after `cursor`, made apart from `page`: a closure made there would share
 * its scope with the serializer and keep the whole page's objects alive until the next page is read.
 */
function pageAfter(rt: Runtime, meta: ClassMeta, fetch: FetchPlan, cursor: Cursor): () => Promise<ArrayPage> {
  return () => page(rt, meta, fetch, cursor);
}
