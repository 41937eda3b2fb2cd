/**
 * Answers written as one JSON array, page by page (streamed extents, streamed query answers): the
 * first page is read before the answer starts, so a failure there is still a problem document; a
 * later page that fails aborts the stream. Pages are separate read batches, not one transaction:
 * each page is consistent, and a write between two pages may be seen or not.
 *
 * Page sizes: the first page holds at most `rt.firstPageSize` objects (100 by default), so a
 * large answer starts as soon as a small one would; each later page holds as many objects as keep
 * its JSON near `rt.pageBytes` (512 KiB by default; half of answerBytes when that is less), judged
 * by the page before it, and at most
 * `rt.pageSize` (1000 by default). Objects written with many related objects in full make small
 * pages, so the server's memory does not grow with what a fetch plan asks for.
 */
import { type ArrayPage, jsonArrayBody } from "../json/array-stream.ts";
import type { Runtime } from "./runtime.ts";
import { type Eventually, thenNow } from "../util/eventually.ts";

/** Reads the `size` objects from `at` (the first ones without it): their JSON texts, and where the next page starts (absent on the last). */
export type PageReader<At> = (size: number, at: At | undefined) => Eventually<PageRead<At>>;

/** A page as its reader answers it: its elements' JSON texts (and as one array, when the reader has it so), and where the next starts. */
export interface PageRead<At> {
  elements: string[];
  array?: string;
  next?: At;
}

/** The size of the first page. */
export const firstPageSize = (rt: Runtime): number => Math.min(rt.firstPageSize, rt.pageSize);

/**
 * The JSON array `read` reads: text when it fits the first page, else a stream (at once when the
 * first page was read at once). `what` names it in the log when a later page fails.
 */
export function pagedBody<At>(rt: Runtime, read: PageReader<At>, what: string): Eventually<string | ReadableStream<Uint8Array>> {
  return thenNow(page(rt, read, firstPageSize(rt)), (first) =>
    jsonArrayBody(first, (error) => {
      console.error(`[extent] ${what} failed after its first page; the answer is cut short:`, error);
    }),
  );
}

function page<At>(rt: Runtime, read: PageReader<At>, size: number, at?: At): Eventually<ArrayPage> {
  return thenNow(read(size, at), (got) => pageOf(rt, read, size, got));
}

/** The page read, and how to read the one after it (sized by this one's bytes). */
function pageOf<At>(rt: Runtime, read: PageReader<At>, size: number, { elements, array, next }: PageRead<At>): ArrayPage {
  if (next === undefined) return { elements, array };
  const bytes = elements.reduce((n, e) => n + e.length, 0);
  // A page is held to answerBytes as any answer is: aim at half of it when it is below pageBytes,
  // so that a page of objects larger than the last page's is not refused (the stream cut short).
  const target = Math.min(rt.pageBytes, Math.floor(rt.limits.answerBytes / 2));
  const nextSize = Math.max(1, Math.min(rt.pageSize, Math.floor((size * target) / Math.max(bytes, 1))));
  return { elements, next: pageAfter(rt, read, nextSize, next) };
}

/**
 * How to read the page at `at`, made apart from `page`: a closure made there would share its
 * scope with the page's read and keep what it read alive until the next page is read.
 */
function pageAfter<At>(rt: Runtime, read: PageReader<At>, size: number, at: At): () => Promise<ArrayPage> {
  return async () => page(rt, read, size, at);
}
