/**
 * GET of an extent, streamed: the extent is read in pages (one read batch each, keyset pages in
 * the extent's order: src/read/extent-pages.ts) and written as one JSON array, page by page, so
 * memory holds a page, not the extent (src/service/paged-body.ts says how pages are sized, and
 * what a failure does).
 */
import type { ClassMeta } from "../metadata/model.ts";
import type { Cursor } from "../read/extent-pages.ts";
import type { FetchPlan } from "../read/fetch-plan.ts";
import { readExtent, readExtentPage, readsInPages } from "../read/read-objects.ts";
import { pagedBody } from "./paged-body.ts";
import type { Runtime } from "./runtime.ts";
import type { Eventually } from "../util/eventually.ts";

/** The JSON array of `meta`'s extent: text when it fits one page, else a stream. */
export function extentBody(rt: Runtime, meta: ClassMeta, fetch: FetchPlan): Eventually<string | ReadableStream<Uint8Array>> {
  // Where pages could answer other JSON than the extent read at once, it is read at once.
  if (!readsInPages(fetch)) return readExtent(rt, meta, fetch);
  // Written by SQL or read as objects, as the read façade chooses; each page held to answerBytes.
  return pagedBody<Cursor>(rt, (size, after) => readExtentPage(rt, meta, fetch, size, after), `the streamed extent of ${meta.name}`);
}
