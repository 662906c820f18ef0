/**
 * The XML of WebDAV bodies: a strict, namespace-aware parse (saxes) into small element trees, and the writing of
 * answers. Namespaces are resolved at parse time, so `<D:prop xmlns:D="DAV:">` and `<prop xmlns="DAV:">` read alike;
 * no DTD entity is ever expanded (saxes defines none), so a body cannot grow in memory beyond its bytes.
 */
import { SaxesParser } from 'saxes';
import { HttpError } from '../http/errors.js';

export const DAV = 'DAV:';

export interface XmlElement {
  ns: string;
  local: string;
  /** Attributes other than namespace declarations, by namespace and local name. */
  attrs: { ns: string; local: string; value: string }[];
  children: (XmlElement | string)[];
}

/** Bodies nest no deeper than this: a property value a client means to keep has no need of more. */
const MAX_DEPTH = 64;

/** A 400 for a body that is not well-formed XML or not what the method takes. */
export const badXml = (why: string) => new HttpError(400, 'invalid_argument', `The XML body is not valid: ${why}`);

/** Parses a whole body; throws badXml on anything that is not well-formed, namespace-correct XML. */
export function parseXml(text: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true, position: false });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let failure: Error | null = null;
  parser.on('error', (err) => {
    failure ??= err;
  });
  parser.on('opentag', (tag) => {
    if (stack.length >= MAX_DEPTH) {
      failure ??= new Error('nested too deeply');
      return;
    }
    const attrs = Object.values(tag.attributes as Record<string, { uri: string; local: string; prefix: string; value: string }>)
      .filter((a) => a.prefix !== 'xmlns' && !(a.prefix === '' && a.local === 'xmlns'))
      .map((a) => ({ ns: a.uri, local: a.local, value: a.value }));
    const el: XmlElement = { ns: tag.uri ?? '', local: tag.local ?? tag.name, attrs, children: [] };
    if (stack.length) stack[stack.length - 1]!.children.push(el);
    else if (root) failure ??= new Error('more than one root element');
    else root = el;
    stack.push(el);
  });
  parser.on('closetag', () => void stack.pop());
  const onText = (t: string) => {
    if (stack.length) stack[stack.length - 1]!.children.push(t);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  try {
    parser.write(text).close();
  } catch (err) {
    failure ??= err as Error;
  }
  if (failure) throw badXml((failure as Error).message.split('\n')[0]!.slice(0, 200));
  if (!root) throw badXml('there is no root element');
  return root;
}

/** The child elements of `el` (text between them dropped). */
export const elements = (el: XmlElement): XmlElement[] => el.children.filter((c): c is XmlElement => typeof c !== 'string');

/** Whether `el` is `{ns}local`. */
export const is = (el: XmlElement, ns: string, local: string) => el.ns === ns && el.local === local;

/** The first child `{ns}local` of `el`. */
export const child = (el: XmlElement, ns: string, local: string) => elements(el).find((c) => is(c, ns, local));

/** The text inside `el`, all levels joined. */
export const textOf = (el: XmlElement): string => el.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');

export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/**
 * Writes an element with every namespace it uses declared where it is used, so it stands alone inside any answer:
 * the default namespace for elements, a prefix of its own for each attribute namespace.
 */
export function writeElement(el: XmlElement, inheritedDefault = '\u0000'): string {
  let decl = el.ns === inheritedDefault ? '' : ` xmlns="${escapeXml(el.ns)}"`;
  const attrs = el.attrs
    .map((a, i) => {
      if (!a.ns) return ` ${a.local}="${escapeXml(a.value)}"`;
      if (a.ns === 'http://www.w3.org/XML/1998/namespace') return ` xml:${a.local}="${escapeXml(a.value)}"`;
      decl += ` xmlns:a${i}="${escapeXml(a.ns)}"`;
      return ` a${i}:${a.local}="${escapeXml(a.value)}"`;
    })
    .join('');
  const inner = el.children.map((c) => (typeof c === 'string' ? escapeXml(c) : writeElement(c, el.ns))).join('');
  return inner ? `<${el.local}${decl}${attrs}>${inner}</${el.local}>` : `<${el.local}${decl}${attrs}/>`;
}

/** An empty element naming a property `{ns}local`, for answers that list names only. */
export const emptyElement = (ns: string, local: string) => writeElement({ ns, local, attrs: [], children: [] });

export const XML_HEAD = '<?xml version="1.0" encoding="utf-8"?>\n';
