import type { ClusterInstanceGroupDetails } from '@aws-sdk/client-sagemaker';
import type { CloudPort } from '../cloud/ports.js';
import { NotFoundError } from '../domain/errors.js';
import { clusterTarget, eksClusterNameFor, instanceGroupTarget, resourceNames, TAG_MANAGED_BY } from '../domain/naming.js';
import type { ClusterDetail, ClusterSummary } from '../domain/schemas/clusters.js';
import type { InstanceGroupView } from '../domain/schemas/instance-groups.js';
import type { OperationView } from '../domain/schemas/operations.js';
import type { InstanceGroupSpec } from '../domain/instance-groups.js';
import type { ActiveClusterPort } from './context.js';
import { describeHyperPod } from './cluster-access.js';
import { groupSpecOf } from './instance-group-spec.js';

/** What the views need from the operation engine: the operation working on a target, and recent creates. */
export interface OperationsLookup {
  activeFor(target: string): OperationView | undefined;
  listRunning(kind: string): OperationView[];
}

const capacityTypeOf = (g: { TrainingPlanArn?: string; CapacityRequirements?: { Spot?: unknown } }): 'on-demand' | 'spot' | 'training-plan' =>
  g.TrainingPlanArn ? 'training-plan' : g.CapacityRequirements?.Spot ? 'spot' : 'on-demand';

/**
 * Read models of clusters: HyperPod (the source of truth) joined with EKS and with the operation
 * now working on each cluster. A cluster still in its network/EKS phases is not in HyperPod yet;
 * its create operation makes it visible as Creating so the user sees what they just asked for.
 */
export class ClusterViews {
  constructor(
    private readonly cloud: CloudPort,
    private readonly operations: OperationsLookup,
    private readonly activeCluster: ActiveClusterPort,
  ) {}

  async list(region: string): Promise<ClusterSummary[]> {
    const clusters = await this.cloud.hyperpod.list(region);
    const out: ClusterSummary[] = [];
    for (const c of clusters) {
      const tags = await this.cloud.hyperpod.tags(region, c.arn).catch(() => ({}) as Record<string, string>);
      out.push({
        name: c.name,
        region,
        status: c.status,
        clusterArn: c.arn,
        createdAt: c.createdAt?.toISOString(),
        managedByInstantStart: TAG_MANAGED_BY in tags,
        ...(TAG_MANAGED_BY in tags ? { eksClusterName: eksClusterNameFor(c.name) } : {}),
        ...this.operationOf(region, c.name),
      });
    }
    for (const op of this.operations.listRunning('create-cluster')) {
      const input = op.input as { name?: string; region?: string };
      if (input.region !== region || !input.name || out.some((c) => c.name === input.name)) continue;
      out.push({ name: input.name, region, status: 'Creating', managedByInstantStart: true, eksClusterName: eksClusterNameFor(input.name), createdAt: op.createdAt, ...this.operationOf(region, input.name) });
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  async get(region: string, name: string): Promise<ClusterDetail> {
    const hp = await this.cloud.hyperpod.describe(region, name);
    const op = this.operationOf(region, name);
    if (!hp && !op.activeOperation) throw new NotFoundError('HyperPod cluster', name, `HyperPod cluster '${name}' does not exist in ${region}.`);
    const tags = hp?.ClusterArn ? await this.cloud.hyperpod.tags(region, hp.ClusterArn).catch(() => ({}) as Record<string, string>) : {};
    const managed = !hp || TAG_MANAGED_BY in tags;
    const eksArn = hp?.Orchestrator?.Eks?.ClusterArn;
    const eksName = eksArn ? eksArn.split('/').pop()! : eksClusterNameFor(name);
    const eks = await this.cloud.eks.describeCluster(region, eksName);
    const active = this.activeCluster.get();
    let storage: ClusterDetail['storage'];
    if (managed) {
      const names = resourceNames(name, await this.cloud.accountId(), region);
      const [bucket, fs] = await Promise.all([this.cloud.storage.bucketExists(region, names.bucket), this.cloud.storage.findFileSystem(region, name)]);
      storage = {
        ...(bucket ? { s3Bucket: names.bucket, persistentVolumeClaim: `default/${names.persistentVolumeClaim}` } : {}),
        ...(fs ? { fsxFileSystemId: fs.FileSystemId } : {}),
      };
    }
    return {
      name,
      region,
      status: hp?.ClusterStatus ?? (op.activeOperation?.kind === 'delete-cluster' ? 'Deleting' : 'Creating'),
      clusterArn: hp?.ClusterArn,
      eksClusterName: eks?.name ?? (managed ? eksName : undefined),
      createdAt: hp?.CreationTime?.toISOString(),
      failureMessage: hp?.FailureMessage,
      managedByInstantStart: managed,
      ...op,
      eks: eks
        ? {
            name: eks.name!,
            arn: eks.arn!,
            status: eks.status!,
            version: eks.version,
            endpoint: eks.endpoint,
            vpcId: eks.resourcesVpcConfig?.vpcId,
            subnetIds: eks.resourcesVpcConfig?.subnetIds ?? [],
          }
        : undefined,
      nodeRecovery: hp?.NodeRecovery,
      nodeProvisioningMode: hp?.NodeProvisioningMode,
      instanceGroups: (hp?.InstanceGroups ?? []).map((g) => ({
        name: g.InstanceGroupName!,
        instanceType: g.InstanceType!,
        currentCount: g.CurrentCount ?? 0,
        targetCount: g.TargetCount ?? 0,
        status: g.Status ?? 'Unknown',
        capacityType: capacityTypeOf(g as { TrainingPlanArn?: string; CapacityRequirements?: { Spot?: unknown } }),
        ...(g.TrainingPlanArn ? { trainingPlanArn: g.TrainingPlanArn } : {}),
      })),
      storage,
      isActive: active?.name === name && active.region === region,
    };
  }

  /** The cluster's instance groups, each with the operation now working on it. */
  async instanceGroups(region: string, name: string): Promise<InstanceGroupView[]> {
    const hp = await describeHyperPod(this.cloud, region, name);
    return (hp.InstanceGroups ?? []).map((g) => {
      const op = this.operations.activeFor(instanceGroupTarget(region, name, g.InstanceGroupName!));
      return { ...instanceGroupView(g, hp.VpcConfig?.Subnets ?? []), ...(op ? { activeOperation: { id: op.id, kind: op.kind, status: op.status } } : {}) };
    });
  }

  /** One group in domain terms (what a change request is diffed against); undefined when it does not exist. */
  async groupSpec(region: string, name: string, group: string): Promise<InstanceGroupSpec | undefined> {
    const hp = await describeHyperPod(this.cloud, region, name);
    const details = hp.InstanceGroups?.find((g) => g.InstanceGroupName === group);
    return details ? groupSpecOf(details) : undefined;
  }

  private operationOf(region: string, name: string): Pick<ClusterSummary, 'activeOperation'> {
    const op = this.operations.activeFor(clusterTarget(region, name));
    return op ? { activeOperation: { id: op.id, kind: op.kind, status: op.status, ...(op.currentPhase ? { currentPhase: op.currentPhase } : {}) } } : {};
  }
}

/** One group as the API shows it, from HyperPod's description (the source of truth). */
export function instanceGroupView(g: ClusterInstanceGroupDetails, clusterSubnets: string[]): InstanceGroupView {
  const k = g.KubernetesConfig;
  return {
    name: g.InstanceGroupName!,
    instanceType: g.InstanceType ?? 'unknown',
    status: g.Status ?? 'Unknown',
    currentCount: g.CurrentCount ?? 0,
    targetCount: g.TargetCount ?? 0,
    ...(g.MinCount !== undefined ? { minCount: g.MinCount } : {}),
    capacityType: capacityTypeOf(g as { TrainingPlanArn?: string; CapacityRequirements?: { Spot?: unknown } }),
    ...(g.TrainingPlanArn ? { trainingPlanArn: g.TrainingPlanArn } : {}),
    ...((g as { NetworkInterface?: { InterfaceType?: 'efa' | 'efa-only' } }).NetworkInterface?.InterfaceType
      ? { networkInterface: (g as { NetworkInterface: { InterfaceType: 'efa' | 'efa-only' } }).NetworkInterface.InterfaceType }
      : {}),
    ...(g.ThreadsPerCore ? { threadsPerCore: g.ThreadsPerCore } : {}),
    deepHealthChecks: (g.OnStartDeepHealthChecks?.length ?? 0) > 0,
    subnetIds: g.OverrideVpcConfig?.Subnets ?? clusterSubnets,
    labels: k?.DesiredLabels ?? k?.CurrentLabels ?? {},
    taints: (k?.DesiredTaints ?? k?.CurrentTaints ?? []).map((t) => ({ key: t.Key!, ...(t.Value !== undefined ? { value: t.Value } : {}), effect: t.Effect! })),
  };
}
