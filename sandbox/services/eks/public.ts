import { keyed } from '../../core/keyed.js';
import type { SandboxState } from '../../core/store.js';
import { newAccessEntry } from './access-model.js';
import { clustersIn, eksRegions, findCluster, type StoredCluster } from './state.js';

/**
 * What other parts of the sandbox may know about EKS: SageMaker HyperPod checks its orchestrator
 * cluster and registers its nodes' role; the Kubernetes API (next issue) authorises callers.
 */
export interface EksClusterView {
  name: string;
  arn: string;
  status: 'CREATING' | 'ACTIVE' | 'DELETING' | 'FAILED' | 'UPDATING' | 'PENDING';
  version: string;
  authenticationMode: 'API' | 'API_AND_CONFIG_MAP' | 'CONFIG_MAP';
  /** The id in the cluster's Kubernetes API path (`/k8s/<endpointId>`), lower case. */
  endpointId: string;
  oidcIssuer?: string;
  vpcId: string;
  subnetIds: string[];
  securityGroupIds: string[];
  clusterSecurityGroupId?: string;
  createdAt: number;
}

/**
 * The cluster's Kubernetes API: served by the sandbox itself over HTTPS on its own port, one path
 * per cluster (`https://127.0.0.1:4566/k8s/<endpoint id>`), with certificates of the sandbox CA.
 */
export function clusterEndpoint(c: Pick<StoredCluster, 'endpointId'>, sandboxUrl: string): string {
  return `${sandboxUrl.replace(/^http:/, 'https:')}/k8s/${c.endpointId.toLowerCase()}`;
}

export function clusterOidcIssuer(c: StoredCluster, region: string): string {
  return `https://oidc.eks.${region}.amazonaws.com/id/${c.oidcId}`;
}

function view(c: StoredCluster, region: string): EksClusterView {
  return {
    name: c.name,
    arn: c.arn,
    status: c.status,
    version: c.version,
    authenticationMode: c.authenticationMode,
    endpointId: c.endpointId.toLowerCase(),
    oidcIssuer: clusterOidcIssuer(c, region),
    vpcId: c.vpcId,
    subnetIds: [...c.subnetIds],
    securityGroupIds: [...c.securityGroupIds],
    ...(c.clusterSecurityGroupId ? { clusterSecurityGroupId: c.clusterSecurityGroupId } : {}),
    createdAt: c.createdAt,
  };
}

export function getEksCluster(state: SandboxState, region: string, nameOrArn: string): EksClusterView | undefined {
  const c = findCluster(state, region, nameOrArn);
  return c ? view(c, region) : undefined;
}

/** Clusters whose control plane is up (ACTIVE or UPDATING) in every region: the ones with a Kubernetes API. */
export function listLiveEksClusters(state: SandboxState): Array<EksClusterView & { region: string }> {
  return eksRegions(state).flatMap(([region, r]) =>
    keyed
      .values(r.clusters)
      .filter((c) => c.status === 'ACTIVE' || c.status === 'UPDATING')
      .map((c) => ({ ...view(c, region), region })),
  );
}

export function listEksClusters(state: SandboxState, region: string): EksClusterView[] {
  return clustersIn(state, region).map((c) => view(c, region));
}

/** Idempotent: creates the access entry when absent (HyperPod registers its nodes' role as HYPERPOD_LINUX). */
export function ensureAccessEntry(
  state: SandboxState,
  region: string,
  clusterName: string,
  entry: { principalArn: string; type: string; username?: string; kubernetesGroups?: string[] },
  now: number,
): void {
  const c = findCluster(state, region, clusterName);
  if (!c || keyed.get(c.accessEntries, entry.principalArn)) return;
  keyed.set(c.accessEntries, entry.principalArn, newAccessEntry(c, entry, now));
}

export function deleteAccessEntryIfPresent(
  state: SandboxState,
  region: string,
  clusterName: string,
  principalArn: string,
): void {
  const c = findCluster(state, region, clusterName);
  if (c) keyed.delete(c.accessEntries, principalArn);
}

/** For the Kubernetes API (next issue): the entry and its associated policies, or undefined. */
export function accessFor(
  state: SandboxState,
  region: string,
  clusterName: string,
  principalArn: string,
):
  | {
      type: string;
      username?: string;
      kubernetesGroups: string[];
      policies: { policyArn: string; accessScope: { type: 'cluster' | 'namespace'; namespaces: string[] } }[];
    }
  | undefined {
  const e = keyed.get(findCluster(state, region, clusterName)?.accessEntries, principalArn);
  if (!e) return undefined;
  return {
    type: e.type,
    username: e.username,
    kubernetesGroups: [...e.kubernetesGroups],
    policies: e.policies.map((p) => ({
      policyArn: p.policyArn,
      accessScope: { type: p.accessScope.type, namespaces: [...p.accessScope.namespaces] },
    })),
  };
}

/** The add-ons of a cluster with their status (the Kubernetes side materialises what they install; `preserve` when DeleteAddon keeps the software). */
export function listEksAddons(
  state: SandboxState,
  region: string,
  clusterName: string,
): Array<{
  name: string;
  version: string;
  status: string;
  namespace?: string;
  preserve?: boolean;
  configurationValues?: string;
}> {
  const c = findCluster(state, region, clusterName);
  return keyed.values(c?.addons).map((a) => ({
    name: a.addonName,
    version: a.addonVersion,
    status: a.status,
    ...(a.namespace ? { namespace: a.namespace } : {}),
    ...(a.preserve ? { preserve: true } : {}),
    ...(a.configurationValues ? { configurationValues: a.configurationValues } : {}),
  }));
}

/** What a cluster's Kubernetes side starts from: its service CIDR and whether EKS installs the self-managed add-ons (vpc-cni, kube-proxy, CoreDNS). */
export function eksKubernetesSetup(
  state: SandboxState,
  region: string,
  clusterName: string,
): { serviceIpv4Cidr: string; bootstrapSelfManagedAddons: boolean; version: string } | undefined {
  const c = findCluster(state, region, clusterName);
  return c
    ? {
        serviceIpv4Cidr: c.serviceIpv4Cidr,
        bootstrapSelfManagedAddons: c.bootstrapSelfManagedAddons,
        version: c.version,
      }
    : undefined;
}

/** Whether EKS holds a pod identity association for this service account (the pod identity webhook asks at pod creation). */
export function hasPodIdentityAssociation(
  state: SandboxState,
  region: string,
  clusterName: string,
  namespace: string,
  serviceAccount: string,
): boolean {
  const c = findCluster(state, region, clusterName);
  return keyed
    .values(c?.podIdentityAssociations)
    .some((a) => a.namespace === namespace && a.serviceAccount === serviceAccount);
}
