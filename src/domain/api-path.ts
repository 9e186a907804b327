/** The `{name}` parameters of a path template, as a union of their names. */
export type PathParams<T extends string> = T extends `${string}{${infer P}}${infer Rest}`
  ? P | PathParams<Rest>
  : never;

/**
 * Fills a REST path template (`/api/v1/clusters/{name}`) with percent-encoded values. Each capability
 * writes its URLs once, in its paths.ts; the routes register the templates, and the MCP tools and the UI
 * fill them here, so the three faces cannot drift apart.
 *
 * @example
 * apiPath('/api/v1/clusters/{name}/nodes/{nodeId}', { name: 'demo', nodeId: 'i-0abc' }) //
 * '/api/v1/clusters/demo/nodes/i-0abc'
 */
export function apiPath<T extends string>(
  template: T,
  ...[params]: PathParams<T> extends never ? [] : [Record<PathParams<T>, string>]
): string {
  const values: Readonly<Record<string, string>> = params ?? {};
  return template.replace(/\{(\w+)\}/g, (_, key: string) => {
    // Keys come from our templates, values from callers: read own properties only.
    if (!Object.hasOwn(values, key)) throw new Error(`${template} needs a value for {${key}}.`);
    return encodeURIComponent(values[key]!);
  });
}
