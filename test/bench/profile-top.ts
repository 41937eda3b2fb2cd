/**
 * The top frames of a V8/JSC `.cpuprofile` (node --cpu-prof, bun --cpu-prof): self time by
 * function (name, file and line), by file, and the inclusive time of Extent's own functions, as percentages of the busy samples (idle ones left
 * out: a server under a load generator on the same CPUs waits part of the time), to paste in a note.
 *
 *   node --import tsx test/bench/profile-top.ts PROFILE.cpuprofile [--top 25] [--callers NAME]
 *
 * `--callers NAME` adds the time of the frames named NAME (with what they call) by the function
 * that called them: e.g. `--callers __name`, where on Node tsx names a function made per call.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: "string", default: "25" }, callers: { type: "string" } } });
const top = Number(values.top);

for (const file of positionals) {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfTime = new Map<number, number>();
  profile.samples.forEach((id, i) => selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  for (const [id] of selfTime) if (byId.get(id)!.callFrame.functionName === "(idle)") selfTime.delete(id);
  const total = [...selfTime.values()].reduce((a, b) => a + b, 0);
  const short = (url: string) =>
    url
      .replace(/^.*\/(node_modules\/)/, "$1")
      .replace(/^.*\/(src|test)\//, "$1/")
      .replace(/^file:\/\//, "") || "(native)";
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const [id, t] of selfTime) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const where = short(url);
    const key = `${functionName || "(anonymous)"}  ${where}${url ? `:${lineNumber + 1}` : ""}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + t);
    const pkg = where.startsWith("node_modules/")
      ? where
          .split("/")
          .slice(0, where.split("/")[1]!.startsWith("@") ? 3 : 2)
          .join("/")
      : where;
    byFile.set(pkg, (byFile.get(pkg) ?? 0) + t);
  }
  const print = (title: string, m: Map<string, number>) => {
    console.log(`\n${title}`);
    for (const [k, t] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${((t / total) * 100).toFixed(1).padStart(6)} %  ${k}`);
  };
  // Inclusive time of Extent's own functions (src/): what each costs with all it calls, once per sample however deep it recurses.
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map<string, number>();
  for (const [id, t] of selfTime) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { functionName, url, lineNumber } = byId.get(at)!.callFrame;
      if (!/\/src\//.test(url)) continue;
      const key = `${functionName || "(anonymous)"}  ${short(url)}:${lineNumber + 1}`;
      if (!seen.has(key)) (seen.add(key), inclusive.set(key, (inclusive.get(key) ?? 0) + t));
    }
  }
  // The frames named --callers (and what they call), by the function that called them.
  const callers = new Map<string, number>();
  if (values.callers) {
    for (const [id, t] of selfTime) {
      let at: number | undefined = id;
      while (at !== undefined && byId.get(at)!.callFrame.functionName !== values.callers) at = parent.get(at);
      const caller = at === undefined ? undefined : parent.get(at);
      if (caller === undefined) continue;
      const { functionName, url, lineNumber } = byId.get(caller)!.callFrame;
      const key = `${functionName || "(anonymous)"}  ${short(url)}${url ? `:${lineNumber + 1}` : ""}`;
      callers.set(key, (callers.get(key) ?? 0) + t);
    }
  }
  console.log(`${file}: ${(total / 1000).toFixed(0)} ms busy`);
  print("self time by function", byFunction);
  print("self time by file or package", byFile);
  print("inclusive time of Extent's functions (src/)", inclusive);
  if (values.callers) print(`${values.callers}, by caller`, callers);
}
