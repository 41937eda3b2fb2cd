/**
 * A persistence context (the seed's `persistence-context`): which store to use and which model
 * to serve. This is the plain-object form that code passes to `createRestHandler`; the XML files
 * (persistence.xml, jdoconfig.xml) are read into the same shape.
 */
import type { MetadataDocument } from "../metadata/declarations.ts";

/** A metadata document as text, so runtimes without a file system can bundle XML as strings. */
export interface MetadataText {
  /** Name used in error messages (usually the file path). */
  source: string;
  text: string;
}

export interface PersistenceContext {
  name: string;
  /** A libSQL URL: `file:path`, `:memory:`, `libsql://…`, `http(s)://…`; `jdbc:sqlite:path` is read as `file:path`. */
  url: string;
  /** libSQL auth token (`jakarta.persistence.jdbc.password`). */
  authToken?: string;
  /** JDO XML documents (`.jdo`, `.orm`); JPA orm.xml comes with a later release. */
  metadata?: MetadataText[];
  /** Models in the plain object form (see `defineModel`). */
  models?: unknown[];
  /** Metadata already read into declarations (other front ends, tests). */
  documents?: MetadataDocument[];
  /** Create missing tables and columns at start-up (default true). Nothing is ever dropped. */
  autoCreateSchema?: boolean;
}
