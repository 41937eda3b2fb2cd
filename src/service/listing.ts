/**
 * A page of `GET /{class}` with `ordering`, `range` or `after` (contract §7): the page's objects
 * through the read façade, and, in the same read batch, the page's keys with their ordering values
 * (one row more than the page: whether more follow, and where the next page starts) and, when
 * asked, how many objects the whole listing has. One round trip, whatever the page's position:
 * after a cursor the query starts at the cursor's row (keyset), not at an offset.
 */
import { type PreparedListing, listingValues } from "../query/prepare.ts";
import type { FetchPlan } from "../read/fetch-plan.ts";
import { mostObjects, readCandidates } from "../read/read-objects.ts";
import { bind } from "../store/sql.ts";
import { piggyback } from "../store/piggyback-store.ts";
import type { Runtime } from "./runtime.ts";
import { withFields } from "../util/objects.ts";

/** Where a page starts after a cursor: the ordering values and key of the row before it. */
export interface After {
  ordering: readonly unknown[];
  key: readonly unknown[];
}

export interface ListingPage {
  /** The page's JSON array. */
  body: string;
  /** How many objects it holds. */
  count: number;
  /** The whole listing's size (range and cursor aside), when asked for. */
  total?: number;
  /** Where the next page starts, when more objects follow. */
  next?: After;
}

/** The `size` objects from `from` (after `after`, when given). */
export async function readListing(
  rt: Runtime,
  listing: PreparedListing,
  values: Record<string, unknown>,
  fetch: FetchPlan,
  page: { from: number; size: number; after?: After; total: boolean },
): Promise<ListingPage> {
  const cursor = page.after ? cursorValues(page.after) : {};
  // The keys cross into JavaScript: no more than the page's objects could be within answerBytes
  // (a larger page is refused by their read anyway), whatever TO a client asks for.
  const most = mostObjects(rt, listing.candidate);
  const extra = [bind(listing.keys, withFields(values, cursor, listingValues(page.from, page.from + Math.min(page.size, most) + 1)))];
  if (page.total) extra.push(bind(listing.total, values));
  const carried = piggyback(rt.store, extra);
  const body = await readCandidates(
    { ...rt, store: carried.store },
    listing.candidate,
    listing.selector,
    withFields(values, cursor, listingValues(page.from, page.from + page.size)),
    fetch,
  );
  const [keys, total] = carried.results();
  const rows = keys!.rows;
  const count = Math.min(rows.length, page.size);
  const more = rows.length > page.size;
  const width = listing.candidate.keyColumns.length;
  const last = rows[count - 1];
  return {
    body,
    count,
    ...(total ? { total: Number(total.rows[0]![0]) } : {}),
    ...(more && last ? { next: { key: last.slice(0, width), ordering: last.slice(width, width + listing.orderingWidth) } } : {}),
  };
}

function cursorValues(after: After): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  after.ordering.forEach((v, i) => (values[`c.o${i}`] = v));
  after.key.forEach((v, i) => (values[`c.k${i}`] = v));
  return values;
}
