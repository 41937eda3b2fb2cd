/**
 * `GET /openapi.json`: the OpenAPI 3.1 document of this handler (src/describe/), generated at the
 * first request that asks for it and kept: the model does not change while the handler lives.
 */
import { jsonText } from "../answers.ts";
import type { Resource } from "../resource.ts";

/** The name `/openapi.json` takes below the prefix, which is no class (src/http/routes/objects.ts). */
export const OPENAPI_NAME = "openapi.json";

export function openapi(generate: () => string): Resource {
  let text: string | undefined;
  return {
    path: `/${OPENAPI_NAME}`,
    what: `/${OPENAPI_NAME}`,
    GET: () => jsonText((text ??= generate())),
  };
}
