import type { RouteTable } from '@aws-sdk/client-ec2';
import type { Addon, Cluster } from '@aws-sdk/client-eks';
import type { FileSystem } from '@aws-sdk/client-fsx';
import type { ClusterEventSummary, ClusterInstanceGroupSpecification, ClusterNodeDetails, ClusterNodeSummary, DescribeClusterCommandOutput } from '@aws-sdk/client-sagemaker';
import type { RoleDefinition } from '../domain/cluster-roles.js';
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
  defaultVersion(region: string): Promise<string>;
  createCluster(region: string, spec: EksClusterSpec): Promise<Cluster>;
  deleteCluster(region: string, name: string): Promise<void>;
  describeAddon(region: string, clusterName: string, addonName: string): Promise<Addon | undefined>;
  defaultAddonVersion(region: string, addonName: string, kubernetesVersion: string): Promise<string | undefined>;
  createAddon(
    region: string,
    clusterName: string,
    addonName: string,
    options: { version?: string; podIdentity?: { serviceAccount: string; roleArn: string }; tags: Record<string, string> },
  ): Promise<void>;
  deleteAddon(region: string, clusterName: string, addonName: string): Promise<void>;
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
  setAutoScaling(region: string, name: string, setting: { mode: 'Enable'; clusterRoleArn: string } | { mode: 'Disable' }): Promise<void>;
}

export interface HyperPodGroupsPort {
  /** Creates or updates the given groups (full specifications); other groups are left alone. */
  putGroups(region: string, cluster: string, groups: ClusterInstanceGroupSpecification[]): Promise<void>;
  deleteGroups(region: string, cluster: string, groupNames: string[]): Promise<void>;
  /** BatchAddClusterNodes (Continuous provisioning only); the client token makes a repeat harmless. */
  addNodes(region: string, cluster: string, groupName: string, count: number, clientToken: string): Promise<{ Failed?: Array<{ ErrorCode?: string; Message?: string }> }>;
}

export interface HyperPodNodesPort {
  /** ListClusterEvents, newest first (Continuous-mode clusters only). */
  events(region: string, cluster: string, options?: { nodeId?: string; groupName?: string; nextToken?: string; maxResults?: number }): Promise<{ events: ClusterEventSummary[]; nextToken?: string }>;
  /** Every node of the cluster (all pages of ListClusterNodes). */
  listAll(region: string, cluster: string, groupName?: string): Promise<ClusterNodeSummary[]>;
  /** DescribeClusterNode; undefined when HyperPod does not know the node. */
  describe(region: string, cluster: string, nodeId: string): Promise<ClusterNodeDetails | undefined>;
  reboot(region: string, cluster: string, nodeIds: string[]): Promise<NodeActionResult[]>;
  replace(region: string, cluster: string, nodeIds: string[]): Promise<NodeActionResult[]>;
  delete(region: string, cluster: string, nodeIds: string[]): Promise<NodeActionResult[]>;
  startDeepHealthCheck(region: string, cluster: string, groupName: string, nodeIds: string[], checks: Array<'InstanceStress' | 'InstanceConnectivity'>): Promise<void>;
}

/** One node's outcome of a Batch* node action. */
export interface NodeActionResult {
  nodeId: string;
  ok: boolean;
  code?: string;
  message?: string;
}

// ── storage ──────────────────────────────────────────────────────────────────────────────────────
export interface StoragePort {
  bucketExists(region: string, bucket: string): Promise<boolean>;
  ensureBucket(region: string, bucket: string, tags: Record<string, string>, log: Log): Promise<void>;
  deleteBucket(region: string, bucket: string, log: Log): Promise<void>;
  findFileSystem(region: string, cluster: string): Promise<FileSystem | undefined>;
  createFileSystem(region: string, cluster: string, spec: { subnetId: string; securityGroupId: string; storageCapacityGiB: number; tags: Record<string, string> }): Promise<FileSystem>;
  describeFileSystem(region: string, id: string): Promise<FileSystem | undefined>;
  deleteFileSystem(region: string, id: string): Promise<void>;
}

// ── Kubernetes ───────────────────────────────────────────────────────────────────────────────────
export interface KubeObjectRef {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
}

/** An item of a Kubernetes list: lists leave out apiVersion and kind, and read code must not trust shapes. */
export interface ListedKubeObject {
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string>; creationTimestamp?: Date | string };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface KubePort {
  apply(objects: KubeObject[]): Promise<void>;
  /** The object, or undefined when it does not exist. */
  read(ref: KubeObjectRef): Promise<object | undefined>;
  delete(ref: KubeObjectRef): Promise<void>;
  /** Every object of a kind (all pages of `limit`, 500 by default; restarted when a continue token expires), optionally in one namespace and matching selectors. */
  list(apiVersion: string, kind: string, options?: { namespace?: string; labelSelector?: string; fieldSelector?: string; limit?: number }): Promise<ListedKubeObject[]>;
}

// ── everything together ──────────────────────────────────────────────────────────────────────────
export interface CloudPort {
  readonly defaultRegion: string;
  readonly network: NetworkPort;
  readonly teardown: NetworkTeardownPort;
  readonly iam: IamPort;
  readonly eks: EksPort;
  readonly hyperpod: HyperPodPort;
  readonly storage: StoragePort;
  readonly hyperpodGroups: HyperPodGroupsPort;
  readonly hyperpodNodes: HyperPodNodesPort;
  accountId(): Promise<string>;
  /** A Kubernetes client for an ACTIVE EKS cluster. */
  kube(region: string, eksClusterName: string): Promise<KubePort>;
}
