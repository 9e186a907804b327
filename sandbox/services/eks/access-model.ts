import { uuid } from '../../core/ids.js';
import type { StoredAccessEntry, StoredCluster } from './state.js';

/**
 * How EKS fills in an access entry: node types get the node username and group EKS grants them,
 * STANDARD entries for roles get the assumed-role session form, users keep their own ARN.
 */
export const ACCESS_ENTRY_TYPES = [
  'STANDARD',
  'FARGATE_LINUX',
  'EC2_LINUX',
  'EC2_WINDOWS',
  'EC2',
  'HYBRID_LINUX',
  'HYPERPOD_LINUX',
] as const;

/** Node types: the principal must be a role, and EKS (not the caller) decides its groups and policies. */
export const NODE_ENTRY_TYPES = new Set<string>([
  'FARGATE_LINUX',
  'EC2_LINUX',
  'EC2_WINDOWS',
  'EC2',
  'HYBRID_LINUX',
  'HYPERPOD_LINUX',
]);

/** IAM role or user ARN (STS session ARNs are refused, as on AWS). */
export const PRINCIPAL_ARN_PATTERN = /^arn:aws[a-z-]*:iam::\d{12}:(role|user)\/[\w+=,.@\/-]+$/;

/** Splits `arn:aws:iam::<acct>:role/path/name` into its kind, account and final name segment. */
export function parsePrincipalArn(
  principalArn: string,
): { kind: 'role' | 'user'; accountId: string; name: string } | undefined {
  const m = /^arn:aws[a-z-]*:iam::(\d{12}):(role|user)\/(.+)$/.exec(principalArn);
  if (!m) return undefined;
  const path = m[3]!;
  return { kind: m[2] as 'role' | 'user', accountId: m[1]!, name: path.slice(path.lastIndexOf('/') + 1) };
}

function defaultUsername(type: string, principalArn: string): string {
  const p = parsePrincipalArn(principalArn);
  switch (type) {
    case 'EC2_LINUX':
    case 'EC2_WINDOWS':
    case 'EC2':
      return 'system:node:{{EC2PrivateDNSName}}';
    case 'FARGATE_LINUX':
      return 'system:node:{{SessionName}}';
    case 'HYBRID_LINUX':
    case 'HYPERPOD_LINUX':
      return 'system:node:{{SessionName}}';
    default:
      if (p?.kind === 'role') return `arn:aws:sts::${p.accountId}:assumed-role/${p.name}/{{SessionName}}`;
      return principalArn;
  }
}

function defaultGroups(type: string): string[] {
  if (type === 'EC2_WINDOWS') return ['system:nodes', 'eks:kube-proxy-windows'];
  if (type === 'FARGATE_LINUX') return ['system:node-proxier', 'system:nodes'];
  if (NODE_ENTRY_TYPES.has(type)) return ['system:nodes'];
  return [];
}

/** `arn:aws:eks:<region>:<acct>:access-entry/<cluster>/<role|user>/<acct>/<name>/<uuid>` */
function accessEntryArn(cluster: StoredCluster, principalArn: string): string {
  const p = parsePrincipalArn(principalArn);
  const base = cluster.arn.replace(/:cluster\/.*$/, '');
  return `${base}:access-entry/${cluster.name}/${p?.kind ?? 'role'}/${p?.accountId ?? ''}/${p?.name ?? ''}/${uuid()}`;
}

export function newAccessEntry(
  cluster: StoredCluster,
  req: {
    principalArn: string;
    type?: string;
    username?: string;
    kubernetesGroups?: string[];
    tags?: Record<string, string>;
  },
  now: number,
): StoredAccessEntry {
  const type = req.type ?? 'STANDARD';
  return {
    principalArn: req.principalArn,
    accessEntryArn: accessEntryArn(cluster, req.principalArn),
    type,
    username: req.username ?? defaultUsername(type, req.principalArn),
    kubernetesGroups: NODE_ENTRY_TYPES.has(type) ? defaultGroups(type) : [...(req.kubernetesGroups ?? [])],
    tags: { ...(req.tags ?? {}) },
    createdAt: now,
    modifiedAt: now,
    policies: [],
  };
}
