#!/usr/bin/env node
// The `extent` command on Node: TypeScript sources run through tsx, with no build step.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
