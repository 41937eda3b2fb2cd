/** JPA's annotations as TypeScript decorators: `import { Entity, Id, ... } from "extent/jpa"`. */
export * from "./metadata/decorators/jpa.ts";
export type { TypeRef } from "./metadata/decorators/registry.ts";
