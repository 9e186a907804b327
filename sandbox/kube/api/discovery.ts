import { createHash } from 'node:crypto';
import type { KubeCluster } from '../cluster.js';
import { apiVersionOf, type ResourceType } from '../types.js';
import type { SimpleResponse } from './http.js';
import { openApiDocument } from './openapi.js';

/**
 * `/version`, `/api`, `/api/v1`, `/apis`, `/apis/<group>`, `/apis/<group>/<version>` (legacy and,
 * when the Accept header asks for it, aggregated discovery `apidiscovery.k8s.io/v2`),
 * `/openapi/v2`, `/openapi/v3`, `/openapi/v3/<path>`. Undefined when `path` is none of them.
 *
 * Groups and versions come from `cluster.types()`: the built-in kinds and every served version of
 * every established CRD, so a CRD's resources appear as soon as it is established.
 */
export function handleDiscovery(cluster: KubeCluster, path: string, accept: string): SimpleResponse | undefined {
  const p = path.replace(/\/+$/, '') || '/';
  if (p === '/version') return json(versionInfo(cluster));
  if (p === '/openapi/v2' || p === '/openapi/v3' || p.startsWith('/openapi/v3/'))
    return openApiDocument(cluster, p, accept);
  const types = cluster.types();
  if (p === '/api' || p === '/apis') {
    const aggregated = aggregatedVersion(accept);
    const groups = p === '/api' ? types.filter((t) => t.group === '') : types.filter((t) => t.group !== '');
    if (aggregated) return aggregatedList(groups, aggregated);
    if (p === '/api')
      return json({
        kind: 'APIVersions',
        versions: ['v1'],
        serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }],
      });
    return json({ kind: 'APIGroupList', apiVersion: 'v1', groups: groupsOf(groups) });
  }
  const core = /^\/api\/([^/]+)$/.exec(p);
  if (core) return resourceList(types, '', core[1]!);
  const group = /^\/apis\/([^/]+)$/.exec(p);
  if (group) {
    const found = groupsOf(types).find((g) => g.name === group[1]);
    return found ? json({ kind: 'APIGroup', apiVersion: 'v1', ...found }) : undefined;
  }
  const gv = /^\/apis\/([^/]+)\/([^/]+)$/.exec(p);
  if (gv) return resourceList(types, gv[1]!, gv[2]!);
  return undefined;
}

function json(body: unknown, contentType = 'application/json'): SimpleResponse {
  const text = JSON.stringify(body);
  return {
    status: 200,
    headers: {
      'content-type': contentType,
      'cache-control': 'no-cache, private',
      vary: 'Accept',
      etag: `"${createHash('sha256').update(text).digest('hex').slice(0, 32)}"`,
    },
    body: text,
  };
}

function versionInfo(cluster: KubeCluster): Record<string, string> {
  const version = cluster.kubernetesVersion ?? '1.35';
  const [major = '1', minor = '35'] = version.split('.');
  // EKS reports `v<major>.<minor>.<patch>-eks-<build>`; the build part is stable per version here.
  const build = createHash('sha1').update(version).digest('hex').slice(0, 7);
  return {
    major,
    minor: `${minor}+`,
    emulationMajor: major,
    emulationMinor: minor,
    gitVersion: `v${major}.${minor}.0-eks-${build}`,
    gitCommit: createHash('sha1').update(`eks-${version}`).digest('hex'),
    gitTreeState: 'clean',
    buildDate: '2026-01-01T00:00:00Z',
    goVersion: 'go1.24.9',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

/** Kubernetes version order: GA before beta before alpha, higher numbers first (v2 > v1 > v1beta2 > v1beta1 > v1alpha1). */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    return m
      ? { major: Number(m[1]), level: m[2] === 'alpha' ? 0 : m[2] === 'beta' ? 1 : 2, minor: Number(m[3] ?? 0) }
      : undefined;
  };
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) return x ? -1 : y ? 1 : a.localeCompare(b);
  return y.level - x.level || y.major - x.major || y.minor - x.minor;
}

/** group → its versions, preferred first, in the order the groups' types come. */
function versionsByGroup(types: ResourceType[]): Map<string, string[]> {
  const byGroup = new Map<string, string[]>();
  for (const t of types) {
    const versions = byGroup.get(t.group) ?? [];
    if (!versions.includes(t.version)) versions.push(t.version);
    byGroup.set(t.group, versions);
  }
  for (const versions of byGroup.values()) versions.sort(compareVersions);
  return byGroup;
}

interface GroupVersion {
  groupVersion: string;
  version: string;
}

function groupsOf(
  types: ResourceType[],
): Array<{ name: string; versions: GroupVersion[]; preferredVersion: GroupVersion }> {
  return [...versionsByGroup(types.filter((t) => t.group !== ''))].map(([name, versions]) => {
    const list = versions.map((version) => ({ groupVersion: `${name}/${version}`, version }));
    return { name, versions: list, preferredVersion: list[0]! };
  });
}

interface Subresource {
  name: string;
  kind: { group: string; version: string; kind: string };
  verbs: string[];
}

function subresourcesOf(t: ResourceType): Subresource[] {
  const own = { group: t.group, version: t.version, kind: t.kind };
  const out: Subresource[] = [];
  if (t.subresources?.status) out.push({ name: 'status', kind: own, verbs: ['get', 'patch', 'update'] });
  if (t.subresources?.scale)
    out.push({
      name: 'scale',
      kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      verbs: ['get', 'patch', 'update'],
    });
  if (t.subresources?.log) out.push({ name: 'log', kind: own, verbs: ['get'] });
  return out;
}

function resourceList(all: ResourceType[], group: string, version: string): SimpleResponse | undefined {
  const types = all.filter((t) => t.group === group && t.version === version);
  if (types.length === 0) return undefined;
  const resources: Record<string, unknown>[] = [];
  for (const t of types) {
    resources.push({
      name: t.resource,
      singularName: t.singular,
      namespaced: t.namespaced,
      kind: t.kind,
      verbs: t.verbs,
      ...(t.shortNames?.length ? { shortNames: t.shortNames } : {}),
      ...(t.categories?.length ? { categories: t.categories } : {}),
    });
    for (const s of subresourcesOf(t)) {
      const other = s.kind.group !== t.group || s.kind.version !== t.version;
      resources.push({
        name: `${t.resource}/${s.name}`,
        singularName: '',
        namespaced: t.namespaced,
        ...(other ? { group: s.kind.group, version: s.kind.version } : {}),
        kind: s.kind.kind,
        verbs: s.verbs,
      });
    }
  }
  return json({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf({ group, version }), resources });
}

/** The aggregated discovery version the client asks for first (kubectl: v2, then v2beta1, then plain JSON). */
export function aggregatedVersion(accept: string): 'v2' | 'v2beta1' | undefined {
  for (const entry of accept.split(',')) {
    const [media, ...rest] = entry.split(';').map((s) => s.trim());
    if (media !== 'application/json' && media !== '*/*' && media !== 'application/*') continue;
    const params = Object.fromEntries(rest.map((kv) => kv.split('=').map((s) => s.trim())));
    if (params.g === undefined && params.as === undefined) return undefined;
    if (
      params.g === 'apidiscovery.k8s.io' &&
      params.as === 'APIGroupDiscoveryList' &&
      (params.v === 'v2' || params.v === 'v2beta1')
    )
      return params.v;
  }
  return undefined;
}

function aggregatedList(types: ResourceType[], version: 'v2' | 'v2beta1'): SimpleResponse {
  const items = [...versionsByGroup(types)].map(([group, versions]) => ({
    metadata: { ...(group ? { name: group } : {}), creationTimestamp: null },
    versions: versions.map((v) => ({
      version: v,
      resources: types.filter((t) => t.group === group && t.version === v).map(resourceDiscovery),
      freshness: 'Current',
    })),
  }));
  return json(
    { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {}, items },
    `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`,
  );
}

function resourceDiscovery(t: ResourceType): Record<string, unknown> {
  const subresources = subresourcesOf(t).map((s) => ({ subresource: s.name, responseKind: s.kind, verbs: s.verbs }));
  return {
    resource: t.resource,
    responseKind: { group: t.group, version: t.version, kind: t.kind },
    scope: t.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: t.singular,
    verbs: t.verbs,
    ...(t.shortNames?.length ? { shortNames: t.shortNames } : {}),
    ...(t.categories?.length ? { categories: t.categories } : {}),
    ...(subresources.length ? { subresources } : {}),
  };
}
