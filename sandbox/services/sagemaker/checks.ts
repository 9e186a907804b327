import { findInstanceType, zonesOffering } from '../../catalog/instance-types.js';
import type { SandboxState } from '../../core/store.js';
import { getSecurityGroup, getSubnet } from '../ec2/public.js';
import { getEksCluster, type EksClusterView } from '../eks/public.js';
import { findRole, roleTrustsService } from '../iam/public.js';
import { bucketExists, objectExists } from '../s3/public.js';
import { validation } from './errors.js';
import type { GroupSpecInput } from './schemas.js';
import { clustersIn, type StoredVpcConfig } from './state.js';
import { findTrainingPlan } from './training-plans/public.js';

/**
 * The checks HyperPod makes against other services before it accepts a cluster or instance group:
 * the EKS cluster, the VPC (private subnets in the EKS cluster's VPC), the IAM roles and their trust,
 * the lifecycle scripts in S3, the catalogue, and training plans. Each throws ValidationException
 * naming the field; none changes anything.
 */

/** The EKS orchestrator: an ACTIVE cluster whose authentication mode lets HyperPod add access entries. */
export function checkEksCluster(
  state: SandboxState,
  region: string,
  clusterArn: string,
  ownName: string,
): EksClusterView {
  const eks = getEksCluster(state, region, clusterArn);
  if (!eks || eks.arn !== clusterArn) {
    throw validation(`The EKS cluster '${clusterArn}' in Orchestrator.Eks.ClusterArn does not exist in ${region}.`);
  }
  if (eks.status !== 'ACTIVE') {
    throw validation(
      `The EKS cluster '${eks.name}' in Orchestrator.Eks.ClusterArn is ${eks.status}; HyperPod needs an ACTIVE cluster.`,
    );
  }
  if (eks.authenticationMode !== 'API' && eks.authenticationMode !== 'API_AND_CONFIG_MAP') {
    throw validation(
      `The EKS cluster '${eks.name}' in Orchestrator.Eks.ClusterArn uses authentication mode ${eks.authenticationMode}; HyperPod needs API or API_AND_CONFIG_MAP to create access entries.`,
    );
  }
  const other = clustersIn(state, region).find((c) => c.eksClusterArn === clusterArn && c.name !== ownName);
  if (other)
    throw validation(`The EKS cluster '${eks.name}' is already the orchestrator of HyperPod cluster '${other.name}'.`);
  return eks;
}

/** Subnets that exist, are private and lie in the EKS cluster's VPC; security groups of that VPC. */
export function checkVpcConfig(
  state: SandboxState,
  region: string,
  vpc: StoredVpcConfig,
  vpcId: string,
  field: string,
): void {
  for (const subnetId of vpc.Subnets) {
    const subnet = getSubnet(state, region, subnetId);
    if (!subnet) throw validation(`The subnet '${subnetId}' in ${field}.Subnets does not exist.`);
    if (subnet.vpcId !== vpcId) {
      throw validation(
        `The subnet '${subnetId}' in ${field}.Subnets is in ${subnet.vpcId}, not in the EKS cluster's VPC ${vpcId}.`,
      );
    }
    if (subnet.isPublic) {
      throw validation(
        `The subnet '${subnetId}' in ${field}.Subnets is public (its route table sends 0.0.0.0/0 to an internet gateway). HyperPod clusters orchestrated by EKS need private subnets with a NAT gateway or VPC endpoints.`,
      );
    }
  }
  for (const groupId of vpc.SecurityGroupIds) {
    const sg = getSecurityGroup(state, region, groupId);
    if (!sg) throw validation(`The security group '${groupId}' in ${field}.SecurityGroupIds does not exist.`);
    if (sg.vpcId !== vpcId)
      throw validation(
        `The security group '${groupId}' in ${field}.SecurityGroupIds is in ${sg.vpcId}, not in ${vpcId}.`,
      );
  }
}

/** A role that exists and lets `principal` assume it. */
export function checkRole(state: SandboxState, roleArn: string, principal: string, field: string): void {
  const role = findRole(state, roleArn);
  if (!role || role.arn !== roleArn) throw validation(`The role '${roleArn}' in ${field} does not exist.`);
  if (!roleTrustsService(role, principal)) {
    throw validation(
      `The role '${roleArn}' in ${field} cannot be assumed by ${principal}: its trust policy does not allow that principal sts:AssumeRole.`,
    );
  }
}

/** `s3://bucket/prefix` or `https://bucket.s3.<region>.amazonaws.com/prefix`. */
function parseS3Uri(uri: string): { bucket: string; prefix: string } {
  const m = /^(https|s3):\/\/([^/]+)\/?(.*)$/.exec(uri)!;
  const host = m[2]!;
  const bucket = m[1] === 's3' ? host : host.split('.s3')[0]!;
  return { bucket, prefix: m[3]!.replace(/\/+$/, '') };
}

/**
 * Static and reference checks of one instance-group specification; returns the subnets and
 * security groups its nodes use. `trainingPlanDelta` is how many more plan instances it needs.
 */
export function checkGroupSpec(
  state: SandboxState,
  region: string,
  spec: GroupSpecInput,
  env: { clusterVpc: StoredVpcConfig; vpcId: string; continuous: boolean; trainingPlanDelta: number },
): { subnets: string[]; securityGroupIds: string[] } {
  const name = spec.InstanceGroupName;
  if (spec.InstanceRequirements) {
    throw validation(
      `InstanceRequirements (flexible instance groups) is not supported by the sandbox; give instance group '${name}' an InstanceType.`,
    );
  }
  if (!spec.InstanceType) throw validation(`InstanceType is required for instance group '${name}'.`);
  if (spec.SlurmConfig)
    throw validation(`SlurmConfig of instance group '${name}' is only valid for clusters orchestrated by Slurm.`);
  if (spec.MinInstanceCount !== undefined && spec.MinInstanceCount > spec.InstanceCount) {
    throw validation(
      `MinInstanceCount (${spec.MinInstanceCount}) must be less than or equal to InstanceCount (${spec.InstanceCount}) for instance group '${name}'.`,
    );
  }
  const type = spec.InstanceType;
  const info = findInstanceType(type);
  if (!info || !info.hyperpod || zonesOffering(region, type).length === 0) {
    throw validation(
      `The instance type ${type} of instance group '${name}' is not supported for SageMaker HyperPod clusters in ${region}.`,
    );
  }
  if (spec.ThreadsPerCore !== undefined && !info.validThreadsPerCore.includes(spec.ThreadsPerCore)) {
    throw validation(
      `ThreadsPerCore ${spec.ThreadsPerCore} is not valid for ${type} (instance group '${name}'); valid values: ${info.validThreadsPerCore.join(', ')}.`,
    );
  }
  const capacity = spec.CapacityRequirements;
  if (capacity?.Spot && capacity.OnDemand)
    throw validation(
      `CapacityRequirements of instance group '${name}' must specify either Spot or OnDemand, not both.`,
    );
  if (capacity?.Spot && !env.continuous) {
    throw validation(
      `CapacityRequirements.Spot (instance group '${name}') requires the cluster's NodeProvisioningMode to be Continuous.`,
    );
  }
  const iface = spec.NetworkInterface?.InterfaceType;
  if (iface && !info.efaSupported) {
    throw validation(
      `NetworkInterface.InterfaceType '${iface}' of instance group '${name}' needs an EFA-capable instance type; ${type} does not support EFA.`,
    );
  }
  for (const storage of spec.InstanceStorageConfigs ?? []) {
    const members = Object.keys(storage).filter((k) => (storage as Record<string, unknown>)[k] !== undefined);
    if (members.length !== 1)
      throw validation(
        `Each InstanceStorageConfigs entry of instance group '${name}' must set exactly one of EbsVolumeConfig, FsxLustreConfig, FsxOpenZfsConfig.`,
      );
    const ebs = storage.EbsVolumeConfig;
    if (ebs?.RootVolume && (!ebs.VolumeKmsKeyId || ebs.VolumeSizeInGB !== undefined)) {
      throw validation(
        `EbsVolumeConfig with RootVolume true (instance group '${name}') needs VolumeKmsKeyId and must not set VolumeSizeInGB.`,
      );
    }
  }
  const vpc = spec.OverrideVpcConfig ?? env.clusterVpc;
  if (spec.OverrideVpcConfig)
    checkVpcConfig(state, region, spec.OverrideVpcConfig, env.vpcId, `InstanceGroups '${name}' OverrideVpcConfig`);
  checkRole(state, spec.ExecutionRole, 'sagemaker.amazonaws.com', `ExecutionRole of instance group '${name}'`);

  const source = spec.LifeCycleConfig?.SourceS3Uri;
  if (source) {
    const { bucket, prefix } = parseS3Uri(source);
    if (!bucketExists(state, bucket))
      throw validation(
        `The S3 bucket '${bucket}' of LifeCycleConfig.SourceS3Uri (instance group '${name}') does not exist.`,
      );
    for (const script of [spec.LifeCycleConfig?.OnCreate, spec.LifeCycleConfig?.OnInitComplete]) {
      if (!script) continue;
      const key = prefix ? `${prefix}/${script}` : script;
      if (!objectExists(state, bucket, key)) {
        throw validation(
          `The lifecycle script s3://${bucket}/${key} (LifeCycleConfig of instance group '${name}') does not exist.`,
        );
      }
    }
  }

  if (spec.TrainingPlanArn) {
    const plan = findTrainingPlan(state, region, spec.TrainingPlanArn);
    if (!plan || plan.trainingPlanArn !== spec.TrainingPlanArn)
      throw validation(`The training plan '${spec.TrainingPlanArn}' of instance group '${name}' does not exist.`);
    if (plan.status !== 'Scheduled' && plan.status !== 'Active') {
      throw validation(
        `The training plan '${plan.name}' of instance group '${name}' is ${plan.status}; it must be Scheduled or Active.`,
      );
    }
    if (plan.instanceType !== type)
      throw validation(
        `The training plan '${plan.name}' reserves ${plan.instanceType}, but instance group '${name}' uses ${type}.`,
      );
    const zones = vpc.Subnets.map((id) => getSubnet(state, region, id)?.availabilityZone);
    if (!zones.includes(plan.availabilityZone)) {
      throw validation(
        `The training plan '${plan.name}' reserves capacity in ${plan.availabilityZone}, but no subnet of instance group '${name}' is in that Availability Zone.`,
      );
    }
    if (env.trainingPlanDelta > plan.availableInstanceCount) {
      throw validation(
        `The training plan '${plan.name}' has ${plan.availableInstanceCount} available instances; instance group '${name}' needs ${env.trainingPlanDelta} more.`,
      );
    }
  }
  return { subnets: [...vpc.Subnets], securityGroupIds: [...vpc.SecurityGroupIds] };
}
