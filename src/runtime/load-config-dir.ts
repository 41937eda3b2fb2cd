/**
 * Reads a configuration folder into the path → text map that `resolveContext` works on, so the
 * resolution itself stays free of file-system access (and runs on edge runtimes too).
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";

const WANTED = /\.(xml|jdo|orm)$/i;

/**
 * Every `*.xml`, `*.jdo` and `*.orm` file under `dir`, recursively, keyed by its path relative to
 * `dir` with `/` separators. `node_modules` and dot-folders are skipped; symbolic links to files
 * are followed, links to folders are not (no cycles).
 */
export async function loadConfigDir(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  async function walk(rel: string[]): Promise<void> {
    const entries = await readdir(join(dir, ...rel), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = [...rel, entry.name];
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && !entry.name.startsWith(".")) await walk(path);
        continue;
      }
      if (!WANTED.test(entry.name)) continue;
      const isFile =
        entry.isFile() ||
        (entry.isSymbolicLink() &&
          (await stat(join(dir, ...path)).then(
            (s) => s.isFile(),
            () => false,
          )));
      if (isFile) files.set(path.join("/"), await readFile(join(dir, ...path), "utf8"));
    }
  }
  await walk([]);
  return files;
}
