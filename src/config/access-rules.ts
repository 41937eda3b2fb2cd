/**
 * The access rules' document (contract §8): its shape, checked with valibot when the handler is
 * built. What needs the model (classes, fields, filters that compile, roles) is checked by
 * src/access/policy.ts; both name the file and the rule.
 */
import * as v from "valibot";

export type Operation = "read" | "create" | "update" | "delete";
export const OPERATIONS: readonly Operation[] = ["read", "create", "update", "delete"];

/** One grant: a role (`*` for any principal, the anonymous role included), and a JDOQL filter of the class the object must pass. */
export interface Grant {
  role: string;
  where?: string;
}

/** Who may read and write a field: a missing list leaves that side unrestricted. */
export interface FieldRule {
  read?: readonly string[];
  write?: readonly string[];
}

export interface ClassRules {
  read?: readonly Grant[];
  create?: readonly Grant[];
  update?: readonly Grant[];
  delete?: readonly Grant[];
  fields?: Readonly<Record<string, FieldRule>>;
}

export interface AccessRules {
  /** What a class without an entry allows: everything (`allow`) or nothing (`deny`, the default). */
  default?: "allow" | "deny";
  classes?: Readonly<Record<string, ClassRules>>;
}

const name = v.pipe(v.string("must be text"), v.minLength(1, "must not be empty"));
const roles = v.array(name, "must be an array of role names");
const grants = v.array(
  v.strictObject({ role: name, where: v.optional(v.pipe(v.string("must be a JDOQL filter (text)"), v.trim(), v.minLength(1, "must not be empty"))) }),
  "must be an array of grants ({ role, where? })",
);

const Schema = v.strictObject({
  default: v.optional(v.picklist(["allow", "deny"], 'must be "allow" or "deny"')),
  classes: v.optional(
    v.record(
      name,
      v.strictObject({
        read: v.optional(grants),
        create: v.optional(grants),
        update: v.optional(grants),
        delete: v.optional(grants),
        fields: v.optional(v.record(name, v.strictObject({ read: v.optional(roles), write: v.optional(roles) }))),
      }),
    ),
  ),
});

/** A rule that is wrong: where (`classes["C"].update[0].where`) and why. */
export class AccessRulesError extends RangeError {
  constructor(
    readonly source: string,
    readonly rule: string,
    readonly reason: string,
  ) {
    super(`${source}: ${rule ? `${rule}: ` : ""}${reason}`);
    this.name = "AccessRulesError";
  }
}

/** The path of a rule as the file spells it: `classes["org.x.Project"].update[0].where`. */
export function rulePath(keys: readonly (string | number)[]): string {
  return keys.map((k, i) => (typeof k === "number" ? `[${k}]` : i === 0 ? k : /^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`)).join("");
}

/** The rules as given (a parsed file or the same object in code), checked for shape; `source` names them in errors. */
export function parseAccessRules(rules: unknown, source: string): AccessRules {
  if (rules === null || typeof rules !== "object" || Array.isArray(rules))
    throw new AccessRulesError(source, "", 'the rules must be an object: { "default", "classes" }');
  const parsed = v.safeParse(Schema, rules);
  if (parsed.success) return parsed.output;
  const issue = parsed.issues[0];
  const keys = (issue.path ?? []).map((p) => p.key as string | number);
  const reason = issue.expected === "never" ? `is not a rule (${allowedAt(keys)})` : /^Invalid key/.test(issue.message) ? "must be given" : issue.message;
  throw new AccessRulesError(source, rulePath(keys), reason);
}

function allowedAt(keys: readonly (string | number)[]): string {
  if (keys.length <= 1) return 'a rules document has "default" and "classes"';
  if (keys.length === 3) return "a class's rules are read, create, update, delete and fields";
  if (keys.length === 5 && keys[2] === "fields") return "a field's rules are read and write";
  return 'a grant has "role" and "where"';
}
