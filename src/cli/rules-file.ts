/**
 * The access rules file read for the handler (which reads no files): `--access-file FILE`
 * (relative to the working folder) or the context's `extent.access.file` (relative to the
 * configuration folder), parsed as JSON into `access.rules`, the file's name kept for errors.
 */
import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import type { PersistenceContext } from "../config/context.ts";

export function readRulesFile(context: PersistenceContext, configDir: string, flag: string | undefined): { ok: true } | { ok: false; message: string } {
  const given = flag ?? context.access?.file;
  if (given === undefined) return { ok: true };
  const where = flag !== undefined ? "--access-file" : "extent.access.file";
  const path = flag !== undefined ? resolve(flag) : resolve(configDir, given);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    return { ok: false, message: `${where}: cannot read ${path}: ${(error as Error).message}` };
  }
  const name = relative(process.cwd(), path) || path;
  try {
    context.access = { ...context.access, rules: JSON.parse(text), rulesSource: name, file: name };
  } catch (error) {
    return { ok: false, message: `${name}: the access rules are not valid JSON: ${(error as Error).message}` };
  }
  return { ok: true };
}
