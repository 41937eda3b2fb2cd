/**
 * A persistence context (the seed's `persistence-context`): which store to use and which model
 * to serve. This is the plain-object form that code passes to `createRestHandler`; the XML files
 * (persistence.xml, jdoconfig.xml) are read into the same shape.
 */
import type { MetadataDocument } from "../metadata/declarations.ts";
import type { JpaClass } from "../metadata/jpa/model.ts";
import type { AccessOptions } from "./access.ts";
import type { CorsOptions } from "./cors.ts";
import type { Limits } from "./limits.ts";

/** When commits of an embedded file reach the disk: see `PersistenceContext.synchronous`. */
export type Synchronous = "full" | "normal";

/** The property that sets it in persistence.xml / jdoconfig.xml. */
export const SYNCHRONOUS_PROPERTY = "extent.store.synchronous";

/** `text` as a `synchronous` setting (case-insensitive), or undefined when it is none. */
export function parseSynchronous(text: unknown): Synchronous | undefined {
  const value = typeof text === "string" ? text.trim().toLowerCase() : undefined;
  return value === "full" || value === "normal" ? value : undefined;
}

/** A metadata document as text, so runtimes without a file system can bundle XML as strings. */
export interface MetadataText {
  /** Name used in error messages (usually the file path). */
  source: string;
  text: string;
}

export interface PersistenceContext {
  name: string;
  /**
   * A libSQL URL: `file:path`, `:memory:`, `libsql://…`, `http(s)://…`; `jdbc:sqlite:path` is read
   * as `file:path`. Not needed when `database` is given.
   */
  url?: string;
  /**
   * A Drizzle database to store objects in instead of opening `url`: `drizzle(env.DB)` for
   * Cloudflare D1, `drizzle(client)` for a libSQL client (the bare D1 binding or client works too).
   */
  database?: unknown;
  /** libSQL auth token (`jakarta.persistence.jdbc.password`). */
  authToken?: string;
  /** Decorated classes (JDO or JPA decorators); the classes they reach come along. */
  classes?: unknown[];
  /** The Java package of decorated classes that do not name one. */
  package?: string;
  /** XML documents: JDO (`.jdo`, `.orm`) and JPA (`orm.xml`). XML overrides code for the same class. */
  metadata?: MetadataText[];
  /** Models in the plain object form (see `defineModel`). */
  models?: unknown[];
  /** Metadata already read into declarations (other front ends, tests). */
  documents?: MetadataDocument[];
  /** The JPA classes behind `documents` (the Java sources'), so an orm.xml over them knows their ids and superclasses. */
  jpaClasses?: JpaClass[];
  /**
   * When an embedded file's commits reach the disk (SQLite's `synchronous`, the property
   * `extent.store.synchronous`): `full` (default) syncs the write-ahead log at every commit, so an
   * acknowledged write survives a power loss; `normal` syncs it at checkpoints only, so a write
   * survives the process crashing but the last ones may roll back if the machine loses power
   * (the database is never corrupted). A commit costs a disk sync under `full` (about 170 µs on
   * this project's bench machine). Remote stores and D1 decide this themselves.
   */
  synchronous?: Synchronous;
  /** Create missing tables and columns at start-up (default true). Nothing is ever dropped. */
  autoCreateSchema?: boolean;
  /** What one request may ask of the server (body size, nesting, fetch depth, query size, time); see `Limits`. */
  limits?: Partial<Limits>;
  /**
   * Access control (contract §8): who makes each request (Bearer JWTs, or the app's own
   * `authenticate`). Absent: every request is allowed, and none pays for it. Rules come later.
   */
  access?: AccessOptions;
  /**
   * Cross-origin requests from browser pages (contract §7): the origins allowed, `*` or a list.
   * Absent: no CORS headers at all, and browsers keep other origins' pages out.
   */
  cors?: CorsOptions;
}
