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
import { ENCODINGS, chooseEncoding } from "../compress.ts";
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

/**
 * A renderer's file compressed once and kept (the allow-list bounds them: three files, about 2 MiB
 * in all), so that each request for Mermaid's 5.5 MiB does not gzip it again (about 140 ms of CPU
 * on Node): the compression middleware leaves an answer that has a Content-Encoding alone. Its
 * ETag is the plain file's with `-gzip`, a strong tag naming these bytes.
 */
function compressedFiles(): (name: string, plain: () => Promise<ArrayBuffer>, etag: string, encoding: string) => Promise<{ bytes: ArrayBuffer; etag: string }> {
  const kept = new Map<string, Promise<{ bytes: ArrayBuffer; etag: string }>>();
  return (name, plain, etag, encoding) => {
    const key = `${encoding} ${name} ${etag}`;
    let found = kept.get(key);
    if (!found) {
      const tag = etag.replace(/"$/, `-${encoding}"`);
      // The plain bytes are read only here, on a miss: a hit copies nothing.
      found = plain()
        .then((bytes) =>
          new Response(new Response(bytes).body!.pipeThrough(new CompressionStream(ENCODINGS.get(encoding)! as CompressionFormat))).arrayBuffer(),
        )
        .then((bytes) => ({ bytes, etag: tag }));
      // A file given anew (another ETag) replaces its earlier bytes.
      for (const k of kept.keys()) if (k.startsWith(`${encoding} ${name} `)) kept.delete(k);
      kept.set(key, found);
      found.catch(() => kept.delete(key));
    }
    return found;
  };
}

/** `{prefix}/_explorer/<name>`; with `compress`, the renderers' files go out compressed when the client takes it, each compressed once. */
export function explorerFiles(assets: ExplorerAssets | undefined, compress = false): Resource {
  // Tags worked out for renderers' files that came without one: asked once per name.
  const tags = new Map<string, string>();
  const compressed = compressedFiles();
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
      const encoding = compress ? chooseEncoding(c.req.header("accept-encoding")) : undefined;
      if (etag && !encoding) return answer(c, given.body, file.type, etag);
      let read: Promise<ArrayBuffer> | undefined;
      const bytes = () => (read ??= given.arrayBuffer());
      if (!etag) tags.set(name, (etag = await digestTag(await bytes())));
      if (!encoding) return answer(c, await bytes(), file.type, etag);
      const packed = await compressed(name, bytes, etag, encoding);
      // Kept bytes answered: the provider's body is not needed (on the worker, a stream from the assets binding).
      if (!read) void given.body.cancel().catch(() => {});
      const res = answer(c, packed.bytes, file.type, packed.etag);
      res.headers.set("vary", "Accept-Encoding");
      if (res.status === 200) res.headers.set("content-encoding", encoding);
      return res;
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
