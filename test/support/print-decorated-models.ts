/**
 * Prints one line of canonical JSON: the models built from the decorated twins of the sample
 * model (schema/ts/jdo-model.ts and schema/ts/jpa-model.ts). test/decorators-runtimes.test.ts
 * runs it under Node (tsx), Bun, Deno and as an esbuild bundle (the stand-in for a worker) and
 * compares what each prints, and compares both with the model of schema/jdo/package.jdo.
 *
 * It touches no file system and no process API, so the same code runs everywhere.
 */
import { loadModel } from "../../src/config/load-model.ts";
import { sampleClasses as jdoClasses } from "../../schema/ts/jdo-model.ts";
import { sampleClasses as jpaClasses } from "../../schema/ts/jpa-model.ts";
import { canonical } from "./canonical-model.ts";

console.log(JSON.stringify({ jdo: canonical(loadModel({ classes: jdoClasses })), jpa: canonical(loadModel({ classes: jpaClasses })) }));
