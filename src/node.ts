/**
 * `extent/node`: what a server with a file system (Node, Bun, Deno) adds to the handler, kept out of
 * the main entry so the handler itself stays web-standard (the worker imports only that).
 */
export { nodeExplorerAssets } from "./runtime/explorer-files.ts";
