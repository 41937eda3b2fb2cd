/**
 * The explorer page's HTML (contract §9: `GET {prefix}/` for a browser): the model (its classes and
 * a class diagram drawn by Mermaid from modelDiagram's text), a query console for JDOQL and JPQL,
 * and the API reference (Swagger UI over `{prefix}/openapi.json`). The page holds no script and
 * no style of its own: they are files under `{prefix}/_explorer/` (explorer-assets.ts), so the page
 * can be sent with a strict Content-Security-Policy (EXPLORER_CSP); what the script needs to know
 * (the prefix, whether access control is on) is in `data-` attributes.
 *
 * Without the renderers' files (no `ExplorerAssets` given) the page says so, shows the diagram's
 * Mermaid text instead of the picture and links the OpenAPI document; the console works as ever.
 */
import type { ClassMeta, Model } from "../metadata/model.ts";
import { ASSETS_PATH, OWN_FILES } from "./explorer-assets.ts";
import { modelDiagram } from "./model-diagram.ts";

export interface ExplorerPageOptions {
  prefix: string;
  /** Access control is configured: the console offers a field for a bearer token. */
  access: boolean;
  /** The renderers' files can be served (Swagger UI, Mermaid). */
  renderers: boolean;
  /** The persistence context's name, for the title. */
  name?: string | undefined;
}

/**
 * What the page may load and do: its own origin only. `style-src 'unsafe-inline'` because Mermaid
 * writes a `<style>` into each SVG it draws and Swagger UI (React) sets `style` attributes;
 * `img-src data:` because Swagger UI's stylesheet draws its icons as `data:` SVGs (and the page's empty icon is one: no `/favicon.ico` asked). No script runs
 * but the files under `_explorer/` (no inline script, no eval), and no request leaves the server.
 */
export const EXPLORER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function classItem(meta: ClassMeta, prefix: string): string {
  const marks = [meta.abstract && "abstract", meta.embeddedOnly && "embedded only", meta.superclass && `extends ${meta.superclass}`].filter(Boolean);
  const name = escapeHtml(meta.name);
  const link = meta.embeddedOnly ? `<code>${name}</code>` : `<a href="${escapeHtml(`${prefix}/${meta.name}?range=0,20`)}"><code>${name}</code></a>`;
  return `<li data-class="${name}">${link}${marks.length ? ` <small>${escapeHtml(marks.join(", "))}</small>` : ""}</li>`;
}

/** The first class a query could range over, for the console's example queries. */
function exampleClass(model: Model): ClassMeta | undefined {
  return [...model.classes.values()].find((m) => !m.embeddedOnly && m.requiresExtent);
}

export function explorerPage(model: Model, options: ExplorerPageOptions): string {
  const { prefix, access, renderers } = options;
  const asset = (file: string) => escapeHtml(`${prefix}${ASSETS_PATH}/${file}`);
  const example = exampleClass(model);
  const jdoql = example ? `SELECT FROM ${example.name}` : "";
  const jpql = example ? `SELECT x FROM ${example.entityName} x` : "";
  const title = `Extent explorer${options.name ? `: ${options.name}` : ""}`;
  const scripts = renderers ? [asset("mermaid.min.js"), asset("swagger-ui-bundle.js")] : [];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${asset(OWN_FILES.style)}">
${renderers ? `<link rel="stylesheet" href="${asset("swagger-ui.css")}">\n` : ""}${scripts.map((s) => `<script src="${s}" defer></script>\n`).join("")}<script src="${asset(OWN_FILES.script)}" defer></script>
</head>
<body data-prefix="${escapeHtml(prefix)}" data-access="${access ? "on" : "off"}" data-renderers="${renderers ? "on" : "off"}" data-jdoql="${escapeHtml(jdoql)}" data-jpql="${escapeHtml(jpql)}">
<header>
<h1>${escapeHtml(title)}</h1>
<nav><a href="#model">Model</a> <a href="#console">Query</a> <a href="#reference">API reference</a> <a href="${escapeHtml(`${prefix}/openapi.json`)}">openapi.json</a></nav>
</header>
${
  renderers
    ? ""
    : `<p class="note" id="no-renderers">This server was started without the renderers' files (Swagger UI, Mermaid): the diagram is shown as its Mermaid text and the API reference as a link to <a href="${escapeHtml(`${prefix}/openapi.json`)}">openapi.json</a>. The query console works.</p>\n`
}<main>
<section id="model">
<h2>Model</h2>
<div class="model">
<ul id="classes">
${[...model.classes.values()].map((m) => classItem(m, prefix)).join("\n")}
</ul>
<div id="diagram"><pre class="mermaid" id="diagram-text">${escapeHtml(modelDiagram(model))}</pre></div>
</div>
</section>
<section id="console">
<h2>Query</h2>
<form id="query-form">
<div class="controls">
<label>Language <select id="language"><option value="jdoql">JDOQL</option><option value="jpql">JPQL</option></select></label>
<label>Rows per page <input id="page-size" type="number" min="1" max="1000" value="20"></label>
${access ? `<label id="token-field">Bearer token <input id="token" type="password" autocomplete="off" placeholder="a JWT, sent as Authorization: Bearer"></label>\n` : ""}<button type="submit" id="run">Run</button>
</div>
<textarea id="query" rows="6" spellcheck="false" aria-label="query">${escapeHtml(jdoql)}</textarea>
</form>
<pre id="error" role="alert" hidden></pre>
<p id="status" aria-live="polite"></p>
<div class="table"><table id="results"></table></div>
<nav id="pager" hidden><button type="button" id="prev">Previous</button> <span id="page"></span> <button type="button" id="next">Next</button></nav>
</section>
<section id="reference">
<h2>API reference</h2>
<div id="swagger">${renderers ? "" : `<p>The OpenAPI 3.1 document: <a href="${escapeHtml(`${prefix}/openapi.json`)}">openapi.json</a>.</p>`}</div>
</section>
</main>
</body>
</html>
`;
}
