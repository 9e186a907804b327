import type { RouteTable } from '@aws-sdk/client-ec2';
import type { Addon, Cluster } from '@aws-sdk/client-eks';
import type { FileSystem } from '@aws-sdk/client-fsx';
import type {
  ClusterEventSummary,
  ClusterInstanceGroupSpecification,
  ClusterNodeDetails,
  ClusterNodeSummary,
  DescribeClusterCommandOutput,
} from '@aws-sdk/client-sagemaker';
import type { RoleDefinition } from '../domain/cluster-roles.js';
import type { OfferedAddonVersion } from '../domain/features/addon-version.js';
import type { EksKubernetesVersion } from '../domain/kubernetes-versions.js';
import type { Readable } from 'node:stream';
import type { KubeKind, KubeResource } from '../domain/kube/kind.js';
import type { KubeObject } from '../domain/kube-object.js';
import type { SecurityGroupRule, VpcAttributes } from '../domain/network/completeness.js';

/**
 * The ports: what workflows and read models need from the cloud, as interfaces. The adapters in
 * aws/ (AWS SDK v3) and k8s/ (client-node) implement them; a test can hand a workflow its own.
 * Data shapes are the SDKs' own where AWS defines them, so nothing is lost in translation.
 */

export type Log = (message: string) => void;

// ── network ──────────────────────────────────────────────────────────────────────────────────────
export type SubnetRole = 'public' | 'private' | 'compute';

export interface ClusterSubnet {
  subnetId: string;
  cidr: string;
  zone: string;
  role: SubnetRole | 'other';
  /** Whether instances launched here get a public IPv4 address (public subnets must). */
  mapPublicIpOnLaunch: boolean;
}

/**
 * Everything of a cluster's network that exists now, found by our tags, with the attributes that
 * make its pieces complete (judged by src/domain/network/completeness.ts).
 */
export interface ClusterNetwork {
  vpcId?: string;
  vpcCidr?: string;
  /** The VPC's DNS attributes; present when the VPC is. */
  vpcAttributes?: VpcAttributes;
  subnets: ClusterSubnet[];
  internetGatewayId?: string;
  internetGatewayAttached: boolean;
  allocationId?: string;
  natGatewayId?: string;
  natGatewayState?: string;
  publicRouteTable?: RouteTable;
  privateRouteTable?: RouteTable;
  securityGroupId?: string;
  /** The node security group's rules; present when the group is. */
  securityGroupRules?: SecurityGroupRule[];
  s3EndpointId?: string;
}

/** The subnets to make: computed by the pure planner in src/domain/network. */
export interface NetworkPlan {
  vpcCidr: string;
  subnets: Array<{ cidr: string; zone: string; role: SubnetRole }>;
}

export interface NetworkPort {
  find(region: string, cluster: string): Promise<ClusterNetwork>;
  ensure(region: string, cluster: string, plan: NetworkPlan, log: Log): Promise<ClusterNetwork>;
  availableZones(region: string): Promise<string[]>;
  natGatewayState(region: string, natGatewayId: string): Promise<string | undefined>;
  /** Adds (or overwrites) tags on subnets (CreateTags), e.g. the load balancer controller's role tags. */
  tagSubnets(region: string, subnetIds: readonly string[], tags: Record<string, string>): Promise<void>;
}

export interface NetworkTeardownPort {
  startTeardown(region: string, cluster: string, log: Log): Promise<void>;
  /** What still exists; empty when the network is gone. */
  finishTeardown(region: string, cluster: string, log: Log): Promise<string[]>;
}

// ── IAM ──────────────────────────────────────────────────────────────────────────────────────────
export interface IamPort {
  find(roleName: string): Promise<string | undefined>;
  isComplete(spec: RoleDefinition): Promise<boolean>;
  ensure(cluster: string, spec: RoleDefinition, log: Log): Promise<string>;
  delete(roleName: string, log: Log): Promise<void>;
  // The finer calls a feature's identity is reconciled with (src/workflows/feature-identities.ts): each one
  // object, so a role that is already right costs reads only.
  /** The role's ARN, trust policy (JSON text) and tags; undefined when it does not exist. */
  describeRole(roleName: string): Promise<IamRoleFacts | undefined>;
  /** CreateRole with a whole trust policy; a role made meanwhile by someone else is answered as found. */
  createRole(role: {
    roleName: string;
    description: string;
    trustPolicy: unknown;
    tags: Record<string, string>;
  }): Promise<string>;
  updateTrustPolicy(roleName: string, trustPolicy: unknown): Promise<void>;
  attachedPolicies(roleName: string): Promise<string[]>;
  attachPolicy(roleName: string, policyArn: string): Promise<void>;
  /** The inline policy's document (JSON text); undefined when the role has no policy of that name. */
  inlinePolicy(roleName: string, policyName: string): Promise<string | undefined>;
  putInlinePolicy(roleName: string, policyName: string, document: unknown): Promise<void>;
  /** DeleteRolePolicy; a role or policy already gone is fine. */
  deleteInlinePolicy(roleName: string, policyName: string): Promise<void>;
  /** Every role of the account (all pages of ListRoles) with its trust policy: who still trusts an OIDC provider. */
  listRoleTrusts(): Promise<Array<{ roleName: string; arn: string; trustPolicy: string }>>;
}

export interface IamRoleFacts {
  arn: string;
  /** The trust policy, decoded JSON text. */
  trustPolicy: string;
  tags: Record<string, string>;
}

/** An IAM OpenID Connect identity provider (IRSA: one per EKS cluster issuer). */
export interface IamOidcProvider {
  arn: string;
  /** The issuer's host and path, without `https://` (as IAM answers it). */
  url: string;
  clientIds: string[];
  tags: Record<string, string>;
}

export interface IamOidcProvidersPort {
  /** Every provider of the account, each described (ListOpenIDConnectProviders + GetOpenIDConnectProvider). */
  list(): Promise<IamOidcProvider[]>;
  /**
   * Creates the provider for `issuerUrl` (`https://…`) with these client ids and tags. No thumbprint is
   * sent: IAM then keeps the issuer's top intermediate CA thumbprint itself. An existing one is found.
   */
  create(issuerUrl: string, clientIds: string[], tags: Record<string, string>): Promise<string>;
  /** Deletes it; "already gone" is success. */
  delete(arn: string): Promise<void>;
}

// ── EKS ──────────────────────────────────────────────────────────────────────────────────────────
export interface EksClusterSpec {
  name: string;
  roleArn: string;
  subnetIds: string[];
  securityGroupIds: string[];
  version?: string;
  tags: Record<string, string>;
}

export interface EksPort {
  describeCluster(region: string, name: string): Promise<Cluster | undefined>;
  /** The Kubernetes versions EKS offers for new clusters in the Region, with its default marked (DescribeClusterVersions). */
  clusterVersions(region: string): Promise<EksKubernetesVersion[]>;
  createCluster(region: string, spec: EksClusterSpec): Promise<Cluster>;
  deleteCluster(region: string, name: string): Promise<void>;
  describeAddon(region: string, clusterName: string, addonName: string): Promise<Addon | undefined>;
  defaultAddonVersion(region: string, addonName: string, kubernetesVersion: string): Promise<string | undefined>;
  /** Every version of an add-on EKS offers for a Kubernetes version, newest first, with the default marked (DescribeAddonVersions). */
  addonVersions(region: string, addonName: string, kubernetesVersion: string): Promise<OfferedAddonVersion[]>;
  createAddon(
    region: string,
    clusterName: string,
    addonName: string,
    options: {
      version?: string;
      /** Bound through the add-on (CreateAddon's podIdentityAssociations): EKS deletes them with it. */
      podIdentityAssociations?: ReadonlyArray<{ serviceAccount: string; roleArn: string }>;
      /** The add-on's configuration values (JSON). */
      configurationValues?: string;
      tags: Record<string, string>;
    },
  ): Promise<void>;
  /** UpdateAddon: another version (and, when given, other configuration values) of an installed add-on. */
  updateAddon(
    region: string,
    clusterName: string,
    addonName: string,
    options: { version: string; configurationValues?: string },
  ): Promise<void>;
  deleteAddon(region: string, clusterName: string, addonName: string): Promise<void>;
  /** The pod identity association of a service account (ListPodIdentityAssociations); undefined when there is none. */
  podIdentityAssociation(
    region: string,
    clusterName: string,
    namespace: string,
    serviceAccount: string,
  ): Promise<PodIdentityAssociationFacts | undefined>;
  /** UpdatePodIdentityAssociation: the role the service account's pods get. */
  updatePodIdentityAssociationRole(
    region: string,
    clusterName: string,
    associationId: string,
    roleArn: string,
  ): Promise<void>;
  /** CreatePodIdentityAssociation (a workload's own, not an add-on's); its id. */
  createPodIdentityAssociation(
    region: string,
    clusterName: string,
    association: { namespace: string; serviceAccount: string; roleArn: string; tags: Record<string, string> },
  ): Promise<string>;
}

export interface PodIdentityAssociationFacts {
  associationId: string;
  associationArn?: string;
  /** From DescribePodIdentityAssociation (list answers do not carry it). */
  roleArn?: string;
}

// ── SageMaker HyperPod ───────────────────────────────────────────────────────────────────────────
export type HyperPodCluster = DescribeClusterCommandOutput;

export interface HyperPodClusterSpec {
  name: string;
  eksClusterArn: string;
  subnetIds: string[];
  securityGroupIds: string[];
  instanceGroups: ClusterInstanceGroupSpecification[];
  tags: Record<string, string>;
}

export interface HyperPodPort {
  describe(region: string, name: string): Promise<HyperPodCluster | undefined>;
  create(region: string, spec: HyperPodClusterSpec): Promise<string>;
  delete(region: string, name: string): Promise<void>;
  list(region: string): Promise<Array<{ name: string; arn: string; status: string; createdAt?: Date }>>;
  tags(region: string, arn: string): Promise<Record<string, string>>;
  /** Turns HyperPod-managed Karpenter on (with the ClusterRole HyperPod assumes) or off (UpdateCluster AutoScaling). */
  setAutoScaling(
    region: string,
    name: string,
    setting: { mode: 'Enable'; clusterRoleArn: string } | { mode: 'Disable' },
  ): Promise<void>;
  /** Turns managed tiered checkpointing on (with the share of instance memory, absent = HyperPod's default) or off (UpdateCluster TieredStorageConfig). */
  setTieredStorage(
    region: string,
    name: string,
    setting: { mode: 'Enable'; instanceMemoryAllocationPercentage?: number } | { mode: 'Disable' },
  ): Promise<void>;
}

export interface HyperPodGroupsPort {
  /** Creates or updates the given groups (full specifications); other groups are left alone. */
  putGroups(region: string, cluster: string, groups: ClusterInstanceGroupSpecification[]): Promise<void>;
  deleteGroups(region: string, cluster: string, groupNames: string[]): Promise<void>;
  /** BatchAddClusterNodes (Continuous provisioning only); the client token makes a repeat harmless. */
  addNodes(
    region: string,
    cluster: string,
    groupName: string,
    count: number,
    clientToken: string,
  ): Promise<{ Failed?: Array<{ ErrorCode?: string; Message?: string }> }>;
}

export interface HyperPodNodesPort {
  /** ListClusterEvents, newest first (Continuous-mode clusters only). */
  events(
    region: string,
    cluster: string,
    options?: { nodeId?: string; groupName?: string; nextToken?: string; maxResults?: number },
  ): Promise<{ events: ClusterEventSummary[]; nextToken?: string }>;
  /** Every node of the cluster (all pages of ListClusterNodes). */
  listAll(region: string, cluster: string, groupName?: string): Promise<ClusterNodeSummary[]>;
  /** DescribeClusterNode; undefined when HyperPod does not know the node. */
  describe(region: string, cluster: string, nodeId: string): Promise<ClusterNodeDetails | undefined>;
  reboot(region: string, cluster: string, nodeIds: string[]): Promise<NodeActionResult[]>;
  replace(region: string, cluster: string, nodeIds: string[]): Promise<NodeActionResult[]>;
  delete(region: string, cluster: string, nodeIds: string[]): Promise<NodeActionResult[]>;
  startDeepHealthCheck(
    region: string,
    cluster: string,
    groupName: string,
    nodeIds: string[],
    checks: Array<'InstanceStress' | 'InstanceConnectivity'>,
  ): Promise<void>;
}

/** One node's outcome of a Batch* node action. */
export interface NodeActionResult {
  nodeId: string;
  ok: boolean;
  code?: string;
  message?: string;
}

// ── SageMaker managed MLflow ─────────────────────────────────────────────────────────────────────
/** A tracking server as DescribeMlflowTrackingServer reports it. */
export interface MlflowTrackingServer {
  arn: string;
  name: string;
  /** Creating, Created, Updating, Updated, Stopping, Stopped, Starting, Started, Deleting, *Failed, Maintenance*. */
  status: string;
  /** Whether it answers MLflow's API now (IsActive `Active`). */
  active: boolean;
  url?: string;
  artifactStoreUri?: string;
  size?: string;
  mlflowVersion?: string;
  roleArn?: string;
  automaticModelRegistration?: boolean;
  weeklyMaintenanceWindowStart?: string;
  createdAt?: Date;
  lastModifiedAt?: Date;
}

/** One row of ListMlflowTrackingServers. */
export type MlflowTrackingServerSummary = Pick<
  MlflowTrackingServer,
  'arn' | 'name' | 'status' | 'active' | 'mlflowVersion' | 'createdAt' | 'lastModifiedAt'
>;

export interface MlflowTrackingServerSpec {
  name: string;
  /** `s3://bucket/prefix` */
  artifactStoreUri: string;
  /** The role SageMaker assumes to reach the artifact store (trusts sagemaker.amazonaws.com). */
  roleArn: string;
  size?: 'Small' | 'Medium' | 'Large';
  mlflowVersion?: string;
  automaticModelRegistration?: boolean;
  /** e.g. `Tue:03:30` (UTC). */
  weeklyMaintenanceWindowStart?: string;
  tags?: Record<string, string>;
}

export interface MlflowKeyValue {
  key: string;
  value: string;
}

export interface MlflowExperiment {
  id: string;
  name: string;
  artifactLocation?: string;
  lifecycleStage: string;
  creationTime?: number;
  lastUpdateTime?: number;
  tags: MlflowKeyValue[];
}

/** One value of a metric: `timestamp` in epoch ms. */
export interface MlflowMetricPoint {
  step: number;
  timestamp: number;
  value: number;
}

export interface MlflowRun {
  id: string;
  name: string;
  experimentId: string;
  /** RUNNING, SCHEDULED, FINISHED, FAILED, KILLED. */
  status: string;
  startTime?: number;
  endTime?: number;
  artifactUri?: string;
  lifecycleStage: string;
  tags: MlflowKeyValue[];
  params: MlflowKeyValue[];
  /** The latest value of each metric the run logged (its keys: what can be charted). */
  latestMetrics: Array<MlflowMetricPoint & { key: string }>;
}

/** A metric's history, sorted by step then timestamp; `truncated` when it had more than `limit` points. */
export interface MlflowMetricHistory {
  runId: string;
  metricKey: string;
  points: MlflowMetricPoint[];
  truncated: boolean;
  /** The most points read (the cap). */
  limit: number;
  /** How many get-history pages were read. */
  pages: number;
}

/** Where an MLflow read goes: the tracking server (by ARN, which names its Region) and what to find there. */
export interface MlflowRunQuery {
  trackingServerArn: string;
  experimentName: string;
  runName: string;
}

export interface MlflowPort {
  /** Every tracking server in the Region (all pages), newest first. */
  listTrackingServers(region: string): Promise<MlflowTrackingServerSummary[]>;
  /** Undefined when there is none of that name. */
  describeTrackingServer(region: string, name: string): Promise<MlflowTrackingServer | undefined>;
  /** CreateMlflowTrackingServer; its ARN (the server is Creating for up to 25 minutes). */
  createTrackingServer(region: string, spec: MlflowTrackingServerSpec): Promise<string>;
  /** The server's tags (SageMaker ListTags); undefined when it does not exist. */
  trackingServerTags(region: string, arn: string): Promise<Record<string, string> | undefined>;
  /** DeleteMlflowTrackingServer; a server already gone is fine. */
  deleteTrackingServer(region: string, name: string): Promise<void>;
  /** The experiment of that name (an active one first); undefined when there is none. */
  findExperiment(query: { trackingServerArn: string; experimentName: string }): Promise<MlflowExperiment | undefined>;
  /** The newest run of that name in the experiment; undefined when the experiment or the run does not exist. */
  findRun(query: MlflowRunQuery): Promise<MlflowRun | undefined>;
  /** The experiment's runs, newest first, optionally only those with that run name and all of those tags. */
  searchRuns(query: {
    trackingServerArn: string;
    experimentName: string;
    runName?: string;
    tags?: MlflowKeyValue[];
    maxResults?: number;
  }): Promise<MlflowRun[]>;
  /** A metric's whole history, every page followed, at most `maxPoints` (default 100 000) points. */
  metricHistory(query: {
    trackingServerArn: string;
    runId: string;
    metricKey: string;
    maxPoints?: number;
    pageSize?: number;
  }): Promise<MlflowMetricHistory>;
}

// ── storage ──────────────────────────────────────────────────────────────────────────────────────
/** What HeadBucket says of a bucket: reachable (with its Region when S3 tells), missing, or refused to us (another account's, or no permission). */
export type BucketProbe = { state: 'reachable'; region?: string } | { state: 'missing' } | { state: 'forbidden' };

/** One page of ListObjectsV2 with a delimiter: the common prefixes (folders) and the objects. */
export interface ObjectPage {
  folders: string[];
  objects: Array<{ key: string; size: number; lastModified?: string }>;
  nextToken?: string;
}

export interface StoragePort {
  bucketExists(region: string, bucket: string): Promise<boolean>;
  probeBucket(region: string, bucket: string): Promise<BucketProbe>;
  /** The bucket's tags ({} when it has none); undefined when there is no such bucket. */
  bucketTags(region: string, bucket: string): Promise<Record<string, string> | undefined>;
  /** Creates the bucket when missing, then puts its tags (two calls: a crash between them leaves it untagged — observe with bucketTags). */
  ensureBucket(region: string, bucket: string, tags: Record<string, string>, log: Log): Promise<void>;
  deleteBucket(region: string, bucket: string, log: Log): Promise<void>;
  /** Deletes every object under a prefix (all pages); the count deleted. */
  deletePrefix(region: string, bucket: string, prefix: string, log: Log): Promise<number>;
  /** One page of ListObjectsV2 of a bucket (`region`: the bucket's own). */
  listObjects(region: string, bucket: string, options?: ListObjectsOptions): Promise<ObjectPage>;
  /** A file system tagged as the cluster's (not being deleted); with `part`, only one tagged as that part of it. */
  findFileSystem(region: string, cluster: string, part?: string): Promise<FileSystem | undefined>;
  /** CreateFileSystem (Lustre, PERSISTENT_2); the client token (default: the cluster's one shared file system) makes a repeat return the first. */
  createFileSystem(
    region: string,
    cluster: string,
    spec: {
      subnetId: string;
      securityGroupId: string;
      storageCapacityGiB: number;
      tags: Record<string, string>;
      clientToken?: string;
    },
  ): Promise<FileSystem>;
  describeFileSystem(region: string, id: string): Promise<FileSystem | undefined>;
  deleteFileSystem(region: string, id: string): Promise<void>;
}

export interface ListObjectsOptions {
  prefix?: string;
  /** `/` groups keys below the prefix into commonPrefixes (folders). */
  delimiter?: string;
  continuationToken?: string;
  /** Keys per page (S3's default and maximum: 1000). */
  maxKeys?: number;
}

// ── Kubernetes ───────────────────────────────────────────────────────────────────────────────────
/** An item of a Kubernetes list as read code without a kind module sees it: shapes are not to be trusted. */
export interface ListedKubeObject {
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string>; creationTimestamp?: Date | string };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface KubeListOptions {
  /** One namespace; all when absent (namespaced kinds). */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Objects per request (default 500); `list` follows every page. */
  limit?: number;
}

export interface KubePage<T> {
  items: T[];
  /** The list's resourceVersion: a watch from it misses nothing. */
  resourceVersion: string;
  /** Token of the next page; absent on the last. */
  continue?: string;
}

export type KubeWatchEvent<T> =
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: T }
  | { type: 'BOOKMARK'; resourceVersion: string };

export interface KubeWatchOptions extends KubeListOptions {
  /** Resume after this version; without it the watch lists first (ADDED for each current object). */
  resourceVersion?: string;
  /** Ends the watch (the iteration finishes). */
  signal?: AbortSignal;
}

export interface KubeLogOptions {
  /** Required when the pod has more than one container. */
  container?: string;
  follow?: boolean;
  tailLines?: number;
  sinceSeconds?: number;
  /** Only lines at or after this RFC 3339 time (the kubelet compares at whole seconds); not with sinceSeconds. */
  sinceTime?: string;
  limitBytes?: number;
  previous?: boolean;
  timestamps?: boolean;
  signal?: AbortSignal;
}

/**
 * One cluster's Kubernetes API, typed by kind (src/domain/kube): reads parse into the kind's type,
 * writes are server-side apply under the field manager `instantstart`, failures are the typed errors
 * of src/domain/kube/errors.ts naming the cluster and the object.
 */
export interface KubePort {
  /** The EKS cluster's name. */
  readonly cluster: string;
  /** The object; KubeNotFound when it does not exist, KubeKindNotServed when the cluster has no such kind. */
  get<T extends KubeResource>(kind: KubeKind<T>, name: string, namespace?: string): Promise<T>;
  /** The object, or undefined when it does not exist (a kind not served still throws KubeKindNotServed). */
  find<T extends KubeResource>(kind: KubeKind<T>, name: string, namespace?: string): Promise<T | undefined>;
  /** The object a manifest describes, as it is now (undefined when absent or its kind is not served). */
  current(manifest: KubeObject): Promise<KubeResource | undefined>;
  /** Every matching object, all pages; a list that outlives its continue token starts again. */
  list<T extends KubeResource>(kind: KubeKind<T>, options?: KubeListOptions): Promise<T[]>;
  /** One page (for callers that page themselves); an expired `continue` throws KubeExpired. */
  listPage<T extends KubeResource>(
    kind: KubeKind<T>,
    options?: KubeListOptions & { continue?: string },
  ): Promise<KubePage<T>>;
  /** Changes as they happen, resumed across disconnects and relisted when the history is compacted. */
  watch<T extends KubeResource>(kind: KubeKind<T>, options?: KubeWatchOptions): AsyncIterable<KubeWatchEvent<T>>;
  /** Server-side apply of one object; the object as stored. */
  apply<T extends KubeResource>(kind: KubeKind<T>, manifest: KubeObject): Promise<T>;
  /** Server-side apply of each manifest, in order (kinds found by apiVersion + kind). */
  applyAll(manifests: readonly KubeObject[]): Promise<void>;
  /** Deletes the object; false when there was nothing to delete. */
  delete<T extends KubeResource>(kind: KubeKind<T>, name: string, namespace?: string): Promise<boolean>;
  /** Deletes the object a manifest describes (kind found by apiVersion + kind); false when there was nothing to delete. */
  deleteObject(manifest: KubeObject): Promise<boolean>;
  /** A container's log as a text stream (live with `follow`: it ends when the container does, or on `signal`). */
  logs(pod: { name: string; namespace: string }, options?: KubeLogOptions): Promise<Readable>;
}

// ── resources found by tag ──────────────────────────────────────────────────────────────────────
/** One resource carrying a tag, whichever service holds it. */
export interface TaggedResource {
  service: 's3' | 'sagemaker' | 'iam' | 'ec2' | 'eks' | 'fsx';
  /** What it is, as a person says it: S3 bucket, IAM role, VPC, MLflow tracking server, … */
  kind: string;
  /** Its name or id: the bucket, role or server name, vpc-…, fs-…, an OIDC provider's ARN. */
  id: string;
  /** Its state, where the service has one (NAT gateway, FSx lifecycle, cluster status). */
  status?: string;
  /** Its ARN, where a record of ours names it by ARN (an MLflow server: a cluster's default link). */
  arn?: string;
  tags: Record<string, string>;
}

export interface TagQuery {
  key: string;
  value: string;
  /** IAM roles whose names may be ours (their tags are then read); absent: every role's tags are read. */
  roleName?: (name: string) => boolean;
  /** Only these services (absent: all of them). */
  services?: ReadonlyArray<TaggedResource['service']>;
}

/** A bucket or file system, the resources that hold a storage's data. */
export interface DataResource {
  service: 's3' | 'fsx';
  id: string;
}

export interface TaggedResourcesPort {
  /** Every resource of the Region (and IAM's, account-wide) whose tag `key` is `value`, read service by service. */
  list(region: string, query: TagQuery): Promise<TaggedResource[]>;
  /** The tags of one S3 bucket or FSx file system; undefined when it does not exist. */
  tagsOf(region: string, resource: DataResource): Promise<Record<string, string> | undefined>;
  /** Adds (or overwrites) tags on an S3 bucket or FSx file system, keeping its others. */
  tag(region: string, resource: DataResource, tags: Record<string, string>): Promise<void>;
  /** Removes the tags `keys` from an S3 bucket or FSx file system (what "forget" does); a missing one is fine. */
  untag(region: string, resource: DataResource, keys: readonly string[]): Promise<void>;
}

// ── everything together ──────────────────────────────────────────────────────────────────────────
export interface CloudPort {
  readonly defaultRegion: string;
  readonly network: NetworkPort;
  readonly teardown: NetworkTeardownPort;
  readonly iam: IamPort;
  readonly oidcProviders: IamOidcProvidersPort;
  readonly eks: EksPort;
  readonly hyperpod: HyperPodPort;
  readonly storage: StoragePort;
  readonly hyperpodGroups: HyperPodGroupsPort;
  readonly hyperpodNodes: HyperPodNodesPort;
  readonly mlflow: MlflowPort;
  readonly tagged: TaggedResourcesPort;
  accountId(): Promise<string>;
  /**
   * The Kubernetes API of an EKS cluster, one cached client per cluster (DescribeCluster once);
   * KubeApiUnavailable while the cluster has no endpoint.
   */
  kube(region: string, eksClusterName: string): Promise<KubePort>;
  /** Drops the cached client of a cluster being deleted (its endpoint is about to go). */
  forgetKube(region: string, eksClusterName: string): void;
}
