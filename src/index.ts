/** Extent's public API: the handler, the persistence context, the metadata object form. */
export { createRestHandler, type RestHandler, type RestHandlerOptions } from "./handler.ts";
export type { PersistenceContext, MetadataText } from "./config/context.ts";
export type { AccessOptions, Principal } from "./config/access.ts";
export type { ExplorerAssets } from "./describe/explorer-assets.ts";
export { InvalidTokenError } from "./errors/auth-errors.ts";
export { defineModel, type ObjectModel } from "./metadata/object-form.ts";
export { preparedDocuments, type PreparedModel } from "./config/prepared-model.ts";
export { loadModel } from "./config/load-model.ts";
export { ModelError, type ModelProblem } from "./metadata/problems.ts";
export type { Model, ClassMeta, FieldMeta } from "./metadata/model.ts";
export { CountingStore, type Store, type Statement, type StatementResult } from "./store/store.ts";
export { openLibsqlStore } from "./store/libsql-store.ts";
