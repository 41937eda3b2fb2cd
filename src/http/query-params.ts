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
}

/**
 * The query of a request's absolute URL (`?` included, `#…` left out), as `new URL(url).search`
 * reads it save a lone `?`, which reads as none either way: without parsing the whole URL, which
 * a request's routes would otherwise do for each parameter they read. The URL is the request's,
 * already in the form a URL parser writes.
 */
export function searchOf(url: string): string {
  const at = url.indexOf("?");
  if (at < 0) return "";
  const hash = url.indexOf("#", at);
  return hash < 0 ? url.slice(at) : url.slice(at, hash);
}

/** The query text of `search` (a URL's query, from searchOf) and its named parameters. */
export function queryText(searchWithMark: string, name: "query" | "filter"): QueryText {
  const search = searchWithMark.slice(1);
  if (!search) return { params: new URLSearchParams() };
  if (NAMED.test(search)) {
    const params = new URLSearchParams(search);
    return { text: params.get(name) ?? undefined, params };
  }
  let text: string;
  try {
    text = decodeURIComponent(search);
  } catch {
    text = search;
  }
  return { text, params: new URLSearchParams() };
}
