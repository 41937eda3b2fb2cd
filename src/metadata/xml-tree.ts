/**
 * A small XML element tree with line numbers, over fast-xml-parser: what every XML reader of
 * Extent (JDO .jdo/.orm, JPA orm.xml, persistence.xml, jdoconfig.xml) walks.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import type { ModelProblem } from "./problems.ts";

/** One XML element: local name (namespace prefixes removed), attributes, child elements, text. */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Concatenated text and CDATA content of the element itself (not of its children), trimmed. */
  text: string;
  /** 1-based line of the element's start tag. */
  line: number;
}

const parser = new XMLParser({
  preserveOrder: true, // document order matters: fields keep the order they are declared in
  ignoreAttributes: false,
  attributeNamePrefix: "",
  removeNSPrefix: true, // namespaces (jdo, orm, persistence, jdoconfig) carry no meaning for us
  parseAttributeValue: false,
  parseTagValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  captureMetaData: true, // start index of each element, turned into a line number below
});
const META = XMLParser.getMetaDataSymbol() as unknown as symbol;

/** Offsets at which each line starts; `\r\n`, `\n` and `\r` all end a line. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 /* \n */ || (c === 13 /* \r */ && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  return starts;
}

function lineAt(starts: number[], index: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

type OrderedNode = Record<string | symbol, unknown>;

function toElements(nodes: unknown, starts: number[]): XmlElement[] {
  const out: XmlElement[] = [];
  if (!Array.isArray(nodes)) return out;
  for (const node of nodes as OrderedNode[]) {
    const name = Object.keys(node).find((k) => k !== ":@" && k !== "#text");
    if (name === undefined) continue;
    const rawAttrs = (node[":@"] ?? {}) as Record<string, unknown>;
    const attrs: Record<string, string> = {};
    for (const [k, v] of Object.entries(rawAttrs)) attrs[k] = String(v).trim();
    const content = node[name];
    const text = Array.isArray(content)
      ? (content as OrderedNode[])
          .map((c) => (typeof c["#text"] === "string" ? c["#text"] : ""))
          .join("")
          .trim()
      : "";
    const meta = node[META] as { startIndex?: number } | undefined;
    out.push({ name, attrs, children: toElements(content, starts), text, line: lineAt(starts, meta?.startIndex ?? 0) });
  }
  return out;
}

/**
 * Parses an XML document into its root element. Malformed XML gives a problem with the line the
 * validator points at (fast-xml-parser's parser itself is lenient, so the validator runs first).
 */
export function parseXmlTree(text: string, file: string): { root?: XmlElement; problems: ModelProblem[] } {
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    return { problems: [{ file, line: valid.err.line, message: `malformed XML: ${valid.err.msg}` }] };
  }
  let nodes: unknown;
  try {
    nodes = parser.parse(text);
  } catch (e) {
    return { problems: [{ file, message: `malformed XML: ${(e as Error).message}` }] };
  }
  const [root, second] = toElements(nodes, lineStarts(text));
  if (!root) return { problems: [{ file, line: 1, message: "the document has no root element" }] };
  // fast-xml-parser accepts several top-level elements; XML allows one.
  if (second) return { problems: [{ file, line: second.line, message: `malformed XML: a second root element <${second.name}> after <${root.name}>` }] };
  return { root, problems: [] };
}

/** Drops keys whose value is undefined, so declarations only carry what the document says. */
export function defined<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}

export function childrenNamed(el: XmlElement, name: string): XmlElement[] {
  return el.children.filter((c) => c.name === name);
}

export function child(el: XmlElement, name: string): XmlElement | undefined {
  return el.children.find((c) => c.name === name);
}

/** Reads attributes of a document's elements, turning every bad value into a problem at its line. */
export class XmlReader {
  readonly problems: ModelProblem[] = [];
  constructor(readonly file: string) {}

  problem(el: XmlElement, message: string, cls?: string, field?: string): void {
    this.problems.push(defined({ file: this.file, line: el.line, class: cls, field, message }));
  }

  /** An attribute restricted to an enumeration; anything else is a problem. */
  oneOf<T extends string>(el: XmlElement, attr: string, allowed: readonly T[], cls?: string, field?: string): T | undefined {
    const v = el.attrs[attr];
    if (v === undefined) return undefined;
    if ((allowed as readonly string[]).includes(v)) return v as T;
    this.problem(el, `<${el.name}> ${attr}="${v}" is not one of ${allowed.join(", ")}`, cls, field);
    return undefined;
  }

  bool(el: XmlElement, attr: string, cls?: string, field?: string): boolean | undefined {
    const v = el.attrs[attr];
    if (v === undefined) return undefined;
    if (v === "true" || v === "false") return v === "true";
    this.problem(el, `<${el.name}> ${attr}="${v}" must be "true" or "false"`, cls, field);
    return undefined;
  }

  int(el: XmlElement, attr: string, cls?: string, field?: string): number | undefined {
    const v = el.attrs[attr];
    if (v === undefined) return undefined;
    if (/^\d+$/.test(v)) return Number(v);
    this.problem(el, `<${el.name}> ${attr}="${v}" must be a non-negative integer`, cls, field);
    return undefined;
  }
}
