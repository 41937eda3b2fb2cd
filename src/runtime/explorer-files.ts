/**
 * The explorer's renderers' files (src/describe/explorer-assets.ts: Swagger UI, Mermaid) read from
 * the installed npm packages, for the servers that have a file system (`extent serve`, the local
 * entry, an app on Node, Bun or Deno: `createRestHandler({ ..., explorer: nodeExplorerAssets() })`).
 * Each file is found through the module resolution of this package (so wherever npm put it), read
 * at its first request and kept in memory with its ETag (a hash of its bytes): it does not change
 * while the server runs.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, mkdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type ExplorerAssets, PACKAGE_FILES } from "../describe/explorer-assets.ts";

interface Loaded {
  bytes: ArrayBuffer;
  etag: string;
}

/**
 * The files, resolved from `from` (a module URL; default: this package). Undefined when one of the
 * packages is not installed: the page is then served without them (and says so).
 */
export function nodeExplorerAssets(from: string = import.meta.url): ExplorerAssets | undefined {
  const require = createRequire(from);
  const paths = new Map<string, string>();
  for (const [name, file] of Object.entries(PACKAGE_FILES)) {
    let path: string;
    try {
      path = require.resolve(`${file.package}/${file.file}`);
    } catch {
      return undefined;
    }
    if (!existsSync(path)) return undefined;
    paths.set(name, path);
  }
  const loaded = new Map<string, Promise<Loaded>>();
  const load = async (path: string): Promise<Loaded> => {
    const data = await readFile(path);
    const bytes = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
    return { bytes, etag: `"${createHash("sha256").update(data).digest("base64url").slice(0, 22)}"` };
  };
  return {
    async asset(name) {
      const path = paths.get(name);
      if (!path) return undefined;
      let file = loaded.get(name);
      if (!file) {
        file = load(path);
        loaded.set(name, file);
        // A failed read is tried again at the next request rather than remembered.
        file.catch(() => loaded.delete(name));
      }
      const { bytes, etag } = await file;
      return new Response(bytes, { headers: { etag } });
    },
  };
}

/**
 * Copies the renderers' files into `dir` under the names the page asks for (what a host serving
 * static files needs: the worker's Workers Static Assets directory). Answers the names copied.
 */
export async function copyExplorerAssets(dir: string, from: string = import.meta.url): Promise<string[]> {
  const require = createRequire(from);
  await mkdir(dir, { recursive: true });
  const names = Object.keys(PACKAGE_FILES);
  for (const name of names) {
    const file = PACKAGE_FILES[name]!;
    await copyFile(require.resolve(`${file.package}/${file.file}`), join(dir, name));
  }
  return names;
}
