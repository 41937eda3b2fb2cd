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

export function queryText(url: URL, name: "query" | "filter"): QueryText {
  const search = url.search.slice(1);
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
