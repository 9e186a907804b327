import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { malformedXml } from './errors.js';

/**
 * Request documents (DeleteObjects, CompleteMultipartUpload, CreateBucketConfiguration, Tagging).
 * Values are kept as sent — untrimmed and unparsed — because object keys may start or end with
 * spaces and look like numbers.
 */
const REPEATED = new Set(['Object', 'Part', 'Tag']);

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: false,
  removeNSPrefix: true,
  htmlEntities: true,
  isArray: (name) => REPEATED.has(name),
});

export type XmlNode = { [name: string]: XmlNode | XmlNode[] | string | string[] | undefined };

/** Parses `body` and returns its root element; a missing or different root is MalformedXML. */
export function parseXmlBody(body: Buffer, root: string): XmlNode {
  const text = body.toString('utf8');
  if (text.trim() === '' || XMLValidator.validate(text) !== true) throw malformedXml();
  const doc = parser.parse(text) as Record<string, unknown>;
  const node = doc[root];
  if (node === undefined) throw malformedXml();
  // `<Root/>` and `<Root></Root>` parse as an empty string: treat as an element with no children.
  return typeof node === 'object' && node !== null ? (node as XmlNode) : {};
}

/** The text of a leaf child (untrimmed); undefined when absent; MalformedXML when it has children. */
export function childText(node: XmlNode, name: string): string | undefined {
  const value = node[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw malformedXml();
  return value;
}

export function childNodes(node: XmlNode, name: string): XmlNode[] {
  const value = node[name];
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((v) => (typeof v === 'string' ? {} : (v as XmlNode)));
}

export function childNode(node: XmlNode, name: string): XmlNode | undefined {
  const value = node[name];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw malformedXml();
  return typeof value === 'string' ? {} : value;
}
