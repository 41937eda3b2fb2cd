/**
 * The world a fuzz property runs in: the sample model of schema/jdo on a fresh temp-file libSQL
 * database, seeded from schema/sample-data.json through the handler itself (as `npm start` does),
 * plus a Shelf and a Member's loans so that the UUID key and the M-N join table hold rows too.
 *
 * Successful writes pile up objects (and the digest reads every table before each write), so a
 * world is rebuilt after `resetAfter` successful writes: rarely, since a rebuild costs a fresh
 * database and its schema.
 */
import { readFileSync } from "node:fs";
import { resolveContext } from "../../src/config/resolve-context.ts";
import type { PersistenceContext } from "../../src/config/context.ts";
import { loadConfigDir } from "../../src/runtime/load-config-dir.ts";
import { type Harness, startHarness } from "../support/harness.ts";
import { SHELF_CODE } from "./model.ts";

const SCHEMA = new URL("../../schema/jdo", import.meta.url).pathname;
const DATA = JSON.parse(readFileSync(new URL("../../schema/sample-data.json", import.meta.url), "utf8")) as Record<string, unknown[]>;

/** A Shelf holding items 1 and 4, and Bob's loans: rows for SHELF_ITEMS and LOANS. */
const EXTRA: [string, unknown][] = [
  ["org.extent.sample.Shelf", { code: SHELF_CODE, label: "New arrivals", items: [{ class: "org.extent.sample.Book", id: 1 }, { class: "org.extent.sample.Magazine", id: 4 }] }],
  ["org.extent.sample.Member", { email: "bob@example.org", name: "Bob", borrowed: [{ id: 1 }, { id: 2 }] }],
];

let metadata: PersistenceContext["metadata"] | undefined;

async function sampleMetadata(): Promise<PersistenceContext["metadata"]> {
  if (!metadata) {
    const { context, problems } = resolveContext(await loadConfigDir(SCHEMA), "sample");
    if (problems.length) throw new Error(`the sample model has problems: ${problems.join("; ")}`);
    metadata = context.metadata;
  }
  return metadata;
}

/** A harness on the seeded sample. */
export async function sampleHarness(): Promise<Harness> {
  const h = await startHarness({ metadata: await sampleMetadata() });
  const seeds: [string, unknown][] = [...Object.entries(DATA).flatMap(([cls, objects]) => objects.map((o): [string, unknown] => [cls, o])), ...EXTRA];
  for (const [cls, object] of seeds) {
    const reply = await h.post(`/${cls}`, object);
    if (reply.status !== 201) throw new Error(`seeding ${cls} answered ${reply.status}: ${reply.text}`);
  }
  return h;
}

/** One harness shared by the cases of a property, rebuilt after `resetAfter` successful writes. */
export class World {
  private current: Harness | undefined;
  private writes = 0;

  constructor(private readonly resetAfter = 60) {}

  async harness(): Promise<Harness> {
    if (this.current && this.writes >= this.resetAfter) this.close();
    this.current ??= await sampleHarness();
    return this.current;
  }

  /** Counts a successful write towards the next rebuild. */
  wrote(): void {
    this.writes++;
  }

  close(): void {
    this.current?.close();
    this.current = undefined;
    this.writes = 0;
  }
}
