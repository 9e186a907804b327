import type { PricingPort } from '../../../../cloud/ports.js';
import { BASE_EKS_ADDONS, createClusterDependencyFeatures } from '../../../../domain/cluster-dependencies.js';
import { eksClusterRole, hyperpodExecutionRole, type RoleDefinition } from '../../../../domain/cluster-roles.js';
import { InputError } from '../../../../domain/errors.js';
import { featureDefinition, featureRoleName } from '../../../../domain/features/registry.js';
import type { FeatureId } from '../../../../domain/schemas/features.js';
import { hourlyCost, type CostItem } from '../../../../domain/hourly-cost.js';
import { chooseKubernetesVersion } from '../../../../domain/kubernetes-versions.js';
import { resourceNames, type ClusterResourceNames } from '../../../../domain/naming.js';
import type { HourlyCost, PlannedMutation } from '../../../../domain/schemas/plans.js';
import type { WorkflowDeps } from '../../../../workflows/context.js';
import { initialInstanceGroup } from './hyperpod-phase.js';
import { networkPlan } from './network-phase.js';
import type { CreateClusterInput } from './types.js';

/**
 * The plan of a create-cluster (POST /api/v1/clusters/plan): what each of the workflow's phases would make,
 * phase by phase in the workflow's own order (createClusterWorkflow's `phases`), from the same domain
 * functions the phases call — the network plan (planBaseNetwork + placeComputeSubnet through `networkPlan`),
 * the role definitions, the EKS base add-ons, the default features of the registry, the first instance
 * group's specification and the storage names. It reads (STS, EC2 zones and the cluster's network, EKS
 * versions, the Price List) and changes nothing.
 */
export interface CreatePlanFacts {
  input: CreateClusterInput;
  names: ClusterResourceNames;
  accountId: string;
  zones: string[];
  kubernetesVersion: string | undefined;
  network: ReturnType<typeof networkPlan>;
  features: FeatureId[];
}

type Mutation = Omit<PlannedMutation, 'phase' | 'phaseTitle'>;
type PhasePlanner = (f: CreatePlanFacts) => Mutation[];

const m = (service: string, operation: string, resource: string, name?: string, details?: Record<string, string>) => ({
  service,
  operation,
  resource,
  ...(name !== undefined ? { name } : {}),
  ...(details ? { details } : {}),
});

/** What `IamRoles.ensure` does for a role: the role with its trust, then its managed and inline policies. */
function roleMutations(role: RoleDefinition): Mutation[] {
  return [
    m('iam', 'CreateRole', 'IAM role', role.roleName, {
      trustedBy: role.trustedServices.join(', ') || 'see trust policy',
    }),
    ...role.managedPolicyArns.map((arn) =>
      m('iam', 'AttachRolePolicy', 'IAM policy attachment', role.roleName, { policy: arn }),
    ),
    ...Object.keys(role.inlinePolicies ?? {}).map((p) =>
      m('iam', 'PutRolePolicy', 'IAM inline policy', role.roleName, { policy: p }),
    ),
  ];
}

/** The network adapter's order (src/cloud/aws/network.ts → ensure) over the subnets `networkPlan` chose. */
const network: PhasePlanner = ({ input, network: plan, zones }) => {
  const subnets = plan.subnets;
  return [
    m('ec2', 'CreateVpc', 'VPC', `${input.name}-vpc`, { cidr: plan.vpcCidr }),
    ...subnets.map((s) =>
      m('ec2', 'CreateSubnet', 'subnet', `${input.name}-${s.role}`, { cidr: s.cidr, zone: s.zone, role: s.role }),
    ),
    m('ec2', 'CreateInternetGateway', 'internet gateway', `${input.name}-igw`),
    m('ec2', 'AttachInternetGateway', 'internet gateway attachment', `${input.name}-igw`),
    m('ec2', 'AllocateAddress', 'Elastic IP address', `${input.name}-nat-ip`),
    m('ec2', 'CreateNatGateway', 'NAT gateway', `${input.name}-nat`, { zone: zones[0]!, subnet: 'public' }),
    m('ec2', 'CreateRouteTable', 'route table', `${input.name}-public-routes`),
    m('ec2', 'CreateRoute', 'route', `${input.name}-public-routes`, {
      destination: '0.0.0.0/0',
      target: 'internet gateway',
    }),
    m('ec2', 'CreateRouteTable', 'route table', `${input.name}-private-routes`),
    m('ec2', 'CreateRoute', 'route', `${input.name}-private-routes`, {
      destination: '0.0.0.0/0',
      target: 'NAT gateway',
    }),
    ...subnets.map((s) =>
      m(
        'ec2',
        'AssociateRouteTable',
        'route table association',
        `${input.name}-${s.role === 'public' ? 'public' : 'private'}-routes`,
        {
          subnet: s.cidr,
        },
      ),
    ),
    m('ec2', 'CreateSecurityGroup', 'security group', `${input.name}-nodes`, { rules: 'all traffic within the group' }),
    m('ec2', 'CreateVpcEndpoint', 'S3 gateway endpoint', `${input.name}-s3-endpoint`, {
      service: `com.amazonaws.${input.region}.s3`,
    }),
  ];
};

const eksArn = (f: CreatePlanFacts) => `arn:aws:eks:${f.input.region}:${f.accountId}:cluster/${f.names.eksCluster}`;

/** Each phase of create-cluster by its name; a phase missing here fails the plan (and its test). */
export const CREATE_PHASE_PLANNERS: Record<string, PhasePlanner> = {
  network,
  'nat-ready': () => [],
  iam: (f) => [...roleMutations(eksClusterRole(f.names)), ...roleMutations(hyperpodExecutionRole(f.names, eksArn(f)))],
  eks: (f) => [
    m('eks', 'CreateCluster', 'EKS cluster', f.names.eksCluster, {
      kubernetesVersion: f.kubernetesVersion ?? 'chosen at create',
      subnets: [...f.network.subnets.filter((s) => s.role !== 'public').map((s) => s.cidr)].join(', '),
    }),
  ],
  'eks-addons': (f) =>
    BASE_EKS_ADDONS.map((a) => m('eks', 'CreateAddon', 'EKS add-on', a, { cluster: f.names.eksCluster })),
  'active-cluster': (f) => [m('instantstart', 'SelectActiveCluster', 'setting', f.input.name)],
  dependencies: (f) =>
    f.features.flatMap((id) => {
      const def = featureDefinition(id);
      const roles = def.identities.map((i) =>
        m('iam', 'CreateRole', 'IAM role', featureRoleName(f.input.name, f.input.region, i), { for: def.title }),
      );
      const installs = def.installs.flatMap((install): Mutation[] => {
        switch (install.kind) {
          case 'eks-addon':
            return [m('eks', 'CreateAddon', 'EKS add-on', install.addonName, { feature: def.title })];
          case 'manifests':
            return [m('kubernetes', 'apply', 'manifests', def.title, { source: install.source })];
          case 's3-bucket':
            return [m('s3', 'CreateBucket', 'S3 bucket', install.purpose, { feature: def.title })];
          case 'subnet-tags':
            return [
              m('ec2', 'CreateTags', 'subnet tags', `${install.subnets} subnets`, { [install.key]: install.value }),
            ];
          case 'cluster-setting':
            return [];
        }
      });
      return [...roles, ...installs];
    }),
  hyperpod: (f) => {
    const group = initialInstanceGroup(
      f.input,
      `arn:aws:iam::${f.accountId}:role/${f.names.executionRole}`,
      f.names.initialGroup,
    );
    return [
      m('sagemaker', 'CreateCluster', 'HyperPod cluster', f.names.hyperpodCluster, {
        orchestrator: f.names.eksCluster,
        nodeRecovery: 'Automatic',
        instanceGroup: `${group.InstanceGroupName}: ${group.InstanceCount} × ${group.InstanceType} (${f.input.capacityType}) in ${f.input.availabilityZone}`,
        executionRole: f.names.executionRole,
        subnet: f.network.subnets.find((s) => s.role === 'compute')?.cidr ?? '',
      }),
    ];
  },
  storage: (f) => [
    ...(f.input.storage.s3
      ? [
          m('s3', 'CreateBucket', 'S3 bucket', f.names.bucket),
          m('kubernetes', 'apply', 'PersistentVolume and claim', `default/${f.names.persistentVolumeClaim}`, {
            bucket: f.names.bucket,
          }),
        ]
      : []),
    ...(f.input.storage.fsxLustre
      ? [
          m('fsx', 'CreateFileSystem', 'FSx for Lustre file system', `${f.input.name}-fsx`, {
            storageGiB: String(f.input.storage.fsxLustre.storageCapacityGiB),
            deployment: 'PERSISTENT_2, 250 MB/s/TiB',
            zone: f.input.availabilityZone,
          }),
          m('kubernetes', 'apply', 'PersistentVolume and claim', `default/${f.names.fsxPersistentVolumeClaim}`),
        ]
      : []),
  ],
};

/** The mutations of every phase the workflow declares, in its order. */
export function plannedMutations(
  phases: ReadonlyArray<{ name: string; title: string; appliesTo?: (input: CreateClusterInput) => boolean }>,
  facts: CreatePlanFacts,
): PlannedMutation[] {
  return phases
    .filter((p) => !p.appliesTo || p.appliesTo(facts.input))
    .flatMap((p) => {
      const planner = Object.hasOwn(CREATE_PHASE_PLANNERS, p.name) ? CREATE_PHASE_PLANNERS[p.name] : undefined;
      if (!planner) throw new Error(`create-cluster phase ${p.name} has no planner (create-cluster/plan.ts)`);
      return planner(facts).map((x) => ({ phase: p.name, phaseTitle: p.title, ...x }));
    });
}

/** The facts the planners need, read without changing anything (the same reads the phases make first). */
export async function createPlanFacts(deps: WorkflowDeps, input: CreateClusterInput): Promise<CreatePlanFacts> {
  const [accountId, available, existing, versions] = await Promise.all([
    deps.cloud.accountId(),
    deps.cloud.network.availableZones(input.region),
    deps.cloud.network.find(input.region, input.name),
    input.kubernetesVersion ? Promise.resolve([]) : deps.cloud.eks.clusterVersions(input.region),
  ]);
  if (!available.includes(input.availabilityZone))
    throw InputError.field(
      'availabilityZone',
      `${input.availabilityZone} is not an available zone of ${input.region} (available: ${available.join(', ')})`,
    );
  const other = available.find((z) => z !== input.availabilityZone);
  if (!other)
    throw InputError.field(
      'availabilityZone',
      `${input.region} has no second available zone; EKS needs subnets in two zones`,
    );
  const zones = [input.availabilityZone, other];
  return {
    input,
    accountId,
    names: resourceNames(input.name, accountId, input.region),
    zones,
    kubernetesVersion: input.kubernetesVersion ?? chooseKubernetesVersion(versions),
    network: networkPlan(zones, existing),
    features: createClusterDependencyFeatures({ s3: input.storage.s3, fsx: Boolean(input.storage.fsxLustre) }),
  };
}

/** What the cluster would cost per hour once made: its instances, the EKS cluster, the NAT gateway, FSx if asked. */
export async function createCost(pricing: PricingPort, input: CreateClusterInput): Promise<HourlyCost> {
  const region = input.region;
  const fsx = input.storage.fsxLustre;
  const [instance, eks, nat, lustre] = await Promise.all([
    input.capacityType === 'training-plan'
      ? Promise.resolve(undefined)
      : pricing.price(region, { kind: 'hyperpod-instance', instanceType: input.instanceType }),
    pricing.price(region, { kind: 'eks-cluster' }),
    pricing.price(region, { kind: 'nat-gateway' }),
    fsx ? pricing.price(region, { kind: 'fsx-lustre-storage' }) : Promise.resolve(undefined),
  ]);
  const items: CostItem[] = [
    {
      item: 'hyperpod-instance',
      description: `${input.instanceCount} × ${input.instanceType} (${input.capacityType === 'spot' ? 'spot: on-demand price shown, spot bills less' : input.capacityType})`,
      quantity: input.instanceCount,
      price: instance,
      ...(input.capacityType === 'training-plan' ? { missing: 'paid up front with the training plan' } : {}),
    },
    { item: 'eks-cluster', description: 'EKS cluster (standard support)', quantity: 1, price: eks },
    { item: 'nat-gateway', description: 'NAT gateway (hours; data processed billed apart)', quantity: 1, price: nat },
    ...(fsx
      ? [
          {
            item: 'fsx-lustre-storage' as const,
            description: `FSx for Lustre, ${fsx.storageCapacityGiB} GiB (per GiB-month ÷ 730 h)`,
            quantity: fsx.storageCapacityGiB,
            price: lustre,
          },
        ]
      : []),
  ];
  return hourlyCost(items);
}
