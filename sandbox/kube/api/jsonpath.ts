/**
 * The simple JSONPath of CRD printer columns and scale subresource paths: `.spec.a.b`,
 * `.items[0].x`, `.spec.containers[*].image`, `.metadata.labels.app\.kubernetes\.io/name`,
 * `.metadata.labels['app.kubernetes.io/name']`, simple filters such as
 * `.status.conditions[?(@.type=="Ready")].status` (`==` / `!=` against a string or number, which
 * printer columns of Karpenter and cert-manager use), optionally wrapped in `{…}` or starting with `$`.
 * Returns every value the path reaches, in document order (empty when it reaches nothing).
 */
export function jsonPathValues(obj: unknown, path: string): unknown[] {
  let values: unknown[] = [obj];
  for (const seg of segments(path)) {
    const next: unknown[] = [];
    for (const v of values) {
      if (typeof seg === 'object') {
        if (Array.isArray(v)) next.push(...v.filter((item) => filterMatches(item, seg)));
      } else if (seg === '*') {
        if (Array.isArray(v)) next.push(...v);
        else if (v && typeof v === 'object') next.push(...Object.values(v));
      } else if (typeof seg === 'number') {
        if (Array.isArray(v) && v[seg < 0 ? v.length + seg : seg] !== undefined)
          next.push(v[seg < 0 ? v.length + seg : seg]);
      } else if (v && typeof v === 'object' && !Array.isArray(v) && (v as Record<string, unknown>)[seg] !== undefined) {
        next.push((v as Record<string, unknown>)[seg]);
      }
    }
    values = next;
  }
  return values;
}

/** The first value a path reaches (what printer columns and scale paths use). */
export const jsonPathValue = (obj: unknown, path: string): unknown => jsonPathValues(obj, path)[0];

/** `[?(@.a.b=="x")]`: keep the array items whose `a.b` equals (or, with `!=`, differs from) the literal. */
interface Filter {
  path: string;
  op: '==' | '!=';
  value: string;
}

function filterMatches(item: unknown, f: Filter): boolean {
  const found = jsonPathValues(item, f.path);
  const equal = found.length > 0 && String(found[0]) === f.value;
  return f.op === '==' ? equal : found.length > 0 && !equal;
}

type Segment = string | number | '*' | Filter;

function segments(path: string): Segment[] {
  const text = path
    .trim()
    .replace(/^\{(.*)\}$/s, '$1')
    .replace(/^\$/, '');
  const out: Segment[] = [];
  const re =
    /\.((?:\\.|[^.[\]\\])+)|\[(-?\d+|\*)\]|\[['"]([^'"]+)['"]\]|\[\?\(@((?:\.[\w\-/\\.]+?)+)\s*(==|!=)\s*(?:"([^"]*)"|'([^']*)'|([^)\s]+))\s*\)\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    if (m[1] !== undefined) out.push(m[1] === '*' ? '*' : m[1].replace(/\\(.)/g, '$1'));
    else if (m[2] !== undefined) out.push(m[2] === '*' ? '*' : Number(m[2]));
    else if (m[3] !== undefined) out.push(m[3]);
    else out.push({ path: m[4]!, op: m[5] as Filter['op'], value: m[6] ?? m[7] ?? m[8]! });
  }
  return out;
}

/** Sets a value at a simple dotted path (`.spec.replicas`), creating objects on the way. */
export function setJsonPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const segs = segments(path).filter((s): s is string => typeof s === 'string' && s !== '*');
  let node = obj;
  for (const s of segs.slice(0, -1)) {
    if (!node[s] || typeof node[s] !== 'object') node[s] = {};
    node = node[s] as Record<string, unknown>;
  }
  node[segs[segs.length - 1]!] = value;
}
