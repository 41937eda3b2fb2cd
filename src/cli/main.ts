/**
 * The `extent` command. `extent serve` (here) reads a persistence context from a folder, builds
 * the handler and serves it over HTTP on the runtime that runs it (Node, Bun or Deno); `extent
 * token` (token.ts) mints a development JWT. With the local entry, the only code allowed to touch
 * the file system and the process.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { PersistenceContext } from "../config/context.ts";
import { loadModel, readDocuments } from "../config/load-model.ts";
import { preparedModel } from "../config/prepared-model.ts";
import { type JavaSourcesDecl, resolveContext } from "../config/resolve-context.ts";
import { createRestHandler, normalizePrefix } from "../handler.ts";
import { resolveAccess } from "../config/access.ts";
import { AccessControl } from "../access/access-control.ts";
import { openApiText } from "../describe/openapi.ts";
import { isDecoratedClass } from "../metadata/decorators/read.ts";
import { ModelError, formatProblem } from "../metadata/problems.ts";
import { readJavaModel } from "../runtime/java-sources.ts";
import { loadConfigDir } from "../runtime/load-config-dir.ts";
import { copyExplorerAssets, nodeExplorerAssets } from "../runtime/explorer-files.ts";
import { seedIfEmpty } from "../runtime/seed.ts";
import { serve } from "../runtime/serve.ts";
import { SERVE_USAGE, type ServeOptions, parseServeArgs } from "./args.ts";
import { readRulesFile } from "./rules-file.ts";
import { stopOnSignals } from "./shutdown.ts";
import { applyAuthFlags } from "./secret-source.ts";
import { TOKEN_USAGE } from "./token-args.ts";
import { runToken } from "./token.ts";

const OPENAPI_USAGE = `extent openapi --config DIR --persistence-context NAME [--prefix /p]: prints the OpenAPI 3.1 document the server serves at {prefix}/openapi.json`;
const MODEL_USAGE = `extent model --config DIR --persistence-context NAME: prints the context's model prepared as JSON (its sources read, checked), which a worker loads without reading XML`;
const ASSETS_USAGE = `extent explorer-assets DIR: copies the explorer page's renderers (Swagger UI, Mermaid) from the installed packages into DIR, for a host that serves them as static files (the worker: wrangler.toml [assets])`;
const USAGE = `${SERVE_USAGE}\n\n${OPENAPI_USAGE}\n\n${MODEL_USAGE}\n\n${ASSETS_USAGE}\n\n${TOKEN_USAGE}`;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** Runs the `extent` command with its arguments (without the program name). */
export async function runCli(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === "--help" || command === "-h" || command === "help") return void console.log(USAGE);
  if (command === "token") return runToken(rest);
  if (command === "explorer-assets") return explorerAssets(rest);
  if (command !== "serve" && command !== "openapi" && command !== "model") fail(`unknown command "${command}"\n\n${USAGE}`);
  const args = parseServeArgs(rest);
  if (!args.ok) fail(`extent ${command}: ${args.message}\n\n${SERVE_USAGE}`);
  const { options } = args;
  const context = await contextOf(options, command);
  if (command === "openapi") return void process.stdout.write(openApiDocument(context, options.prefix) + "\n");
  if (command === "model") return void process.stdout.write(preparedModelText(context) + "\n");
  if (context.url) ensureDatabaseFolder(context.url);

  let handler;
  try {
    // The explorer's renderers from the installed packages (absent when they are not: the page says so).
    handler = createRestHandler({ context, prefix: options.prefix, serverTiming: options.serverTiming, explorer: nodeExplorerAssets() });
    await handler.ready;
  } catch (error) {
    if (error instanceof ModelError) fail(`extent serve: ${error.message}`);
    if (error instanceof RangeError) fail(`extent serve: ${error.message}`);
    fail(`extent serve: cannot open the store ${context.url}: ${(error as Error).message}`);
  }
  if (options.seed) {
    // The operator's data, not a request: written past the access rules, by a handler without them over the same store.
    const seeder = context.access ? createRestHandler({ context: { ...context, access: undefined }, store: handler.store, prefix: options.prefix }) : handler;
    await seeder.ready;
    const seeded = await seedIfEmpty(seeder, JSON.parse(readFileSync(options.seed, "utf8")), options.prefix);
    if (seeded) console.log(`Seeded ${seeded} object(s) from ${options.seed}`);
  }
  const served = await serve(handler.fetch, options.port, options.host, handler.limits.urlBytes).catch((e: Error) =>
    fail(`extent serve: cannot listen on ${options.host}:${options.port}: ${e.message}`),
  );
  console.log(`Extent serves "${context.name}" at ${served.url}${options.prefix} (${served.runtime})`);
  stopOnSignals(served, () => handler.close());
}

/** The persistence context of --config and --persistence-context, with the flags that change it. */
async function contextOf(options: ServeOptions, command: string): Promise<PersistenceContext> {
  const files = await loadConfigDir(resolve(options.config)).catch((e: Error) =>
    fail(`extent ${command}: cannot read --config ${options.config}: ${e.message}`),
  );
  const { context, problems, classModules, java } = resolveContext(files, options.persistenceContext, options.config);
  if (problems.length)
    fail(`extent ${command}: the configuration has ${problems.length} problem(s):\n${problems.map((p) => "  " + formatProblem(p)).join("\n")}`);
  if (classModules.length) context.classes = await importClasses(options.config, classModules);
  const javaFolders = options.javaSources
    ? options.javaSources.split(",").map((f) => resolve(f.trim()))
    : (java?.folders ?? []).map((f) => resolve(options.config, f)).filter((f) => java?.explicit || existsSync(f));
  if (javaFolders.length) {
    const missing = javaFolders.find((f) => !existsSync(f));
    if (missing) fail(`extent ${command}: no Java sources folder ${missing}`);
    await addJavaModel(context, javaFolders, java);
  }
  if (options.cors !== undefined) context.cors = { origins: options.cors };
  if (Object.keys(options.limits).length) context.limits = { ...context.limits, ...options.limits };
  const secret = applyAuthFlags(context, options);
  if (!secret.ok) fail(`extent ${command}: ${secret.message}`);
  const rules = readRulesFile(context, resolve(options.config), options.accessFile);
  if (!rules.ok) fail(`extent ${command}: ${rules.message}`);

  return context;
}

/** `extent explorer-assets DIR`. */
async function explorerAssets(args: string[]): Promise<void> {
  if (args.length !== 1 || args[0]!.startsWith("-")) fail(`extent explorer-assets: give one folder\n\n${ASSETS_USAGE}`);
  const names = await copyExplorerAssets(resolve(args[0]!)).catch((e: Error) => fail(`extent explorer-assets: ${e.message}`));
  console.log(`Copied ${names.join(", ")} to ${args[0]}`);
}

/** `extent openapi`: the document `GET {prefix}/openapi.json` serves, without opening the store. */
function openApiDocument(context: PersistenceContext, prefix: string | undefined): string {
  try {
    const model = loadModel(context);
    const access = resolveAccess(context.access);
    // The rules shape each operation's security, as in the document the server serves.
    const control = access?.rules !== undefined ? new AccessControl(model, access.rules, access.rulesSource) : undefined;
    return openApiText(model, normalizePrefix(prefix ?? ""), access, { control });
  } catch (error) {
    return fail(`extent openapi: ${(error as Error).message}`);
  }
}

/** `extent model`: the model's documents as a prepared model (src/config/prepared-model.ts), once it is known to build. */
function preparedModelText(context: PersistenceContext): string {
  try {
    loadModel(context);
    return JSON.stringify(preparedModel(readDocuments(context).documents), null, 1);
  } catch (error) {
    return fail(`extent model: ${(error as Error).message}`);
  }
}

/** Every decorated class the modules export (`extent.classes` in persistence.xml or jdoconfig.xml). */
async function importClasses(dir: string, modules: string[]): Promise<unknown[]> {
  const classes: unknown[] = [];
  for (const path of modules) {
    const file = resolve(dir, path);
    const exports = await import(pathToFileURL(file).href).catch((e: Error) => fail(`extent serve: cannot import ${CLASSES_KEY} module ${path}: ${e.message}`));
    const found = Object.values(exports as Record<string, unknown>).filter(isDecoratedClass);
    if (!found.length) fail(`extent serve: ${CLASSES_KEY} module ${path} exports no decorated class`);
    classes.push(...found);
  }
  return classes;
}
const CLASSES_KEY = "extent.classes";

/**
 * The Java model's declarations become the context's documents: code first, the XML after it
 * overrides them. A problem of the sources fails start-up with the model's own problems listed too.
 */
async function addJavaModel(context: PersistenceContext, folders: string[], java: JavaSourcesDecl | undefined): Promise<void> {
  const started = performance.now();
  const model = await readJavaModel(folders, {
    metadata: context.metadata,
    listedClasses: java?.classes,
    excludeUnlisted: java?.excludeUnlisted,
    listedIn: java?.listedIn,
  });
  context.documents = [...(context.documents ?? []), ...model.documents];
  context.jpaClasses = [...(context.jpaClasses ?? []), ...model.jpaClasses];
  if (model.problems.length) {
    let problems = model.problems;
    try {
      loadModel(context);
    } catch (error) {
      if (error instanceof ModelError) problems = [...problems, ...error.problems.filter((p) => !problems.some((q) => formatProblem(q) === formatProblem(p)))];
    }
    fail(`extent serve: ${new ModelError(problems).message}`);
  }
  console.log(`Read ${model.units} Java source file(s) in ${Math.round(performance.now() - started)} ms`);
}

/** Embedded file URLs may name a folder that does not exist yet. */
function ensureDatabaseFolder(url: string): void {
  const path = /^file:(?!\/\/)(.+)$/.exec(url)?.[1];
  if (path) mkdirSync(dirname(resolve(path)), { recursive: true });
}
