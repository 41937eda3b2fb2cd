/**
 * The explorer (contract §9): the page `GET {prefix}/` answers a browser (root.ts negotiates), and
 * its files under `{prefix}/_explorer/<name>`. Only the names of src/describe/explorer-assets.ts
 * are served: the page's own script and style from the handler's code, the renderers' files from
 * the `ExplorerAssets` the handler was given (none: 404). Any other name, a path with `/` or `..`
 * included, is 404 before anything is looked up. Each file has an ETag (`If-None-Match` answers
 * 304) and may be cached for an hour; HEAD answers the headers of GET.
 */
import type { Context } from "hono";
import { ASSETS_PATH, ASSET_TYPES, type ExplorerAssets, OWN_FILES, PACKAGE_FILES } from "../../describe/explorer-assets.ts";
import { EXPLORER_CSP, type ExplorerPageOptions, explorerPage } from "../../describe/explorer-page.ts";
import { EXPLORER_SCRIPT } from "../../describe/explorer-script.ts";
import { EXPLORER_STYLE } from "../../describe/explorer-style.ts";
import type { Model } from "../../metadata/model.ts";
import { HttpError } from "../problem.ts";
import type { Env, Resource } from "../resource.ts";

/** What the handler serves of the explorer, given to buildApp (src/http/app.ts). */
export interface ExplorerOptions {
  /** The renderers' files (Swagger UI, Mermaid); without them the page works without pictures. */
  assets?: ExplorerAssets | undefined;
  access: boolean;
  name?: string | undefined;
}

const CACHE = "public, max-age=3600";

/** A short, stable tag of a text (FNV-1a, 32 bits, with its length): the page's own files change only with the code. */
function tagOf(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return `"x-${(hash >>> 0).toString(16)}-${text.length.toString(16)}"`;
}

/** Whether `If-None-Match` names `etag` (weak comparison) or is `*`. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const strip = (t: string) => t.trim().replace(/^W\//, "");
  return header.split(",").some((t) => t.trim() === "*" || strip(t) === strip(etag));
}

function answer(c: Context<Env>, body: BodyInit | null, type: string, etag: string): Response {
  const headers = { "content-type": type, "cache-control": CACHE, etag, "x-content-type-options": "nosniff" };
  if (matches(c.req.header("if-none-match"), etag)) return new Response(null, { status: 304, headers: { etag, "cache-control": CACHE } });
  return new Response(body, { headers });
}

const OWN: Readonly<Record<string, { text: string; type: string; etag: string }>> = {
  [OWN_FILES.script]: { text: EXPLORER_SCRIPT, type: ASSET_TYPES.js, etag: tagOf(EXPLORER_SCRIPT) },
  [OWN_FILES.style]: { text: EXPLORER_STYLE, type: ASSET_TYPES.css, etag: tagOf(EXPLORER_STYLE) },
};

async function digestTag(bytes: ArrayBuffer): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `"s-${[...hash.subarray(0, 12)].map((b) => b.toString(16).padStart(2, "0")).join("")}"`;
}

/** `{prefix}/_explorer/<name>`. */
export function explorerFiles(assets: ExplorerAssets | undefined): Resource {
  // Tags worked out for renderers' files that came without one: asked once per name.
  const tags = new Map<string, string>();
  const nameOf = (c: Context<Env>): string => {
    const name = c.req.param("file") ?? "";
    if (!Object.hasOwn(OWN, name) && !(assets && Object.hasOwn(PACKAGE_FILES, name))) throw new HttpError(404, `no explorer file ${JSON.stringify(name)}`);
    return name;
  };
  return {
    path: `${ASSETS_PATH}/:file{.+}`,
    what: "an explorer file",
    exists: nameOf,
    GET: async (c) => {
      const name = nameOf(c);
      const own = OWN[name];
      if (own) return answer(c, own.text, own.type, own.etag);
      const file = PACKAGE_FILES[name]!;
      const known = tags.get(name);
      if (known && matches(c.req.header("if-none-match"), known)) return answer(c, null, file.type, known);
      const given = await assets!.asset(name);
      if (!given || given.status !== 200 || !given.body) throw new HttpError(404, `the explorer file ${name} is not available on this server`);
      let etag = given.headers.get("etag");
      if (etag) return answer(c, given.body, file.type, etag);
      const bytes = await given.arrayBuffer();
      etag = await digestTag(bytes);
      tags.set(name, etag);
      return answer(c, bytes, file.type, etag);
    },
  };
}

/** The page's HTML, made once (the model does not change while the handler lives). */
export function explorerPageText(model: Model, prefix: string, options: ExplorerOptions): () => string {
  let text: string | undefined;
  const page: ExplorerPageOptions = { prefix, access: options.access, renderers: options.assets !== undefined, name: options.name };
  return () => (text ??= explorerPage(model, page));
}

/** The page's answer: HTML under a strict Content-Security-Policy, never cached without asking. */
export function explorerAnswer(html: string): Response {
  return new Response(html, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": EXPLORER_CSP,
      "cache-control": "no-cache",
      vary: "Accept",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
    },
  });
}
