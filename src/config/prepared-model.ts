/**
 * A prepared model: a model's sources read once (by `extent model`, src/cli/) into the declarations
 * `buildModel` takes, as JSON. A runtime that starts often, a worker's cold isolate above all, loads
 * it directly instead of parsing XML at every start (the sample: 12 ms of a cold first request).
 * The model is still built and checked from it at start-up; only the reading of sources is skipped.
 */
import type { MetadataDocument } from "../metadata/declarations.ts";
import { ModelError } from "../metadata/problems.ts";

const FORMAT = "extent-prepared-model";
/** Raised when the declarations' shape changes, so a model prepared by another release is refused, not misread. */
const VERSION = 1;

export interface PreparedModel {
  format: typeof FORMAT;
  version: typeof VERSION;
  documents: MetadataDocument[];
}

export function preparedModel(documents: MetadataDocument[]): PreparedModel {
  return { format: FORMAT, version: VERSION, documents };
}

/** The documents of a prepared model (`value`: its parsed JSON), or a ModelError naming `source`. */
export function preparedDocuments(value: unknown, source: string): MetadataDocument[] {
  const prepared = value as Partial<PreparedModel> | null;
  const problem = (message: string) => new ModelError([{ file: source, message }]);
  if (prepared?.format !== FORMAT || !Array.isArray(prepared.documents))
    throw problem(`not a prepared model (made by \`extent model\`: {"format": "${FORMAT}", "version": ${VERSION}, "documents": [...]})`);
  if (prepared.version !== VERSION)
    throw problem(`a prepared model of version ${String(prepared.version)}; this release reads version ${VERSION}: prepare it again with \`extent model\``);
  return prepared.documents;
}
