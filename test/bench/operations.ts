/**
 * The benchmark's operations: each an Extent request, and json-server's nearest equivalent where
 * it has one (it cannot create a graph, navigate in a filter, expand two levels or aggregate).
 */
const q = encodeURIComponent;

export interface Operation {
  name: string;
  method: "GET" | "POST" | "PUT";
  /** Path under Extent's (and the floor's) /api. */
  path: string;
  body?: unknown;
  jsonServer?: { method: "GET" | "POST" | "PATCH"; path: string; body?: unknown; note?: string };
  /** Extent's speed over each floor's that issue 22 asks for: 0.9 for reads by key and extents, 0.85 for queries, 0.8 for writes. */
  floorTarget: 0.9 | 0.85 | 0.8;
}

export const OPERATIONS: Operation[] = [
  {
    name: "get by key (+to-one)",
    floorTarget: 0.9,
    method: "GET",
    path: "/bench.Book/42?fetchGroup=all",
    jsonServer: { method: "GET", path: "/items/42?_expand=author" },
  },
  // JDO's default fetch group: the object's own fields and its author's identity (no collection).
  {
    name: "get by key (default)",
    floorTarget: 0.9,
    method: "GET",
    path: "/bench.Book/42",
    jsonServer: { method: "GET", path: "/items/42" },
  },
  {
    name: "extent of 100, depth 1",
    floorTarget: 0.9,
    method: "GET",
    path: "/bench.Publisher?fetchGroup=all&maxFetchDepth=1",
    jsonServer: { method: "GET", path: "/publishers?_embed=editors" },
  },
  { name: "extent of 100, depth 2", floorTarget: 0.9, method: "GET", path: "/bench.Publisher?fetchGroup=all&maxFetchDepth=2" },
  {
    name: "PUT partial update",
    floorTarget: 0.8,
    method: "PUT",
    path: "/bench.Book/43",
    body: { price: 12.5 },
    jsonServer: { method: "PATCH", path: "/items/43", body: { price: 12.5 } },
  },
  { name: "filter with navigation", floorTarget: 0.85, method: "GET", path: `/bench.Book?filter=${q("author.name == 'Author 17'")}` },
  {
    name: "JDOQL ORDER BY + RANGE",
    floorTarget: 0.85,
    method: "GET",
    path: `/jdoql?query=${q("SELECT FROM bench.Book WHERE price > 20 ORDER BY title RANGE 0, 20")}`,
    jsonServer: { method: "GET", path: "/items?kind=BOOK&price_gte=20.01&_sort=title&_limit=20", note: "filter, sort and limit on one resource" },
  },
  {
    name: "JPQL join + aggregate",
    floorTarget: 0.85,
    method: "GET",
    path: `/jpql?query=${q("SELECT a.name, COUNT(w), AVG(w.price) FROM Author a JOIN a.works w WHERE a.born < 1910 GROUP BY a.name ORDER BY a.name")}`,
  },
  // Last: every POST adds six objects (tens of thousands in a run), which every operation after it
  // would read through (the filter and JDOQL scan ITEM); json-server, which gets no POSTs, would not.
  {
    name: "POST a graph (1+5)",
    floorTarget: 0.8,
    method: "POST",
    path: "/bench.Author",
    body: { name: "New Author", born: 1970, works: [1, 2, 3, 4, 5].map((i) => ({ class: "bench.Book", title: `New ${i}`, price: i + 0.5, pages: 100 * i })) },
  },
];
