/**
 * The HTML fragment serialisation algorithm (HTML Standard, "Serializing HTML fragments") as
 * browsers now run it: `<` and `>` are escaped inside attribute values too (whatwg/html#10956,
 * 2025; Chromium 138, Firefox 140). jsdom's serialiser (parse5 7) still writes them raw, so a
 * sanitised card could carry `title="</p><img src=x onerror=…>"`: inert where it was parsed,
 * but the very shape of mutation XSS once another client re-parses it in another context
 * (inside <noscript>, <xmp>, a raw-text element, or a careless string splice). Card html leaves
 * the core through this serialiser, so what any client receives has no raw `<` or `>` except
 * as tag delimiters.
 *
 * Pure: it walks any DOM (jsdom's in the core, the browser's in the renderer) through the few
 * node properties it reads.
 */

/** What the serialiser reads of a node. */
export interface SerialNode {
  nodeType: number;
  nodeName: string;
  nodeValue: string | null;
  childNodes: ArrayLike<SerialNode>;
  /** Elements only. */
  localName?: string | null;
  namespaceURI?: string | null;
  attributes?: ArrayLike<{ name: string; value: string }>;
  /** A <template>'s own fragment. */
  content?: SerialNode;
  /** Processing instructions. */
  target?: string;
}

const ELEMENT = 1;
const TEXT = 3;
const CDATA = 4;
const PROCESSING_INSTRUCTION = 7;
const COMMENT = 8;
const DOCUMENT_TYPE = 10;
const HTML_NS = 'http://www.w3.org/1999/xhtml';

const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'basefont',
  'bgsound',
  'br',
  'col',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/**
 * Text children written as they are. The standard adds <noscript> when scripting is enabled;
 * the core's DOM has scripting off, so its text is escaped, which is also safe for a reader with
 * scripting on (an escaped `&lt;/noscript&gt;` closes nothing).
 */
const RAW_TEXT_PARENTS = new Set(['style', 'script', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);

const ATTRIBUTE_ESCAPES: Record<string, string> = { '&': '&amp;', '\u00a0': '&nbsp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' };
const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '\u00a0': '&nbsp;', '<': '&lt;', '>': '&gt;' };

export function escapeAttributeValue(value: string): string {
  return value.replace(/[&\u00a0"<>]/g, (c) => ATTRIBUTE_ESCAPES[c]!);
}

function escapeText(value: string): string {
  return value.replace(/[&\u00a0<>]/g, (c) => TEXT_ESCAPES[c]!);
}

function tagName(el: SerialNode): string {
  // HTML, SVG and MathML elements are written by their local name; others by their qualified name.
  const ns = el.namespaceURI;
  if (ns === HTML_NS || ns === 'http://www.w3.org/2000/svg' || ns === 'http://www.w3.org/1998/Math/MathML') return el.localName ?? el.nodeName;
  return el.nodeName;
}

function serializeNode(node: SerialNode, parentName: string | undefined, out: string[]): void {
  switch (node.nodeType) {
    case ELEMENT: {
      const name = tagName(node);
      out.push('<', name);
      const attrs = node.attributes ?? [];
      for (let i = 0; i < attrs.length; i++) out.push(' ', attrs[i]!.name, '="', escapeAttributeValue(attrs[i]!.value), '"');
      out.push('>');
      if (node.namespaceURI === HTML_NS && VOID_ELEMENTS.has(name)) return;
      const children = name === 'template' && node.content ? node.content : node;
      serializeChildrenInto(children, name, out);
      out.push('</', name, '>');
      return;
    }
    case TEXT:
    case CDATA: {
      const text = node.nodeValue ?? '';
      out.push(parentName !== undefined && RAW_TEXT_PARENTS.has(parentName) ? text : escapeText(text));
      return;
    }
    case COMMENT:
      out.push('<!--', node.nodeValue ?? '', '-->');
      return;
    case PROCESSING_INSTRUCTION:
      out.push('<?', node.target ?? node.nodeName, ' ', node.nodeValue ?? '', '>');
      return;
    case DOCUMENT_TYPE:
      out.push('<!DOCTYPE ', node.nodeName, '>');
      return;
    default:
      return;
  }
}

function serializeChildrenInto(node: SerialNode, name: string | undefined, out: string[]): void {
  const children = node.childNodes;
  for (let i = 0; i < children.length; i++) serializeNode(children[i]!, name, out);
}

/** The html of a node's children (a fragment's, an element's innerHTML), attribute values escaped as browsers now do. */
export function serializeChildren(node: SerialNode): string {
  const out: string[] = [];
  serializeChildrenInto(node, node.nodeType === ELEMENT ? tagName(node) : undefined, out);
  return out.join('');
}
