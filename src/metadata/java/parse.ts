/**
 * Java source → `CompilationUnit`, through tree-sitter's Java grammar (a `web-tree-sitter` parser
 * set to that language, which the caller loads once). A syntax error is a problem naming the
 * file, line and column; the rest of the file is still read where tree-sitter recovered.
 */
import type { Node, Parser } from "web-tree-sitter";
import type { ModelProblem } from "../problems.ts";
import type { CompilationUnit, ElementValue, JavaAnnotation, JavaClass, JavaImport, JavaMember, JavaPos, JavaType } from "./syntax.ts";

const CLASS_KINDS: Record<string, JavaClass["kind"]> = {
  class_declaration: "class",
  interface_declaration: "interface",
  enum_declaration: "enum",
  record_declaration: "record",
  annotation_type_declaration: "annotation",
};

export function parseJava(parser: Parser, text: string, file: string): { unit: CompilationUnit; problems: ModelProblem[] } {
  const tree = parser.parse(text);
  if (!tree) throw new Error(`tree-sitter could not parse ${file}`);
  const root = tree.rootNode;
  const at = (n: Node): JavaPos => ({ file, line: n.startPosition.row + 1, column: n.startPosition.column + 1 });
  const problems: ModelProblem[] = [];
  if (root.hasError) {
    const bad = firstError(root);
    if (bad) {
      const p = at(bad);
      const near = bad.text.split("\n")[0]!.slice(0, 40);
      problems.push({
        file,
        line: p.line,
        column: p.column,
        message: bad.isMissing ? `Java syntax error: missing ${bad.type}` : `Java syntax error near "${near}"`,
      });
    }
  }

  const unit: CompilationUnit = { file, package: "", imports: [], classes: [] };
  for (const n of named(root)) {
    if (n.type === "package_declaration") unit.package = named(n).find((c) => c.type.endsWith("identifier"))?.text ?? "";
    else if (n.type === "import_declaration") unit.imports.push(importOf(n));
    else if (CLASS_KINDS[n.type]) unit.classes.push(classOf(n));
  }
  tree.delete();
  return { unit, problems };

  function classOf(n: Node): JavaClass {
    const mods = modifiersOf(n);
    const body = n.childForFieldName("body");
    const cls: JavaClass = {
      kind: CLASS_KINDS[n.type]!,
      name: n.childForFieldName("name")?.text ?? "",
      modifiers: mods.modifiers,
      annotations: mods.annotations,
      typeParameters: named(n.childForFieldName("type_parameters")).map((t) => named(t)[0]?.text ?? t.text),
      fields: [],
      getters: [],
      constants: [],
      constantValues: new Map(),
      nested: [],
      at: at(n.childForFieldName("name") ?? n),
    };
    const superclass = n.childForFieldName("superclass");
    if (superclass) {
      const t = named(superclass)[0];
      if (t) cls.superclass = typeOf(t);
    }
    // A record's components are its fields (final, but what the record is made of: persistent).
    if (cls.kind === "record") {
      for (const p of named(n.childForFieldName("parameters"))) {
        const type = p.childForFieldName("type");
        const name = p.childForFieldName("name");
        if (type && name) cls.fields.push({ name: name.text, type: typeOf(type), modifiers: new Set(), annotations: modifiersOf(p).annotations, at: at(name) });
      }
    }
    const members = body ? named(body) : [];
    // An enum's body holds its constants, then an enum_body_declarations node with the members.
    const declarations = members.flatMap((m) => (m.type === "enum_body_declarations" ? named(m) : [m]));
    for (const m of declarations) {
      if (m.type === "enum_constant") cls.constants.push(m.childForFieldName("name")?.text ?? "");
      else if (m.type === "field_declaration" || m.type === "constant_declaration") fieldsOf(m, cls);
      else if (m.type === "method_declaration") getterOf(m, cls);
      else if (CLASS_KINDS[m.type]) cls.nested.push(classOf(m));
    }
    return cls;
  }

  function fieldsOf(n: Node, cls: JavaClass): void {
    const { modifiers, annotations } = modifiersOf(n);
    const typeNode = n.childForFieldName("type");
    if (!typeNode) return;
    const type = typeOf(typeNode);
    // Interface constants are implicitly static final.
    if (cls.kind === "interface" || cls.kind === "annotation") modifiers.add("static").add("final");
    for (const d of n.childrenForFieldName("declarator")) {
      if (!d) continue;
      const name = d.childForFieldName("name");
      if (!name) continue;
      const extraDims = named(d)
        .filter((c) => c.type === "dimensions")
        .reduce((k, c) => k + dimsOf(c), 0);
      const member: JavaMember = { name: name.text, type: extraDims ? { ...type, dims: type.dims + extraDims } : type, modifiers, annotations, at: at(name) };
      const value = d.childForFieldName("value");
      if (modifiers.has("static")) {
        if (modifiers.has("final") && value) cls.constantValues.set(name.text, valueOf(value));
        continue;
      }
      cls.fields.push(member);
    }
  }

  function getterOf(n: Node, cls: JavaClass): void {
    const name = n.childForFieldName("name")?.text ?? "";
    const m = /^(?:get|is)([A-Z].*)$/.exec(name);
    const typeNode = n.childForFieldName("type");
    if (!m || !typeNode || typeNode.type === "void_type" || named(n.childForFieldName("parameters")).length) return;
    const { modifiers, annotations } = modifiersOf(n);
    if (modifiers.has("static")) return;
    const property = m[1]!.charAt(0).toLowerCase() + m[1]!.slice(1);
    cls.getters.push({ name: property, type: typeOf(typeNode), modifiers, annotations, at: at(n.childForFieldName("name")!) });
  }

  function modifiersOf(n: Node): { modifiers: Set<string>; annotations: JavaAnnotation[] } {
    const modifiers = new Set<string>();
    const annotations: JavaAnnotation[] = [];
    const mods = named(n).find((c) => c.type === "modifiers");
    if (!mods) return { modifiers, annotations };
    for (const c of mods.children) {
      if (!c) continue;
      if (c.type === "annotation" || c.type === "marker_annotation") annotations.push(annotationOf(c));
      else if (!c.type.endsWith("comment")) modifiers.add(c.text);
    }
    return { modifiers, annotations };
  }

  function annotationOf(n: Node): JavaAnnotation {
    const elements = new Map<string, ElementValue>();
    for (const a of named(n.childForFieldName("arguments"))) {
      if (a.type === "element_value_pair") {
        const key = a.childForFieldName("key")?.text;
        const value = a.childForFieldName("value");
        if (key && value) elements.set(key, valueOf(value));
      } else if (!a.type.endsWith("comment")) elements.set("value", valueOf(a));
    }
    return { name: n.childForFieldName("name")?.text ?? "", elements, at: at(n) };
  }

  function valueOf(n: Node): ElementValue {
    const where = at(n);
    switch (n.type) {
      case "string_literal":
        return { kind: "literal", value: stringValue(n), at: where };
      case "character_literal":
        return { kind: "literal", value: unescape(n.text.slice(1, -1)), at: where };
      case "decimal_integer_literal":
      case "hex_integer_literal":
      case "octal_integer_literal":
      case "binary_integer_literal":
        return { kind: "literal", value: Number(n.text.replace(/[lL_]/g, "").replace(/^0([0-7]+)$/, "0o$1")), at: where };
      case "decimal_floating_point_literal":
        return { kind: "literal", value: Number(n.text.replace(/[fFdD_]$/g, "").replace(/_/g, "")), at: where };
      case "true":
      case "false":
        return { kind: "literal", value: n.type === "true", at: where };
      case "null_literal":
        return { kind: "literal", value: null, at: where };
      case "identifier":
      case "field_access":
      case "scoped_identifier":
        return { kind: "name", name: n.text.replace(/\s+/g, ""), at: where };
      case "class_literal":
        return { kind: "class", type: typeOf(named(n)[0]!), at: where };
      case "element_value_array_initializer":
      case "array_initializer":
        return {
          kind: "array",
          items: named(n)
            .filter((c) => !c.type.endsWith("comment"))
            .map(valueOf),
          at: where,
        };
      case "annotation":
      case "marker_annotation":
        return { kind: "annotation", annotation: annotationOf(n), at: where };
      case "parenthesized_expression":
        return valueOf(named(n)[0]!);
      case "binary_expression":
        if (n.childForFieldName("operator")?.text === "+") {
          return { kind: "concat", parts: [valueOf(n.childForFieldName("left")!), valueOf(n.childForFieldName("right")!)], at: where };
        }
        return { kind: "unsupported", text: n.text, at: where };
      case "unary_expression":
        if (n.childForFieldName("operator")?.text === "-") {
          const inner = valueOf(n.childForFieldName("operand")!);
          if (inner.kind === "literal" && typeof inner.value === "number") return { ...inner, value: -inner.value, at: where };
        }
        return { kind: "unsupported", text: n.text, at: where };
      default:
        return { kind: "unsupported", text: n.text, at: where };
    }
  }

  function typeOf(n: Node): JavaType {
    const where = at(n);
    switch (n.type) {
      case "array_type": {
        const element = typeOf(n.childForFieldName("element")!);
        return { ...element, dims: element.dims + dimsOf(n.childForFieldName("dimensions")!), at: where };
      }
      case "generic_type": {
        const [base, args] = named(n);
        const baseType = typeOf(base!);
        return { ...baseType, args: named(args ?? null).map(typeOf), at: where };
      }
      case "annotated_type":
        return typeOf(
          named(n)
            .filter((c) => c.type !== "annotation" && c.type !== "marker_annotation")
            .at(-1)!,
        );
      case "wildcard": {
        // `? extends X` reads as X; a bare `?` as Object.
        const bound = named(n)
          .filter((c) => c.type !== "annotation" && c.type !== "marker_annotation")
          .at(-1);
        return bound ? typeOf(bound) : { name: "java.lang.Object", args: [], dims: 0, at: where };
      }
      case "scoped_type_identifier": {
        // Annotations inside a qualified type (`java.util.@NonNull List`) are not part of its name.
        const parts = named(n).filter((c) => c.type !== "annotation" && c.type !== "marker_annotation");
        const outer = parts.slice(0, -1).map((p) => typeOf(p));
        const inner = parts.at(-1)!.text;
        return { name: [...outer.map((o) => o.name), inner].join("."), args: outer.at(-1)?.args ?? [], dims: 0, at: where };
      }
      default:
        return { name: n.text, args: [], dims: 0, at: where };
    }
  }
}

function stringValue(n: Node): string {
  if (n.text.startsWith('"""')) return textBlock(n.text.slice(3, -3));
  return unescape(n.text.slice(1, -1));
}

/** A text block's content as Java reads it: the incidental indentation (the least of its lines') removed. */
function textBlock(body: string): string {
  const lines = body.replace(/^[^\n]*\n/, "").split("\n");
  const indents = lines.filter((l, i) => l.trim() || i === lines.length - 1).map((l) => /^[ \t]*/.exec(l)![0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return unescape(lines.map((l) => l.slice(cut).replace(/[ \t]+$/, "")).join("\n"));
}

function unescape(s: string): string {
  return s.replace(/\\(u+[0-9a-fA-F]{4}|[0-7]{1,3}|.)/g, (_, e: string) => {
    if (e.startsWith("u")) return String.fromCharCode(parseInt(e.replace(/^u+/, ""), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return ({ n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", s: " " } as Record<string, string>)[e] ?? e;
  });
}

function dimsOf(n: Node): number {
  return (n.text.match(/\[/g) ?? []).length;
}

function importOf(n: Node): JavaImport {
  const text = n.text.replace(/\s+/g, " ");
  const isStatic = /^import static /.test(text);
  const name = named(n).find((c) => c.type.endsWith("identifier"))?.text ?? "";
  return { name, onDemand: named(n).some((c) => c.type === "asterisk"), isStatic };
}

function named(n: Node | null | undefined): Node[] {
  return n ? n.namedChildren.filter((c): c is Node => c !== null) : [];
}

function firstError(n: Node): Node | undefined {
  if (n.isError || n.isMissing) return n;
  for (const c of n.children) {
    if (c && (c.hasError || c.isMissing || c.isError)) {
      const found = firstError(c);
      if (found) return found;
    }
  }
  return undefined;
}
