import type { SandboxState } from '../../core/store.js';
import { newAccessEntry } from './access-model.js';
import { clustersIn, findCluster, type StoredCluster } from './state.js';

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
  endpoint?: string;
  oidcIssuer?: string;
  vpcId: string;
  subnetIds: string[];
  securityGroupIds: string[];
  clusterSecurityGroupId?: string;
  createdAt: number;
}

export function clusterEndpoint(c: StoredCluster, region: string): string {
  return `https://${c.endpointId}.gr7.${region}.eks.amazonaws.com`;
}

export function clusterOidcIssuer(c: StoredCluster, region: string): string {
  return `https://oidc.eks.${region}.amazonaws.com/id/${c.oidcId}`;
}

function view(c: StoredCluster, region: string): EksClusterView {
  // The endpoint exists once the control plane is up (AWS omits it while CREATING); the issuer from the start.
  const live = c.status !== 'CREATING' && c.status !== 'FAILED';
  return {
    name: c.name,
    arn: c.arn,
    status: c.status,
    version: c.version,
    authenticationMode: c.authenticationMode,
    ...(live ? { endpoint: clusterEndpoint(c, region) } : {}),
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
  if (!c || c.accessEntries[entry.principalArn]) return;
  c.accessEntries[entry.principalArn] = newAccessEntry(c, entry, now);
}

export function deleteAccessEntryIfPresent(state: SandboxState, region: string, clusterName: string, principalArn: string): void {
  const c = findCluster(state, region, clusterName);
  if (c) delete c.accessEntries[principalArn];
}

/** For the Kubernetes API (next issue): the entry and its associated policies, or undefined. */
export function accessFor(
  state: SandboxState,
  region: string,
  clusterName: string,
  principalArn: string,
):
  | { type: string; username?: string; kubernetesGroups: string[]; policies: { policyArn: string; accessScope: { type: 'cluster' | 'namespace'; namespaces: string[] } }[] }
  | undefined {
  const e = findCluster(state, region, clusterName)?.accessEntries[principalArn];
  if (!e) return undefined;
  return {
    type: e.type,
    username: e.username,
    kubernetesGroups: [...e.kubernetesGroups],
    policies: e.policies.map((p) => ({ policyArn: p.policyArn, accessScope: { type: p.accessScope.type, namespaces: [...p.accessScope.namespaces] } })),
  };
}
