/**
 * A small XML writer for the query and REST-XML protocols. Plain objects become elements, arrays
 * become repeated `<item>` (EC2) or `<member>` (awsQuery) children, and `undefined` is left out, so
 * a handler's result object maps one-to-one onto AWS's documented response shape.
 */
export type XmlValue = string | number | boolean | Date | null | undefined | XmlValue[] | { [key: string]: XmlValue };

export interface XmlOptions {
  /** Element name for list members: `item` for EC2, `member` for awsQuery. */
  listItem: 'item' | 'member';
}

export function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!,
  );
}

function scalar(value: string | number | boolean | Date): string {
  if (value instanceof Date) return value.toISOString();
  return escapeXml(String(value));
}

/**
 * Renders `value` as the content of an element. Keys of the form `#flat:Name` render a list without
 * a wrapper element (S3's flattened lists: repeated `<Contents>`).
 */
export function xmlContent(value: XmlValue, options: XmlOptions): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) {
    return value.map((v) => `<${options.listItem}>${xmlContent(v, options)}</${options.listItem}>`).join('');
  }
  if (typeof value === 'object' && !(value instanceof Date)) {
    let out = '';
    for (const [key, child] of Object.entries(value)) {
      if (child === undefined) continue;
      if (key.startsWith('#flat:')) {
        const name = key.slice('#flat:'.length);
        for (const v of (child as XmlValue[]) ?? []) out += `<${name}>${xmlContent(v, options)}</${name}>`;
        continue;
      }
      out += `<${key}>${xmlContent(child, options)}</${key}>`;
    }
    return out;
  }
  return scalar(value);
}

export function xmlDocument(root: string, value: XmlValue, options: XmlOptions, xmlns?: string): string {
  const ns = xmlns ? ` xmlns="${xmlns}"` : '';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${root}${ns}>${xmlContent(value, options)}</${root}>`;
}
