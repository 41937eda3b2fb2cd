/**
 * The files the explorer page (explorer-page.ts) loads from `{prefix}/_explorer/<name>`: the only
 * names that path serves (no other name, no path, is ever looked up). Two kinds:
 *
 * - the page's own script and style, text held here (explorer-script.ts, explorer-style.ts), so
 *   every runtime serves them, the worker included, without any file;
 * - the renderers', from installed npm packages (Swagger UI for the API reference, Mermaid for the
 *   model diagram): megabytes a handler cannot hold in its code (the worker's bundle budget), so
 *   whoever runs the handler gives them (`ExplorerAssets`): on Node, Bun and Deno read from
 *   node_modules (src/runtime/explorer-files.ts); on the worker, Workers Static Assets.
 */

/** A file of an installed package, and the media type it is served as. */
export interface PackageFile {
  package: string;
  /** The path inside the package. */
  file: string;
  type: string;
}

const JS = "text/javascript; charset=utf-8";
const CSS = "text/css; charset=utf-8";

/** The renderers' files, by the name the page asks for. */
export const PACKAGE_FILES: Readonly<Record<string, PackageFile>> = {
  "swagger-ui-bundle.js": { package: "swagger-ui-dist", file: "swagger-ui-bundle.js", type: JS },
  "swagger-ui.css": { package: "swagger-ui-dist", file: "swagger-ui.css", type: CSS },
  "mermaid.min.js": { package: "mermaid", file: "dist/mermaid.min.js", type: JS },
};

/** The page's own files. */
export const OWN_FILES = { script: "explorer.js", style: "explorer.css" } as const;

export const ASSET_TYPES = { js: JS, css: CSS } as const;

/**
 * Where the renderers' files come from. `asset(name)` is asked only for a name of `PACKAGE_FILES`
 * and answers the file's bytes as a Response (status 200; its `ETag`, when it has one, is kept),
 * or undefined (or a 404) when it does not have it.
 */
export interface ExplorerAssets {
  asset(name: string): Promise<Response | undefined>;
}

/** The path, below the prefix, under which the page's files are served. */
export const ASSETS_PATH = "/_explorer";
