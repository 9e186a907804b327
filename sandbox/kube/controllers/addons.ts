import { createHash } from 'node:crypto';
import { defaultAddonVersion, findAddon } from '../../catalog/eks-addons.js';
import type { SandboxState } from '../../core/store.js';
import { listEksAddons } from '../../services/eks/public.js';
import { applyDefaults } from '../api/defaults.js';
import { deleteObject } from '../api/deletion.js';
import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import type { AddonParams } from './addon-builders.js';
import { ADDON_MANIFESTS } from './addon-manifests.js';
import { rfc3339, save, T, type Any } from './util.js';

/**
 * EKS add-ons materialise in the cluster as EKS installs them: once CreateAddon starts, the add-on's
 * objects (addon-manifests.ts) appear labelled `app.kubernetes.io/managed-by: eks` and annotated
 * with the add-on's name and version; objects of the same name already there (the self-managed
 * vpc-cni, kube-proxy and CoreDNS a new cluster starts with) are adopted. An update to another
 * version moves the images; other configuration values re-render what they decide (the inference
 * operator's bundled controllers, its service accounts' IRSA roles), and objects the new rendering
 * no longer has go. DeleteAddon removes what the add-on made — namespaces with their
 * contents, CRDs with their custom resources — unless `preserve` keeps the software (then it is
 * only released). CRDs are established at once, so their resources are served.
 */

export const ADDON = 'sandbox.instantstart.dev/eks-addon';
const VERSION = 'sandbox.instantstart.dev/eks-addon-version';
const MANAGED_BY = 'app.kubernetes.io/managed-by';
/** The kinds add-ons install (reading only these keeps a tick from cloning every pod and event). */
const ADDON_KINDS = [
  T.namespaces,
  T.serviceaccounts,
  T.configmaps,
  T.services,
  T.deployments,
  T.daemonsets,
  T.csidrivers,
  T.crds,
];
const LIVE = new Set(['CREATING', 'ACTIVE', 'DEGRADED', 'UPDATING', 'UPDATE_FAILED', 'DELETE_FAILED']);

export function materialiseAddons(cluster: KubeCluster, state: SandboxState, clusterDns: string): void {
  const addons = new Map(listEksAddons(state, cluster.region, cluster.name).map((a) => [a.name, a]));
  // Read in place (scan): this runs every tick and add-ons bring CRDs with whole OpenAPI schemas; the objects are
  // copied only when an add-on is to be installed, released or removed.
  const installed = new Map<string, Array<Readonly<KubeObject>>>();
  for (const t of ADDON_KINDS)
    cluster.objects.scan(t, undefined, (o) => {
      const name = o.metadata.annotations?.[ADDON];
      if (name) installed.set(name, [...(installed.get(name) ?? []), o]);
    });
  for (const name of Object.keys(ADDON_MANIFESTS)) {
    const addon = addons.get(name);
    const stored = installed.get(name) ?? [];
    const mine = () => stored.map((o) => structuredClone(o) as KubeObject);
    if (addon && LIVE.has(addon.status)) {
      const params = {
        version: addon.version,
        namespace: addon.namespace ?? findAddon(name)?.defaultNamespace ?? 'kube-system',
        region: cluster.region,
        clusterDns,
        configuration: parsed(addon.configurationValues),
      };
      const stamp = versionStamp(addon.version, addon.configurationValues);
      const current = stored.some((o) => o.metadata.annotations?.[VERSION] === stamp && !o.metadata.deletionTimestamp);
      if (!current) {
        const before = mine();
        install(cluster, name, params, true, stamp);
        // What the new version or configuration no longer has goes (an add-on reconfigured without KEDA loses KEDA).
        for (const o of before)
          if (o.metadata.annotations?.[VERSION] !== stamp && !stillWanted(cluster, o, stamp)) remove(cluster, o);
      }
    } else if (addon?.status === 'DELETING' && addon.preserve) {
      for (const o of mine()) release(cluster, o);
    } else {
      for (const o of mine()) remove(cluster, o);
    }
  }
}

/** The self-managed add-ons EKS puts in a new cluster (bootstrapSelfManagedAddons): vpc-cni, kube-proxy, CoreDNS at the cluster's default versions. */
export function installSelfManagedAddons(cluster: KubeCluster, kubernetesVersion: string, clusterDns: string): void {
  for (const name of ['vpc-cni', 'kube-proxy', 'coredns']) {
    const spec = findAddon(name);
    const version = spec ? defaultAddonVersion(spec, kubernetesVersion) : undefined;
    if (!version) continue;
    install(cluster, name, { version, namespace: 'kube-system', region: cluster.region, clusterDns }, false);
  }
}

/** The version annotation: the add-on version, and a digest of its configuration values when it has some (a change re-installs). */
function versionStamp(version: string, configurationValues: string | undefined): string {
  return configurationValues
    ? `${version}+${createHash('sha256').update(configurationValues).digest('hex').slice(0, 12)}`
    : version;
}

function parsed(values: string | undefined): unknown {
  if (!values) return undefined;
  try {
    return JSON.parse(values);
  } catch {
    return undefined;
  }
}

/** Whether an object of the add-on was just re-stamped by install (it is part of the new version too). */
function stillWanted(cluster: KubeCluster, o: KubeObject, stamp: string): boolean {
  const type = cluster.findTypeByKind(o.apiVersion, o.kind);
  const live = type && cluster.objects.get(type, o.metadata.namespace, o.metadata.name!);
  return live?.metadata.annotations?.[VERSION] === stamp;
}

function install(
  cluster: KubeCluster,
  name: string,
  params: AddonParams,
  managed: boolean,
  stamp = params.version,
): void {
  for (const manifest of ADDON_MANIFESTS[name]!(params)) {
    const type = cluster.findTypeByKind(manifest.apiVersion, manifest.kind);
    if (!type) continue;
    const obj = structuredClone(manifest);
    if (managed) {
      obj.metadata.labels = { ...(obj.metadata.labels ?? {}), [MANAGED_BY]: 'eks' };
      obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), [ADDON]: name, [VERSION]: stamp };
    }
    applyDefaults(type, obj);
    if (obj.kind === 'CustomResourceDefinition') establish(obj, cluster.now());
    const existing = cluster.objects.get(type, obj.metadata.namespace, obj.metadata.name!);
    if (!existing) {
      cluster.objects.create(type, obj);
      continue;
    }
    // A namespace that was there before is not the add-on's to take (or to delete later).
    if (
      !managed ||
      existing.metadata.deletionTimestamp ||
      (obj.kind === 'Namespace' && !existing.metadata.annotations?.[ADDON])
    )
      continue;
    const adopted: KubeObject = {
      ...existing,
      metadata: {
        ...existing.metadata,
        labels: { ...existing.metadata.labels, ...obj.metadata.labels },
        annotations: { ...existing.metadata.annotations, ...obj.metadata.annotations },
      },
    };
    const template = (adopted.spec as Any | undefined)?.template;
    if (template)
      adopted.spec = { ...(adopted.spec as Any), template: withImagesOf(template, (obj.spec as Any).template) };
    save(cluster, type, existing, adopted);
  }
}

/** The existing template with the add-on version's images (an update rolls the pods; other customisations stay). */
function withImagesOf(template: Any, wanted: Any): Any {
  const images = new Map<string, string>();
  for (const c of [...((wanted?.spec?.containers ?? []) as Any[]), ...((wanted?.spec?.initContainers ?? []) as Any[])])
    images.set(c.name, c.image);
  const next = structuredClone(template);
  for (const c of [...((next.spec?.containers ?? []) as Any[]), ...((next.spec?.initContainers ?? []) as Any[])])
    if (images.has(c.name)) c.image = images.get(c.name);
  return next;
}

function release(cluster: KubeCluster, o: KubeObject): void {
  const type = cluster.findTypeByKind(o.apiVersion, o.kind);
  if (!type) return;
  const { [ADDON]: _name, [VERSION]: _version, ...annotations } = o.metadata.annotations ?? {};
  const { [MANAGED_BY]: _by, ...labels } = o.metadata.labels ?? {};
  save(cluster, type, o, { ...o, metadata: { ...o.metadata, labels, annotations } });
}

function remove(cluster: KubeCluster, o: KubeObject): void {
  const type = cluster.findTypeByKind(o.apiVersion, o.kind);
  const live = type && cluster.objects.get(type, o.metadata.namespace, o.metadata.name!);
  if (type && live && !live.metadata.deletionTimestamp) deleteObject(cluster, type, live, 'Background');
}

export function establish(crd: KubeObject, now: number): void {
  const at = rfc3339(now);
  const spec = crd.spec as Any;
  crd.status = {
    acceptedNames: spec.names,
    storedVersions: ((spec.versions ?? []) as Any[]).filter((v) => v.storage).map((v) => v.name),
    conditions: [
      {
        type: 'NamesAccepted',
        status: 'True',
        reason: 'NoConflicts',
        message: 'no conflicts found',
        lastTransitionTime: at,
      },
      {
        type: 'Established',
        status: 'True',
        reason: 'InitialNamesAccepted',
        message: 'the initial names have been accepted',
        lastTransitionTime: at,
      },
    ],
  };
}
