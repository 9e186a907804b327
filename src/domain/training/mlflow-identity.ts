import { POD_IDENTITY_ACTIONS, POD_IDENTITY_SERVICE } from '../features/identity-policies.js';
import type { PolicyDocument } from '../features/policy-document.js';
import { clusterTags, MANAGED_BY_VALUE, TAG_CLUSTER, TAG_MANAGED_BY, TAG_PART } from '../naming.js';

/**
 * What a training job needs to log to a SageMaker managed MLflow tracking server, as IAM and EKS
 * document it (pure: the service compares these with what exists and makes only what is missing):
 * - one IAM role per cluster and tracking server, trusting EKS Pod Identity, with the one inline
 *   policy `sagemaker-mlflow:*` on that server's ARN (least privilege: no other server, no other service);
 * - one Kubernetes service account per namespace and server, bound to the role by a pod identity
 *   association; the job's pods run as it, so the sagemaker-mlflow plugin signs with the role.
 * Per server, not per job: jobs come and go, the permission to log to a server stays the same.
 */

/** The role's one inline policy. */
export const MLFLOW_POLICY_NAME = 'instantstart-mlflow';
/** On a tracking server's role: the server it was made for. */
export const TAG_MLFLOW_SERVER = 'instantstart.io/mlflow-tracking-server';
/** The tags that make a role ours for a cluster (what ensureOwnedRole checks before changing one). */
export const clusterOwnerTags = (cluster: string): Record<string, string> => ({
  [TAG_MANAGED_BY]: MANAGED_BY_VALUE,
  [TAG_CLUSTER]: cluster,
});
/** The role's part tag (beside the cluster tags every role of ours carries). */
export const MLFLOW_ROLE_PART = 'training-mlflow';

/** Where the names of a cluster's MLflow job roles start (the rest is the server's 8-hex hash). */
export const mlflowJobRolePrefix = (cluster: string): string => `instantstart-${cluster.slice(0, 30)}-mlflow-`;

/**
 * Whether a role is one of `cluster`'s MLflow job roles: its name has the shape, and its tags say we
 * made it for that cluster (a cut cluster name alone could name another cluster's role).
 */
export function isClusterMlflowRole(cluster: string, roleName: string, tags: Record<string, string>): boolean {
  const prefix = mlflowJobRolePrefix(cluster);
  return (
    roleName.startsWith(prefix) &&
    /^[0-9a-f]{8}$/.test(roleName.slice(prefix.length)) &&
    tags[TAG_MANAGED_BY] === MANAGED_BY_VALUE &&
    tags[TAG_CLUSTER] === cluster &&
    tags[TAG_PART] === MLFLOW_ROLE_PART
  );
}

/** 8 hex of FNV-1a: a short, stable suffix per tracking server (its name may be 256 characters). */
export function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

export interface MlflowIdentitySpec {
  roleName: string;
  description: string;
  trustPolicy: PolicyDocument;
  inlinePolicyName: string;
  inlinePolicy: PolicyDocument;
  tags: Record<string, string>;
  /** The job's namespace and the service account its pods run as. */
  namespace: string;
  serviceAccount: string;
}

/**
 * The identity a job of `cluster` in `namespace` logs to `trackingServerArn` with.
 *
 * @example
 * mlflowIdentity('demo', 'default', 'arn:aws:sagemaker:us-west-2:000000000000:mlflow-tracking-server/team')
 * // { roleName: 'instantstart-demo-mlflow-1a2b3c4d', serviceAccount: 'instantstart-mlflow-1a2b3c4d', … }
 */
export function mlflowIdentity(cluster: string, namespace: string, trackingServerArn: string): MlflowIdentitySpec {
  const suffix = shortHash(trackingServerArn);
  // IAM role names are at most 64 characters: a long cluster name is cut, the hash keeps it unique.
  const roleName = `${mlflowJobRolePrefix(cluster)}${suffix}`;
  const server = trackingServerArn.split('/').pop() ?? trackingServerArn;
  return {
    roleName,
    description: `Training jobs of ${cluster} log to MLflow tracking server ${server.slice(0, 100)} (InstantStart)`,
    trustPolicy: {
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: { Service: POD_IDENTITY_SERVICE }, Action: [...POD_IDENTITY_ACTIONS] }],
    },
    inlinePolicyName: MLFLOW_POLICY_NAME,
    inlinePolicy: {
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Action: ['sagemaker-mlflow:*'], Resource: trackingServerArn }],
    },
    tags: { ...clusterTags(cluster, MLFLOW_ROLE_PART) },
    namespace,
    serviceAccount: `instantstart-mlflow-${suffix}`,
  };
}

/**
 * The role SageMaker assumes for a tracking server InstantStart creates without a roleArn: it
 * trusts sagemaker.amazonaws.com and may read and write the artifact store's bucket under its prefix.
 */
export function mlflowServerRole(
  serverName: string,
  artifactStoreUri: string,
): {
  roleName: string;
  description: string;
  trustPolicy: PolicyDocument;
  inlinePolicy: PolicyDocument;
  tags: Record<string, string>;
} {
  const m = /^s3:\/\/([^/]+)\/?(.*)$/.exec(artifactStoreUri);
  const bucket = m?.[1] ?? '';
  const prefix = (m?.[2] ?? '').replace(/\/+$/, '');
  return {
    roleName: `instantstart-mlflow-${serverName.slice(0, 34)}-${shortHash(serverName)}`,
    description: `SageMaker managed MLflow server ${serverName.slice(0, 100)} reaches its artifact store (InstantStart)`,
    trustPolicy: {
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: { Service: 'sagemaker.amazonaws.com' }, Action: 'sts:AssumeRole' }],
    },
    inlinePolicy: {
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Action: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
          Resource: `arn:aws:s3:::${bucket}/${prefix ? `${prefix}/` : ''}*`,
        },
        { Effect: 'Allow', Action: ['s3:ListBucket', 's3:GetBucketLocation'], Resource: `arn:aws:s3:::${bucket}` },
      ],
    },
    tags: {
      [TAG_MANAGED_BY]: MANAGED_BY_VALUE,
      [TAG_PART]: 'mlflow-server',
      [TAG_MLFLOW_SERVER]: serverName.slice(0, 256),
    },
  };
}
