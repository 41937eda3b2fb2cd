/**
 * Where decorators leave what they say, until a persistence context reads the classes.
 *
 * Decorators run while a class is being defined, member decorators first, class decorators
 * last, in any order among themselves; so each one only records its options here and nothing is
 * interpreted until `readDecoratedClasses`. Members are recorded on the class's decorator
 * metadata object (TC39 `context.metadata`, which Node through tsx/TypeScript, Bun, Deno and
 * bundlers all provide once `Symbol.metadata` exists); the legacy `experimentalDecorators`
 * calling convention is accepted too, keyed by the constructor.
 */
import type { SourceRef } from "../declarations.ts";
import { callSite } from "./site.ts";

// TypeScript's own emit only passes `context.metadata` when Symbol.metadata exists; esbuild
// (tsx, wrangler) falls back to this same registered symbol. Defining it here, in the module
// the decorated classes import, makes every toolchain agree.
(Symbol as { metadata?: symbol }).metadata ??= Symbol.for("Symbol.metadata");
const METADATA = (Symbol as unknown as { metadata: symbol }).metadata;

export type Vocabulary = "jdo" | "jpa";

/**
 * A type as a decorator names it: a Java type name (`"long"`, `"java.util.Date"`), an enum or
 * class name, a decorated class, a JavaScript constructor (`String`, `Number`, `Boolean`, `Date`,
 * `BigInt`, `Uint8Array`), or a function returning a class (`() => Author`) for classes defined
 * further down the file.
 */
export type TypeRef = string | ((...args: never[]) => unknown) | (abstract new (...args: never[]) => unknown);

export interface MemberRecord {
  name: string;
  vocabulary: Vocabulary;
  site: SourceRef;
  /** Decorator names applied, for messages (`@Id`, `@Persistent`). */
  decorators: string[];
  props: Record<string, unknown>;
}

export interface ClassRecord {
  vocabulary: Vocabulary;
  site: SourceRef;
  decorators: string[];
  props: Record<string, unknown>;
  /** Repeatable class-level entries: fetch groups, entity graphs. */
  lists: Record<string, unknown[]>;
  members: Map<string, MemberRecord>;
}

const MEMBERS = Symbol("extent.members");
const classes = new WeakMap<object, ClassRecord>();
const legacyMembers = new WeakMap<object, Map<string, MemberRecord>>();
/** Members recorded when no metadata object exists: claimed by the next class decorator. */
let pending = new Map<string, MemberRecord>();

type MetadataBag = Record<symbol, unknown>;

function membersOf(metadata: MetadataBag | undefined): Map<string, MemberRecord> {
  if (!metadata) return pending;
  if (!Object.prototype.hasOwnProperty.call(metadata, MEMBERS)) metadata[MEMBERS] = new Map<string, MemberRecord>();
  return metadata[MEMBERS] as Map<string, MemberRecord>;
}

export interface MemberUse {
  decorator: string;
  vocabulary: Vocabulary;
  props: Record<string, unknown>;
  site?: SourceRef;
}

/** Records a member decorator; `args` are what the runtime passed to the decorator function. */
export function recordMember(use: MemberUse, args: readonly unknown[]): void {
  const [first, second] = args;
  let members: Map<string, MemberRecord>;
  let name: unknown;
  if (isContext(second)) {
    if (second.kind !== "field" && second.kind !== "accessor" && second.kind !== "getter") {
      throw new TypeError(`@${use.decorator} decorates fields (found a ${second.kind})`);
    }
    if (second.static) throw new TypeError(`@${use.decorator} cannot decorate a static field`);
    name = second.private ? `#${String(second.name).replace(/^#/, "")}` : second.name;
    members = membersOf(second.metadata as MetadataBag | undefined);
  } else if (typeof second === "string" && first && typeof first === "object") {
    // experimentalDecorators: (prototype, propertyKey)
    name = second;
    const ctor = (first as { constructor: object }).constructor;
    members = legacyMembers.get(ctor) ?? new Map();
    legacyMembers.set(ctor, members);
  } else throw new TypeError(`@${use.decorator} was applied to something that is not a class field`);

  const key = typeof name === "string" ? name : String(name);
  const record = members.get(key) ?? { name: key, vocabulary: use.vocabulary, site: use.site ?? callSite(), decorators: [], props: {} };
  if (record.vocabulary !== use.vocabulary) record.props.mixedVocabulary = true;
  record.decorators.push(use.decorator);
  assignProps(record.props, use.props);
  members.set(key, record);
}

export interface ClassUse extends MemberUse {
  /** Repeatable entries this decorator adds (`fetchGroups`, `graphs`). */
  list?: [string, unknown];
}

/** Records a class decorator; `args` are what the runtime passed to the decorator function. */
export function recordClass(use: ClassUse, args: readonly unknown[]): void {
  const [target, context] = args;
  if (typeof target !== "function") throw new TypeError(`@${use.decorator} decorates classes`);
  if (isContext(context) && context.kind !== "class") throw new TypeError(`@${use.decorator} decorates classes (found a ${context.kind})`);
  let record = classes.get(target);
  if (!record) {
    record = { vocabulary: use.vocabulary, site: use.site ?? callSite(), decorators: [], props: {}, lists: {}, members: new Map() };
    classes.set(target, record);
  }
  if (record.vocabulary !== use.vocabulary) record.props.mixedVocabulary = true;
  record.decorators.push(use.decorator);
  assignProps(record.props, use.props);
  if (use.list) (record.lists[use.list[0]] ??= []).push(use.list[1]);

  const metadata = isContext(context) ? (context.metadata as MetadataBag | undefined) : undefined;
  const members = metadata ? membersOf(metadata) : (legacyMembers.get(target) ?? claimPending());
  for (const [name, m] of members) record.members.set(name, m);
}

/** Later decorators add to earlier ones; option objects (a column, overrides) merge key by key. */
function assignProps(into: Record<string, unknown>, props: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined) continue;
    const prior = into[k];
    into[k] = isPlainObject(prior) && isPlainObject(v) ? { ...prior, ...Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)) } : v;
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && Object.getPrototypeOf(v) === Object.prototype;

function claimPending(): Map<string, MemberRecord> {
  const claimed = pending;
  pending = new Map();
  return claimed;
}

function isContext(value: unknown): value is { kind: string; name: unknown; static?: boolean; private?: boolean; metadata?: unknown } {
  return typeof value === "object" && value !== null && typeof (value as { kind?: unknown }).kind === "string";
}

/** What the decorators said about a class, if it carries a class decorator. */
export function classRecord(cls: object): ClassRecord | undefined {
  return classes.get(cls);
}

/** The member decorators of a class that carries no class decorator (for locating the problem). */
export function ownMemberRecords(cls: object): MemberRecord[] {
  const metadata = Object.prototype.hasOwnProperty.call(cls, METADATA) ? (cls as Record<symbol, MetadataBag | undefined>)[METADATA] : undefined;
  const members =
    metadata && Object.prototype.hasOwnProperty.call(metadata, MEMBERS) ? (metadata[MEMBERS] as Map<string, MemberRecord>) : legacyMembers.get(cls);
  return [...(members?.values() ?? [])];
}

/** Whether fields of the class carry decorators although the class itself carries none. */
export function hasMemberDecorators(cls: object): boolean {
  // A plain subclass inherits Symbol.metadata from its decorated superclass: only its own counts.
  if (!Object.prototype.hasOwnProperty.call(cls, METADATA)) return legacyMembers.has(cls);
  const metadata = (cls as Record<symbol, MetadataBag | undefined>)[METADATA];
  return !!(metadata && Object.prototype.hasOwnProperty.call(metadata, MEMBERS)) || legacyMembers.has(cls);
}
