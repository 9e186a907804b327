import { parse as parseYaml } from 'yaml';
import { verifySigV4, type IncomingSignedRequest } from '../core/sigv4.js';
import type { SandboxState } from '../core/store.js';
import { accessFor, getEksCluster } from '../services/eks/public.js';
import type { KubeCluster } from './cluster.js';
import type { KubeUser } from './api/context.js';
import { builtinType } from './resources.js';

/**
 * EKS authentication, as the cluster's authenticator does it: the bearer token is
 * `k8s-aws-v1.<base64url of a presigned STS GetCallerIdentity URL>` whose signed headers include
 * `x-k8s-aws-id: <cluster name>`. The signature is verified against the sandbox's keys (so a token
 * for another cluster, a wrong secret or a changed URL fails), and accepted for 15 minutes after it
 * was signed. The IAM principal then maps to a Kubernetes user through the cluster's access entries
 * (API modes) or the aws-auth ConfigMap (CONFIG_MAP modes).
 */

const TOKEN_PREFIX = 'k8s-aws-v1.';
const TOKEN_MAX_AGE_MS = 15 * 60 * 1000;

export interface Authenticated {
  user: KubeUser;
  /** The access policies of the principal's access entry (empty for aws-auth identities). */
  policies: Array<{ policyArn: string; accessScope: { type: 'cluster' | 'namespace'; namespaces: string[] } }>;
}

/** The IAM principal ARN a token proves, or undefined when it proves nothing. */
export function verifyEksToken(
  authorization: string | undefined,
  clusterName: string,
  nowMs = Date.now(),
): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
  if (!match || !match[1]!.startsWith(TOKEN_PREFIX)) return undefined;
  let url: URL;
  try {
    url = new URL(Buffer.from(match[1]!.slice(TOKEN_PREFIX.length), 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (url.searchParams.get('Action') !== 'GetCallerIdentity') return undefined;
  const signedHeaders = (url.searchParams.get('X-Amz-SignedHeaders') ?? '').split(';');
  if (!signedHeaders.includes('x-k8s-aws-id')) return undefined;
  const request: IncomingSignedRequest = {
    method: 'GET',
    rawPath: url.pathname || '/',
    rawQuery: url.search.replace(/^\?/, ''),
    headers: new Map([
      ['host', [url.host]],
      ['x-k8s-aws-id', [clusterName]],
    ]),
    body: Buffer.alloc(0),
  };
  const verdict = verifySigV4(request, nowMs, { presignedMaxAgeMs: TOKEN_MAX_AGE_MS });
  if (!verdict.ok || verdict.scope.service !== 'sts') return undefined;
  return verdict.principal.arn;
}

/** Maps a verified principal to a Kubernetes user; undefined = not known to this cluster (401, as EKS answers). */
export function mapPrincipal(
  state: SandboxState,
  cluster: KubeCluster,
  principalArn: string,
): Authenticated | undefined {
  const eks = getEksCluster(state, cluster.region, cluster.name);
  if (!eks) return undefined;
  if (eks.authenticationMode !== 'CONFIG_MAP') {
    const entry = accessFor(state, cluster.region, cluster.name, principalArn);
    if (entry) {
      const session = principalArn.slice(principalArn.lastIndexOf('/') + 1);
      const username = (entry.username ?? principalArn)
        .replace('{{SessionName}}', session)
        .replace('{{EC2PrivateDNSName}}', session);
      const nodeGroups = entry.type === 'STANDARD' ? [] : ['system:nodes'];
      return {
        user: {
          username,
          groups: [...new Set([...entry.kubernetesGroups, ...nodeGroups, 'system:authenticated'])],
          arn: principalArn,
        },
        policies: entry.policies,
      };
    }
  }
  if (eks.authenticationMode !== 'API') {
    const mapped = fromAwsAuth(cluster, principalArn);
    if (mapped)
      return {
        user: { ...mapped, groups: [...mapped.groups, 'system:authenticated'], arn: principalArn },
        policies: [],
      };
  }
  return undefined;
}

/** `kube-system/aws-auth`: mapUsers (userarn) and mapRoles (rolearn), YAML lists inside the ConfigMap. */
function fromAwsAuth(cluster: KubeCluster, principalArn: string): { username: string; groups: string[] } | undefined {
  const cm = cluster.objects.get(builtinType('', 'configmaps'), 'kube-system', 'aws-auth');
  const data = (cm?.data ?? {}) as Record<string, string>;
  const entries: Array<{ userarn?: string; rolearn?: string; username?: string; groups?: string[] }> = [];
  for (const key of ['mapUsers', 'mapRoles']) {
    try {
      const parsed: unknown = data[key] ? parseYaml(data[key]) : [];
      if (Array.isArray(parsed)) entries.push(...(parsed as typeof entries));
    } catch {
      // A malformed aws-auth maps no one, as on EKS.
    }
  }
  const found = entries.find((e) => e.userarn === principalArn || e.rolearn === principalArn);
  if (!found) return undefined;
  const session = principalArn.slice(principalArn.lastIndexOf('/') + 1);
  return { username: (found.username ?? principalArn).replace('{{SessionName}}', session), groups: found.groups ?? [] };
}
