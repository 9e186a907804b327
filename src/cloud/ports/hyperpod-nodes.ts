/**
 * A HyperPod cluster's nodes: ListClusterNodes, DescribeClusterNode, ListClusterEvents and the Batch*
 * node actions. The answers keep SageMaker's member names (PascalCase) for the members the product
 * reads; value lists are those of @aws-sdk/client-sagemaker 3.1142.0, open to values AWS adds later.
 */

/** `ClusterInstanceStatus` (client-sagemaker 3.1142.0): what HyperPod says of an instance. */
export type HyperPodInstanceStatus =
  | 'Running'
  | 'Failure'
  | 'Pending'
  | 'ShuttingDown'
  | 'SystemUpdating'
  | 'DeepHealthCheckInProgress'
  | 'NotFound'
  | (string & {});

/** One node as ListClusterNodes lists it (ClusterNodeSummary). */
export interface HyperPodNode {
  InstanceGroupName?: string;
  InstanceId?: string;
  /** The node's id before it has an instance (Continuous provisioning). */
  NodeLogicalId?: string;
  InstanceType?: string;
  LaunchTime?: Date;
  InstanceStatus?: { Status?: HyperPodInstanceStatus; Message?: string };
}

/** One node as DescribeClusterNode describes it (ClusterNodeDetails): the summary's members and where it runs. */
export interface HyperPodNodeDetails extends HyperPodNode {
  Placement?: { AvailabilityZone?: string; AvailabilityZoneId?: string };
  PrivatePrimaryIp?: string;
}

/** One event as ListClusterEvents answers it (ClusterEventSummary). */
export interface HyperPodEvent {
  EventId?: string;
  InstanceGroupName?: string;
  InstanceId?: string;
  /** `Cluster`, `InstanceGroup` or `Instance` (ClusterEventResourceType). */
  ResourceType?: 'Cluster' | 'InstanceGroup' | 'Instance' | (string & {});
  EventTime?: Date;
  Description?: string;
  /** `Info`, `Warn` or `Error` (ClusterEventLevel). */
  EventLevel?: 'Info' | 'Warn' | 'Error' | (string & {});
}

/** One node's outcome of a Batch* node action. */
export interface NodeActionResult {
  nodeId: string;
  ok: boolean;
  code?: string;
  message?: string;
}

export interface HyperPodNodesPort {
  /** ListClusterEvents, newest first (Continuous-mode clusters only). */
  events(
    region: string,
    cluster: string,
    options?: { nodeId?: string; groupName?: string; nextToken?: string; maxResults?: number },
  ): Promise<{ events: HyperPodEvent[]; nextToken?: string }>;
  /** Every node of the cluster (all pages of ListClusterNodes). */
  listAll(region: string, cluster: string, groupName?: string): Promise<HyperPodNode[]>;
  /** DescribeClusterNode; undefined when HyperPod does not know the node. */
  describe(region: string, cluster: string, nodeId: string): Promise<HyperPodNodeDetails | undefined>;
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
