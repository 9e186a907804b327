import { badRequest } from '../errors.js';
import type { KubeObject, ResourceType } from '../types.js';

/**
 * Label selectors (`a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`) and field
 * selectors (`=`, `==`, `!=` over the fields each kind supports), as list, watch and
 * deletecollection take them.
 */
export type Matcher = (obj: KubeObject) => boolean;

/** The objects a request's `labelSelector` and `fieldSelector` pick (malformed → 400). */
export function objectMatcher(type: ResourceType, query: URLSearchParams): Matcher {
  const labels = labelSelector(query.get('labelSelector'));
  const fields = fieldSelector(type, query.get('fieldSelector'));
  return (o) => labels(o) && fields(o);
}

export const hasSelectors = (query: URLSearchParams): boolean =>
  Boolean(query.get('labelSelector') || query.get('fieldSelector'));

export function labelSelector(text: string | null): Matcher {
  if (!text?.trim()) return () => true;
  const terms = splitTerms(text).map(parseLabelTerm);
  return (obj) => {
    const labels = obj.metadata.labels ?? {};
    return terms.every((t) => t(labels));
  };
}

/** Splits on commas outside parentheses (`a in (x,y),b` → two terms). */
function splitTerms(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  out.push(cur.trim());
  return out;
}

const KEY = String.raw`[A-Za-z0-9][\w./-]*`;
const VALUE = String.raw`[\w.-]*`;

function parseLabelTerm(term: string): (labels: Record<string, string>) => boolean {
  let m = new RegExp(`^(${KEY})\\s+(in|notin)\\s*\\(([^)]*)\\)$`).exec(term);
  if (m) {
    const key = m[1]!;
    const values = m[3]!.split(',').map((v) => v.trim());
    if (values.some((v) => !new RegExp(`^${VALUE}$`).test(v))) throw unparsable(term);
    return m[2] === 'in'
      ? (l) => Object.hasOwn(l, key) && values.includes(l[key]!)
      : (l) => !Object.hasOwn(l, key) || !values.includes(l[key]!);
  }
  m = new RegExp(`^(${KEY})\\s*(==|=|!=)\\s*(${VALUE})$`).exec(term);
  if (m) {
    const [, key, op, value] = m as unknown as [string, string, string, string];
    return op === '!=' ? (l) => l[key] !== value : (l) => l[key] === value;
  }
  m = new RegExp(`^(!?)\\s*(${KEY})$`).exec(term);
  if (m) {
    const key = m[2]!;
    return m[1] ? (l) => !Object.hasOwn(l, key) : (l) => Object.hasOwn(l, key);
  }
  throw unparsable(term);
}

const unparsable = (term: string) =>
  badRequest(`unable to parse requirement: found '${term}', expected: a valid label selector`);

type Field = (o: KubeObject) => unknown;
const at =
  (...path: string[]): Field =>
  (o) =>
    path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), o);

const COMMON: Record<string, Field> = {
  'metadata.name': at('metadata', 'name'),
  'metadata.namespace': at('metadata', 'namespace'),
};

/** The field selectors each built-in kind supports (kube-apiserver's field label conversions). */
const BY_KIND: Record<string, Record<string, Field>> = {
  'core/pods': {
    'spec.nodeName': at('spec', 'nodeName'),
    'spec.restartPolicy': at('spec', 'restartPolicy'),
    'spec.schedulerName': at('spec', 'schedulerName'),
    'spec.serviceAccountName': at('spec', 'serviceAccountName'),
    'spec.hostNetwork': (o) => String(at('spec', 'hostNetwork')(o) ?? false),
    'status.phase': at('status', 'phase'),
    'status.podIP': at('status', 'podIP'),
    'status.nominatedNodeName': at('status', 'nominatedNodeName'),
  },
  'core/nodes': { 'spec.unschedulable': (o) => String(at('spec', 'unschedulable')(o) ?? false) },
  'core/namespaces': { 'status.phase': at('status', 'phase') },
  'core/secrets': { type: at('type') },
  'core/events': {
    'involvedObject.kind': at('involvedObject', 'kind'),
    'involvedObject.namespace': at('involvedObject', 'namespace'),
    'involvedObject.name': at('involvedObject', 'name'),
    'involvedObject.uid': at('involvedObject', 'uid'),
    'involvedObject.apiVersion': at('involvedObject', 'apiVersion'),
    'involvedObject.resourceVersion': at('involvedObject', 'resourceVersion'),
    'involvedObject.fieldPath': at('involvedObject', 'fieldPath'),
    reason: at('reason'),
    reportingComponent: at('reportingComponent'),
    source: at('source', 'component'),
    type: at('type'),
  },
  'apps/replicasets': { 'status.replicas': (o) => String(at('status', 'replicas')(o) ?? 0) },
  'batch/jobs': { 'status.successful': (o) => String(at('status', 'succeeded')(o) ?? 0) },
};

export function fieldSelector(type: ResourceType, text: string | null): Matcher {
  if (!text?.trim()) return () => true;
  const fields = { ...COMMON, ...(BY_KIND[`${type.group || 'core'}/${type.resource}`] ?? {}) };
  const terms = text.split(',').map((term) => {
    const m = /^\s*([\w.]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(term);
    if (!m) throw badRequest(`invalid selector: '${text}'; can't understand '${term}'`);
    const [, field, op, value] = m as unknown as [string, string, string, string];
    const get = fields[field];
    if (!get) throw badRequest(`field label not supported: ${field}`);
    const matches = (o: KubeObject) => String(get(o) ?? '') === value;
    return op === '!=' ? (o: KubeObject) => !matches(o) : matches;
  });
  return (o) => terms.every((t) => t(o));
}

/** metav1.LabelSelectorAsSelector(…).String(): requirements sorted by key. */
export function labelSelectorString(sel: Record<string, any> | undefined): string {
  if (!sel) return '';
  const reqs: Array<[string, string]> = Object.entries((sel.matchLabels ?? {}) as Record<string, string>).map(
    ([k, v]) => [k, `${k}=${v}`],
  );
  for (const e of (sel.matchExpressions ?? []) as Array<Record<string, any>>) {
    const values = [...((e.values ?? []) as string[])].sort();
    if (e.operator === 'In' || e.operator === 'NotIn')
      reqs.push([e.key, `${e.key} ${e.operator === 'In' ? 'in' : 'notin'} (${values.join(',')})`]);
    else if (e.operator === 'Exists') reqs.push([e.key, e.key]);
    else if (e.operator === 'DoesNotExist') reqs.push([e.key, `!${e.key}`]);
  }
  return reqs
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([, text]) => text)
    .join(',');
}
