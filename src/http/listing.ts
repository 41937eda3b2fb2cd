/**
 * `GET /{class}` with `ordering`, `range` or `after` (contract §7): the parameters read and
 * checked (each bad form a 400 naming it), the cursor of `next` links, and the page's headers:
 * `Content-Range: items FIRST-LAST/TOTAL`, `Link` (next, and prev for a range), and
 * `Preference-Applied` for `Prefer: count=exact`.
 *
 * A cursor is opaque to clients: base64url of JSON holding the last row's ordering values and key,
 * the next page's position and size, and a digest of the class, filter and ordering it belongs to.
 * Its values are bound as parameters, never spliced into SQL; a cursor that does not decode, or
 * belongs to another class, filter or ordering, is a 400. Tampering can only move where a page
 * starts within what the principal may read anyway.
 */
import * as v from "valibot";
import type { ClassMeta } from "../metadata/model.ts";
import type { After, ListingPage } from "../service/listing.ts";
import { fromText } from "./compress.ts";
import { HttpError } from "./problem.ts";
import type { RouteRequest } from "./resource.ts";
import { withFields } from "../util/objects.ts";

/** What a request asks of a listing. */
export interface ListingRequest {
  ordering?: string;
  /** The page: `size` objects from `from` (counted after the cursor with `after`). */
  page?: { from: number; size: number };
  after?: After & { position: number };
  /** `Prefer: count=exact`. */
  total: boolean;
}

const RANGE = /^\s*(\d{1,15})\s*,\s*(\d{1,15})\s*$/;

function bad(parameter: string, message: string): never {
  throw new HttpError(400, `${parameter}: ${message}`, { errors: [{ path: parameter, message }] });
}

/** The listing parameters of a request, or undefined when it has none (the extent or filter as before). */
export function listingRequest(r: RouteRequest, params: URLSearchParams, meta: ClassMeta, filter: string | undefined): ListingRequest | undefined {
  const ordering = params.get("ordering") ?? undefined;
  const rangeText = params.get("range") ?? undefined;
  const afterText = params.get("after") ?? undefined;
  if (ordering === undefined && rangeText === undefined && afterText === undefined) return undefined;
  if (ordering !== undefined && !ordering.trim()) bad("ordering", "is empty: give a JDOQL ordering such as `name ascending, born descending`");
  let page: ListingRequest["page"];
  if (rangeText !== undefined) {
    const m = RANGE.exec(rangeText);
    if (!m) bad("range", `must be FROM,TO: two whole numbers (0-based, FROM included, TO excluded), got ${JSON.stringify(rangeText.slice(0, 40))}`);
    const from = Number(m[1]);
    const to = Number(m[2]);
    if (from > to) bad("range", `FROM (${from}) must not be greater than TO (${to})`);
    page = { from, size: to - from };
  }
  const after = afterText === undefined ? undefined : decodeCursor(afterText, digest(meta, filter, ordering));
  if (after && !page) page = { from: 0, size: after.size };
  const prefer = r.raw.headers.get("prefer") ?? "";
  return { ordering, page, after, total: /(^|[,;\s])count=exact($|[,;\s])/i.test(prefer) };
}

/** The answer of a listing page: its array, Content-Range, Link, Preference-Applied. */
export function listingAnswer(r: RouteRequest, request: ListingRequest, page: ListingPage, meta: ClassMeta, filter: string | undefined): Response {
  const headers = new Headers({ "content-type": "application/json; charset=utf-8" });
  const first = (request.after?.position ?? 0) + request.page!.from;
  const total = page.total === undefined ? "*" : String(page.total);
  headers.set("content-range", page.count ? `items ${first}-${first + page.count - 1}/${total}` : `items */${total}`);
  if (request.total) headers.set("preference-applied", "count=exact");
  const links: string[] = [];
  const url = new URL(r.raw.url);
  if (page.next) {
    const next = new URL(url);
    next.searchParams.delete("range");
    next.searchParams.set(
      "after",
      encodeCursor(withFields(page.next, { position: first + page.count, size: request.page!.size }), digest(meta, filter, request.ordering)),
    );
    links.push(`<${next.pathname}${next.search}>; rel="next"`);
  }
  if (!request.after && request.page!.from > 0) {
    const prev = new URL(url);
    const from = Math.max(0, request.page!.from - request.page!.size);
    prev.searchParams.set("range", `${from},${request.page!.from}`);
    links.push(`<${prev.pathname}${prev.search}>; rel="prev"`);
  }
  if (links.length) headers.set("link", links.join(", "));
  return fromText(new Response(page.body, { status: 200, headers }), page.body);
}

// ---- cursors ---------------------------------------------------------------------------------

const Scalar = v.union([v.string(), v.number(), v.boolean(), v.null()]);
const CursorSchema = v.strictObject({
  d: v.string(),
  o: v.pipe(v.array(Scalar), v.maxLength(64)),
  k: v.pipe(v.array(Scalar), v.minLength(1), v.maxLength(64)),
  p: v.pipe(v.number(), v.safeInteger(), v.minValue(0)),
  s: v.pipe(v.number(), v.safeInteger(), v.minValue(1), v.maxValue(1_000_000)),
});

function encodeCursor(at: After & { position: number; size: number }, d: string): string {
  const json = JSON.stringify({ d, o: at.ordering.map(scalar), k: at.key.map(scalar), p: at.position, s: at.size });
  return btoa(String.fromCharCode(...new TextEncoder().encode(json)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** Values as the store gave them, in JSON (a bigint, past a double's integers, as its digits: bound back as text, it compares as SQLite compares). */
const scalar = (x: unknown): unknown => (typeof x === "bigint" ? x.toString() : x);

function decodeCursor(text: string, d: string): After & { position: number; size: number } {
  let parsed: unknown;
  try {
    if (text.length > 8192 || !/^[A-Za-z0-9_-]+$/.test(text)) throw new Error();
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0))));
  } catch {
    bad("after", "is not a cursor this server wrote: follow the next link of a page");
  }
  const cursor = v.safeParse(CursorSchema, parsed);
  if (!cursor.success) bad("after", "is not a cursor this server wrote: follow the next link of a page");
  if (cursor.output.d !== d) bad("after", "belongs to another class, filter or ordering: a cursor continues the listing whose next link carried it");
  return { ordering: cursor.output.o, key: cursor.output.k, position: cursor.output.p, size: cursor.output.s };
}

/** A digest of what a cursor belongs to: the class, the filter and the ordering (not a secret: a cursor is the client's to keep). */
function digest(meta: ClassMeta, filter: string | undefined, ordering: string | undefined): string {
  let h = 0x811c9dc5;
  for (const ch of `${meta.name}\u0000${filter ?? ""}\u0000${ordering ?? ""}`) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}
