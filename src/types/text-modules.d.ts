/**
 * Metadata files imported as text: wrangler bundles them as strings (the `[[rules]]` of
 * wrangler.toml), so a worker carries its model without a file system.
 */
declare module "*.jdo" {
  const text: string;
  export default text;
}
declare module "*.orm" {
  const text: string;
  export default text;
}
declare module "*.xml" {
  const text: string;
  export default text;
}
