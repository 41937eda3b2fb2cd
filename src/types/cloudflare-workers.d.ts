/**
 * workerd's `cloudflare:workers` module, as far as the worker uses it: the bindings as the isolate
 * starts (`env`), before any request brings them. The bundle leaves the import to workerd.
 */
declare module "cloudflare:workers" {
  export const env: unknown;
}
