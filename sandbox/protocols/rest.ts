import type { RestRoute } from '../core/service.js';

/** Matches a REST route template (`/clusters/{name}/addons/{addonName}`) against a raw path. */
export function matchRoute(
  routes: RestRoute[],
  method: string,
  rawPath: string,
): { route: RestRoute; labels: Record<string, string> } | { methodMismatch: true } | undefined {
  const segments = splitPath(rawPath);
  let pathMatched = false;
  for (const route of routes) {
    const template = splitPath(route.path);
    if (template.length !== segments.length) continue;
    const labels: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < template.length; i++) {
      const t = template[i]!;
      const s = segments[i]!;
      if (t.startsWith('{') && t.endsWith('}')) {
        if (s === '') {
          ok = false;
          break;
        }
        labels[t.slice(1, -1)] = safeDecode(s);
      } else if (t !== s) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    pathMatched = true;
    if (route.method === method) return { route, labels };
  }
  return pathMatched ? { methodMismatch: true } : undefined;
}

function splitPath(path: string): string[] {
  return path.replace(/^\/+|\/+$/g, '').split('/');
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Maps query parameters onto input members, as the route declares. Repeated list params become arrays. */
export function routeQueryInput(route: RestRoute, query: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [param, member] of Object.entries(route.query ?? {})) {
    const values = query.getAll(param);
    if (values.length === 0) continue;
    out[member] = route.listQuery?.includes(param) ? values.flatMap((v) => v.split(',')) : values[0];
  }
  return out;
}
