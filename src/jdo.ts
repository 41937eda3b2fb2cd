/** JDO's annotations as TypeScript decorators: `import { PersistenceCapable, ... } from "extent/jdo"`. */
export * from "./metadata/decorators/jdo.ts";
export type { TypeRef } from "./metadata/decorators/registry.ts";
