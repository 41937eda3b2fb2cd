#!/usr/bin/env node
// The `extent` command on Node: TypeScript sources run through tsx, with no build step.
import { register } from "tsx/esm/api";

register();
const { runCli } = await import("../src/cli/main.ts");
await runCli(process.argv.slice(2));
