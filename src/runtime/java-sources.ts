/**
 * Reading a Java model from source folders at start-up: the `.java` files are read from disk,
 * parsed once with tree-sitter's Java grammar (WebAssembly, loaded once per process) and turned
 * into declarations by `readJavaSources`, which needs no file system. Only the CLI and the local
 * server import this module, so the grammar never reaches the worker bundle.
 */
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { Language, Parser } from "web-tree-sitter";
import { type JavaModel, type JavaReadOptions, type JavaSourceText, readJavaSources } from "../metadata/java/read.ts";

let parser: Promise<Parser> | undefined;

/** The Java parser, created on first use (about 15 ms) and kept. */
export function javaParser(): Promise<Parser> {
  parser ??= (async () => {
    await Parser.init();
    const grammar = createRequire(import.meta.url).resolve("tree-sitter-java/tree-sitter-java.wasm");
    const p = new Parser();
    p.setLanguage(await Language.load(grammar));
    return p;
  })();
  return parser;
}

/** Every `.java` file under the folders (dot-folders skipped), named relative to the working directory. */
export async function readJavaFolders(folders: readonly string[]): Promise<JavaSourceText[]> {
  const out: JavaSourceText[] = [];
  async function walk(dir: string): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (!e.name.startsWith(".") && e.name !== "node_modules") await walk(path);
      } else if (e.name.endsWith(".java") && e.name !== "package-info.java" && e.name !== "module-info.java") {
        out.push({ file: relative(process.cwd(), path) || path, text: await readFile(path, "utf8") });
      }
    }
  }
  for (const folder of folders) await walk(folder);
  return out;
}

/** The declarations of the Java model under the folders. */
export async function readJavaModel(folders: readonly string[], options: JavaReadOptions = {}): Promise<JavaModel> {
  const [sources, p] = await Promise.all([readJavaFolders(folders), javaParser()]);
  return readJavaSources(p, sources, options);
}
