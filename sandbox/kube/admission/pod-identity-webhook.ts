import type { KubeObject } from '../types.js';

/**
 * The Amazon EKS pod identity webhook (aws/amazon-eks-pod-identity-webhook), which EKS runs on
 * every cluster's control plane as a mutating admission webhook for Pod CREATE. It gives a pod's
 * containers AWS credentials in one of two ways, decided by the pod's service account:
 *
 * - EKS Pod Identity: EKS has a pod identity association for the service account → the container
 *   credentials env (`AWS_CONTAINER_CREDENTIALS_FULL_URI`, `AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE`)
 *   and a projected token of audience `pods.eks.amazonaws.com`. This wins over IRSA ("container
 *   credentials take precedence" in the webhook's buildPodPatchConfig).
 * - IRSA: the service account is annotated `eks.amazonaws.com/role-arn` → `AWS_ROLE_ARN`,
 *   `AWS_WEB_IDENTITY_TOKEN_FILE` and a projected token of the annotated audience
 *   (`sts.amazonaws.com` by default).
 *
 * Both add `AWS_STS_REGIONAL_ENDPOINTS=regional` and `AWS_DEFAULT_REGION`/`AWS_REGION`, as EKS runs
 * the webhook with the cluster's region. Like the webhook, an env variable a container already
 * sets is left alone, as are a volume or mount the pod already has, and containers named in the
 * pod's `eks.amazonaws.com/skip-containers` annotation.
 */

type Any = Record<string, any>;

const PREFIX = 'eks.amazonaws.com';
export const ROLE_ARN_ANNOTATION = `${PREFIX}/role-arn`;
const AUDIENCE_ANNOTATION = `${PREFIX}/audience`;
const TOKEN_EXPIRATION_ANNOTATION = `${PREFIX}/token-expiration`;
const SKIP_CONTAINERS_ANNOTATION = `${PREFIX}/skip-containers`;

/** The webhook's constants (pkg/constants.go): token lifetime bounds, in seconds. */
const DEFAULT_TOKEN_EXPIRATION = 86400;
const MIN_TOKEN_EXPIRATION = 600;
const MAX_TOKEN_EXPIRATION = 86400;

const IRSA_MOUNT_PATH = '/var/run/secrets/eks.amazonaws.com/serviceaccount';
const IRSA_VOLUME = 'aws-iam-token';
const IRSA_DEFAULT_AUDIENCE = 'sts.amazonaws.com';

/** The webhook's container-credentials flags as EKS sets them (main.go defaults). */
const POD_IDENTITY_MOUNT_PATH = '/var/run/secrets/pods.eks.amazonaws.com/serviceaccount';
const POD_IDENTITY_VOLUME = 'eks-pod-identity-token';
const POD_IDENTITY_TOKEN_PATH = 'eks-pod-identity-token';
const POD_IDENTITY_AUDIENCE = 'pods.eks.amazonaws.com';
const POD_IDENTITY_FULL_URI = 'http://169.254.170.23/v1/credentials';

export interface AwsIdentitySource {
  /** The cluster's region (the webhook's `--aws-default-region`). */
  region: string;
  /** The pod's service account as stored, or undefined when it does not exist (then nothing is injected). */
  serviceAccount(namespace: string, name: string): KubeObject | undefined;
  /** Whether EKS holds a pod identity association for this service account. */
  hasPodIdentityAssociation(namespace: string, serviceAccount: string): boolean;
}

interface Injection {
  env: Array<{ name: string; value: string }>;
  volume: Any;
  mount: { name: string; mountPath: string; readOnly: true };
}

/** Mutates a new pod in place as the webhook's JSON patch would; returns it (a pod it does not concern is unchanged). */
export function injectAwsIdentity(pod: KubeObject, source: AwsIdentitySource): KubeObject {
  const spec = pod.spec as Any | undefined;
  if (!spec || typeof spec !== 'object') return pod;
  const namespace = pod.metadata.namespace ?? 'default';
  const saName =
    typeof spec.serviceAccountName === 'string' && spec.serviceAccountName ? spec.serviceAccountName : 'default';
  const sa = source.serviceAccount(namespace, saName);
  if (!sa) return pod;
  const injection = source.hasPodIdentityAssociation(namespace, saName)
    ? podIdentityInjection(pod, sa, source.region)
    : irsaInjection(pod, sa, source.region);
  if (!injection) return pod;
  const skipped = new Set(
    String(pod.metadata.annotations?.[SKIP_CONTAINERS_ANNOTATION] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  let touched = false;
  for (const list of [spec.initContainers, spec.containers]) {
    if (!Array.isArray(list)) continue;
    for (const c of list as Any[]) {
      if (!c || typeof c !== 'object' || skipped.has(c.name)) continue;
      injectIntoContainer(c, injection);
      touched = true;
    }
  }
  if (!touched) return pod;
  const volumes = (Array.isArray(spec.volumes) ? spec.volumes : (spec.volumes = [])) as Any[];
  if (!volumes.some((v) => v?.name === injection.volume.name)) volumes.push(injection.volume);
  return pod;
}

function regionEnv(region: string): Injection['env'] {
  return [
    { name: 'AWS_STS_REGIONAL_ENDPOINTS', value: 'regional' },
    { name: 'AWS_DEFAULT_REGION', value: region },
    { name: 'AWS_REGION', value: region },
  ];
}

function irsaInjection(pod: KubeObject, sa: KubeObject, region: string): Injection | undefined {
  const annotations = sa.metadata.annotations ?? {};
  const roleArn = annotations[ROLE_ARN_ANNOTATION];
  if (!roleArn) return undefined;
  const audience = annotations[AUDIENCE_ANNOTATION] || IRSA_DEFAULT_AUDIENCE;
  return {
    env: [
      ...regionEnv(region),
      { name: 'AWS_ROLE_ARN', value: roleArn },
      { name: 'AWS_WEB_IDENTITY_TOKEN_FILE', value: `${IRSA_MOUNT_PATH}/token` },
    ],
    volume: tokenVolume(IRSA_VOLUME, audience, tokenExpiration(pod, sa), 'token'),
    mount: { name: IRSA_VOLUME, mountPath: IRSA_MOUNT_PATH, readOnly: true },
  };
}

function podIdentityInjection(pod: KubeObject, sa: KubeObject, region: string): Injection {
  return {
    env: [
      ...regionEnv(region),
      { name: 'AWS_CONTAINER_CREDENTIALS_FULL_URI', value: POD_IDENTITY_FULL_URI },
      {
        name: 'AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE',
        value: `${POD_IDENTITY_MOUNT_PATH}/${POD_IDENTITY_TOKEN_PATH}`,
      },
    ],
    volume: tokenVolume(POD_IDENTITY_VOLUME, POD_IDENTITY_AUDIENCE, tokenExpiration(pod, sa), POD_IDENTITY_TOKEN_PATH),
    mount: { name: POD_IDENTITY_VOLUME, mountPath: POD_IDENTITY_MOUNT_PATH, readOnly: true },
  };
}

/** A projected service account token volume; `defaultMode: 420` is what the API server defaults it to. */
function tokenVolume(name: string, audience: string, expirationSeconds: number, path: string): Any {
  return {
    name,
    projected: { defaultMode: 420, sources: [{ serviceAccountToken: { audience, expirationSeconds, path } }] },
  };
}

/** The pod's annotation, else the service account's, else the default; clamped to the webhook's bounds. */
function tokenExpiration(pod: KubeObject, sa: KubeObject): number {
  const raw =
    pod.metadata.annotations?.[TOKEN_EXPIRATION_ANNOTATION] ?? sa.metadata.annotations?.[TOKEN_EXPIRATION_ANNOTATION];
  const parsed = raw === undefined ? NaN : Number.parseInt(raw, 10);
  if (!Number.isFinite(parsed)) return DEFAULT_TOKEN_EXPIRATION;
  return Math.min(MAX_TOKEN_EXPIRATION, Math.max(MIN_TOKEN_EXPIRATION, parsed));
}

function injectIntoContainer(c: Any, injection: Injection): void {
  const env = (Array.isArray(c.env) ? c.env : (c.env = [])) as Any[];
  const present = new Set(env.map((e) => e?.name));
  for (const e of injection.env) if (!present.has(e.name)) env.push({ ...e });
  const mounts = (Array.isArray(c.volumeMounts) ? c.volumeMounts : (c.volumeMounts = [])) as Any[];
  if (!mounts.some((m) => m?.name === injection.mount.name || m?.mountPath === injection.mount.mountPath))
    mounts.push({ ...injection.mount });
}
