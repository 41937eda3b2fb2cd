/**
 * Whether a request's `Accept` prefers HTML to JSON (RFC 9110 §12.5.1), for `GET {prefix}/`: the
 * explorer page for a browser, the JSON list of classes for everyone else. HTML wins only when the
 * header names `text/html` (or `text/*`) with a weight above JSON's: a browser's Accept
 * (`text/html,…,*\/*;q=0.8`) gets the page; `*\/*`, `application/json`, no Accept, or a tie keep
 * the JSON, which every client of the API has always been answered.
 */
export function prefersHtml(accept: string | null | undefined): boolean {
  if (!accept) return false;
  let html = { q: 0, specificity: -1 };
  let json = { q: 0, specificity: -1 };
  for (const part of accept.split(",")) {
    const [range, ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    if (!range) continue;
    const weight = params.find((p) => p.startsWith("q="));
    const q = weight === undefined ? 1 : Number(weight.slice(2));
    if (!Number.isFinite(q) || q < 0 || q > 1) continue;
    // The most specific range that matches a type decides its weight (§12.5.1).
    const htmlSpecificity = range === "text/html" ? 2 : range === "text/*" ? 1 : -1;
    const jsonSpecificity = range === "application/json" ? 2 : range === "application/*" ? 1 : range === "*/*" ? 0 : -1;
    if (htmlSpecificity > html.specificity) html = { q, specificity: htmlSpecificity };
    if (jsonSpecificity > json.specificity) json = { q, specificity: jsonSpecificity };
  }
  return html.specificity > 0 && html.q > 0 && html.q > json.q;
}
