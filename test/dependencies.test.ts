/**
 * Dependencies run one way (issue 17): the imports under src/ are read as a graph of parts, and
 * any cycle between parts fails. A part is a top-level folder of src/ (the query folder counts as
 * its shared pieces, each front end and the SQL generator, so that the two front ends meet only
 * in the shared folder), and each file at the top of src/ (the entries) is a part of its own.
 * The layers the README's "How it works" draws are asserted too: a part imports only parts below.
 * Files, within a part too, import one way (the last test).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { test } from "node:test";

const SRC = join(import.meta.dirname, "..", "src");

/** The part a file under src/ belongs to. */
function partOf(file: string): string {
  const [top, sub] = relative(SRC, file).split("/");
  if (sub === undefined) return top!; // an entry file
  if (top === "query" && ["jdoql", "jpql", "sql", "generated", "shared"].includes(sub) && relative(SRC, file).split("/").length > 2) return `query/${sub}`;
  return top!;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.(ts|js)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Every relative import and re-export (static or dynamic, types included), file to file, relative to src/. */
function fileImports(): { from: string; to: string }[] {
  const edges: { from: string; to: string }[] = [];
  for (const file of sources(SRC)) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g)) {
      const target = relative(SRC, normalize(join(dirname(file), m[1]!)));
      if (target.startsWith("..")) continue; // the sample model's text, bundled by the worker
      edges.push({ from: relative(SRC, file), to: target });
    }
  }
  return edges;
}

/** The imports that cross from one part to another. */
function importEdges(): { from: string; to: string; files: string }[] {
  return fileImports()
    .map((e) => ({ from: partOf(join(SRC, e.from)), to: partOf(join(SRC, e.to)), files: `${e.from} -> ${e.to}` }))
    .filter((e) => e.from !== e.to);
}

/** The strongly connected components of more than one part (Tarjan's algorithm). */
function cycles(edges: { from: string; to: string }[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const e of edges) (next.get(e.from) ?? next.set(e.from, new Set()).get(e.from)!).add(e.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of new Set(edges.flatMap((e) => [e.from, e.to]))) if (!index.has(v)) visit(v);
  return found;
}

/**
 * The layers, top to bottom: a part may import its own layer's neighbours only where listed
 * together, and any part below it. Entries and the CLI sit on top.
 */
const LAYERS: string[][] = [
  ["cli", "runtime", "handler.ts", "index.ts", "worker.ts", "local.ts", "node.ts", "jdo.ts", "jpa.ts"],
  ["http"],
  ["describe"],
  ["service"],
  ["access"],
  ["query"],
  ["query/jdoql", "query/jpql"],
  ["query/generated"],
  ["query/sql"],
  ["query/shared"],
  ["write"],
  ["read"],
  ["mapping"],
  ["json"],
  ["store"],
  ["cache"],
  ["config"],
  ["metadata"],
  ["types"],
  ["errors"],
  ["util"],
];

/**
 * Edges that break the layers today, each with the change that removes it. The list only shrinks:
 * an edge not listed fails, and so does a listed edge that no longer exists.
 */
const KNOWN: Record<string, string> = {};
const known = (e: { from: string; to: string }) => `${e.from} -> ${e.to}` in KNOWN;

test("no cycle between the parts of src/", () => {
  const edges = importEdges().filter((e) => !known(e));
  const found = cycles(edges);
  const detail = found.map(
    (c) =>
      `${c.join(" ↔ ")}:\n${edges
        .filter((e) => c.includes(e.from) && c.includes(e.to))
        .map((e) => `  ${e.files}`)
        .join("\n")}`,
  );
  assert.deepEqual(detail, []);
});

test("every part imports only the parts below it", () => {
  const layer = new Map(LAYERS.flatMap((parts, i) => parts.map((p) => [p, i] as const)));
  const edges = importEdges();
  for (const e of edges) assert.ok(layer.has(e.from) && layer.has(e.to), `${e.files}: a part the layers do not place`);
  const upward = edges.filter((e) => layer.get(e.to)! <= layer.get(e.from)! && !(e.from === e.to) && !LAYERS[layer.get(e.from)!]!.includes("handler.ts"));
  const unknown = upward.filter((e) => !known(e));
  assert.deepEqual(
    unknown.map((e) => e.files),
    [],
    "imports of a part at or above the importer's layer",
  );
  const stale = Object.keys(KNOWN).filter((k) => !upward.some((e) => `${e.from} -> ${e.to}` === k));
  assert.deepEqual(stale, [], "KNOWN lists edges that no longer exist: remove them");
});

/**
 * Files import one way too: a cycle between files (even within one part) means two files that
 * cannot be read, tested or moved apart. Where one binder must reach back to another (a method's
 * arguments are expressions, an expression holds a subquery), it is handed over at run time
 * (the front ends' `Scope.binders`), not imported.
 */
const KNOWN_FILE_CYCLES: Record<string, string> = {};

test("no import cycle between the files of src/", () => {
  const found = cycles(fileImports()).map((c) => c.join(" ↔ "));
  assert.deepEqual(
    found.filter((c) => !(c in KNOWN_FILE_CYCLES)),
    [],
    "files that import each other, directly or through others",
  );
  const stale = Object.keys(KNOWN_FILE_CYCLES).filter((c) => !found.includes(c));
  assert.deepEqual(stale, [], "KNOWN_FILE_CYCLES lists cycles that no longer exist: remove them");
});
