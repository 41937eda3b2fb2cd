/**
 * The worlds a fuzz property runs in, each on a fresh temp-file libSQL database under the fuzz
 * limits (FUZZ_LIMITS) with SQLite's heap capped as a served file's is:
 *
 * - "sample": the sample model of schema/jdo, seeded from schema/sample-data.json through the
 *   handler itself (as `npm start` does), plus a Shelf and a Member's loans so that the UUID key
 *   and the M-N join table hold rows too. Its relations cannot explode: Author.works/Item.author
 *   is 1-N (a fetch plan grows linearly with its depth) and Member.borrowed and Shelf.items are
 *   one-way.
 * - "bounds": test/models/bounds/package.jdo, every one of 8 employees on every one of 5 projects
 *   (M-N both ways): a fetch plan nests 40 objects a level, and a product of N extents has 8^N
 *   rows, the shapes of issue 16.
 *
 * Successful writes pile up objects (and the digest reads every table before each write), so a
 * world is rebuilt after `resetAfter` successful writes: rarely, since a rebuild costs a fresh
 * database and its schema.
 */
import { readFileSync } from "node:fs";
import { resolveContext } from "../../src/config/resolve-context.ts";
import type { PersistenceContext } from "../../src/config/context.ts";
import { DEFAULT_LIMITS, type Limits } from "../../src/config/limits.ts";
import { loadConfigDir } from "../../src/runtime/load-config-dir.ts";
import { sqliteHeapLimit } from "../../src/store/open-store.ts";
import { type Harness, type HarnessHooks, startHarness } from "../support/harness.ts";
import { BOUNDS, EMPLOYEES, PROJECTS } from "./bounds.ts";
import { SHELF_CODE } from "./model.ts";

const SCHEMA = new URL("../../schema/jdo", import.meta.url).pathname;
const BOUNDS_JDO = new URL("../models/bounds/package.jdo", import.meta.url).pathname;
const DATA = JSON.parse(readFileSync(new URL("../../schema/sample-data.json", import.meta.url), "utf8")) as Record<string, unknown[]>;

/**
 * The limits of every fuzz world: a time limit short enough that a runaway case fails fast (and
 * costs the run little), and answers of at most 1 MiB, so that what one case may legitimately
 * build is small beside its memory budget (test/fuzz/budget.ts).
 */
export const FUZZ_LIMITS = { requestTimeMs: 1000, answerBytes: 1024 * 1024 } as const satisfies Partial<Limits>;

/** A Shelf holding items 1 and 4, and Bob's loans: rows for SHELF_ITEMS and LOANS. */
const EXTRA: [string, unknown][] = [
  [
    "org.extent.sample.Shelf",
    {
      code: SHELF_CODE,
      label: "New arrivals",
      items: [
        { class: "org.extent.sample.Book", id: 1 },
        { class: "org.extent.sample.Magazine", id: 4 },
      ],
    },
  ],
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

async function seed(h: Harness, seeds: [string, unknown][]): Promise<Harness> {
  for (const [cls, object] of seeds) {
    const reply = await h.post(`/${cls}`, object);
    if (reply.status !== 201) throw new Error(`seeding ${cls} answered ${reply.status}: ${reply.text}`);
  }
  return h;
}

/** SQLite's heap capped as `openStore` caps a served file's (when `limits` are given: the other tests keep theirs). */
const heapCap = (limits: Partial<Limits> | undefined) => limits && { heapLimitBytes: sqliteHeapLimit(limits.answerBytes ?? DEFAULT_LIMITS.answerBytes) };

/**
 * A harness on the seeded sample (default limits unless `limits` says otherwise), on a temp file
 * unless `url` names another database (`:memory:`: one connection, no reader pool).
 */
export async function sampleHarness(limits?: Partial<Limits>, url?: string, hooks: HarnessHooks = {}): Promise<Harness> {
  const h = await startHarness({ metadata: await sampleMetadata(), limits, ...(url ? { url } : {}) }, {}, { ...heapCap(limits), ...hooks });
  return seed(h, [...Object.entries(DATA).flatMap(([cls, objects]) => objects.map((o): [string, unknown] => [cls, o])), ...EXTRA]);
}

/** A harness on the dense graph: every employee on every project. */
export async function boundsHarness(limits?: Partial<Limits>): Promise<Harness> {
  const h = await startHarness({ metadata: [{ source: BOUNDS_JDO, text: readFileSync(BOUNDS_JDO, "utf8") }], limits }, {}, heapCap(limits));
  const members = EMPLOYEES.map((id) => ({ id, name: `employee ${id}` }));
  const [first, ...others] = PROJECTS;
  return seed(h, [
    [`${BOUNDS}.Project`, { id: first, name: `project ${first}`, members }],
    ...others.map((id): [string, unknown] => [`${BOUNDS}.Project`, { id, name: `project ${id}`, members: EMPLOYEES.map((e) => ({ id: e })) }]),
  ]);
}

export type WorldName = "sample" | "bounds";
const HARNESSES: Record<WorldName, (limits: Partial<Limits>) => Promise<Harness>> = { sample: sampleHarness, bounds: boundsHarness };

/** One harness shared by the cases of a property, rebuilt after `resetAfter` successful writes. */
export class World {
  private current: Harness | undefined;
  private writes = 0;

  constructor(
    private readonly resetAfter = 60,
    private readonly name: WorldName = "sample",
  ) {}

  async harness(): Promise<Harness> {
    if (this.current && this.writes >= this.resetAfter) this.close();
    this.current ??= await HARNESSES[this.name](FUZZ_LIMITS);
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
