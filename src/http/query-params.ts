/**
 * Where a request's query text is: `?query=Q` / `?filter=F`, or the whole query string in the
 * older raw forms (`/jdoql?Q`, `/{class}?F`). Raw text is percent-decoded but `+` stays a plus:
 * in JDOQL it adds.
 */
const NAMED = /^(query|filter|fetchGroup|fetch|maxFetchDepth|params|ordering|range|after)=(?!=)/;

export interface QueryText {
  text?: string;
  /** The named parameters (fetch plan, params), empty in the raw form. */
  params: URLSearchParams;
  /** Whether they ask for a listing (`ordering`, `range` or `after`): read once per query string. */
  listing: boolean;
}

/**
 * The query of a request's absolute URL (`?` included, `#…` left out), as `new URL(url).search`
 * reads it (save a lone `?`, which reads as no query either way), without parsing the whole URL,
 * which a request's routes would otherwise do for each parameter they read. A request's URL is
 * already in the form a URL parser writes, except on servers that pass a valid request target
 * as it came (@hono/node-server): a query holding what the parser would percent-encode (a quote,
 * `<`, `>`, a space, a control or non-ASCII character) is read by the parser, so that no text,
 * even one that fails to decode, reads otherwise.
 */
export function searchOf(url: string): string {
  const at = url.indexOf("?");
  const hash = url.indexOf("#");
  if (at < 0 || (hash >= 0 && hash < at)) return "";
  const search = hash < 0 ? url.slice(at) : url.slice(at, hash);
  return ENCODED_BY_PARSER.test(search) ? new URL(url).search : search;
}

/** What a URL parser percent-encodes in the query of an http(s) URL. */
const ENCODED_BY_PARSER = /["'<>\u0000-\u0020\u007f-\uffff]/;

/** The query text of `search` (a URL's query, from searchOf) and its named parameters. */
export function queryText(searchWithMark: string, name: "query" | "filter"): QueryText {
  const search = searchWithMark.slice(1);
  if (!search) return { params: new URLSearchParams(), listing: false };
  if (NAMED.test(search)) {
    const params = new URLSearchParams(search);
    return { text: params.get(name) ?? undefined, params, listing: params.has("ordering") || params.has("range") || params.has("after") };
  }
  let text: string;
  try {
    text = decodeURIComponent(search);
  } catch {
    text = search;
  }
  return { text, params: new URLSearchParams(), listing: false };
}
