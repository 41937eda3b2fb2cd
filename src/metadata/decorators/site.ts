/**
 * The decorator site: where in the user's source a decorator was written, read from a stack
 * trace, so a model problem found later (at start-up) can point at the line. Best effort: the
 * stack's format is not standard, and without source maps the line is the compiled file's.
 */
import type { SourceRef } from "../declarations.ts";

// Frames that belong to Extent's decorators or to the decorator helpers compilers inject.
const HELPER = /(__decorate|__esDecorate|__runInitializers|applyDecs|memberDec|_applyDecs|callSite|recordMember|recordClass)/;
const OWN_FILE = /\/metadata\/decorators\/[\w-]+\.(ts|js)/;
const FRAME = /(?:at\s+(?:(\S+)\s+\()?|@)((?:file:\/\/)?[^\s()]+?):(\d+):(\d+)\)?\s*$/;

export function callSite(): SourceRef {
  const stack = new Error().stack ?? "";
  for (const line of stack.split("\n").slice(1)) {
    const m = FRAME.exec(line.trim());
    if (!m) continue;
    const [, fn, file] = m;
    if (!file || OWN_FILE.test(file) || (fn && HELPER.test(fn)) || /^(node|bun|ext|deno):/.test(file) || file.includes("node_modules")) continue;
    return { file: file.replace(/^file:\/\//, ""), line: Number(m[3]) };
  }
  return { file: "decorated class" };
}
