import { keyed } from '../../core/keyed.js';
import { z } from 'zod';
import { findEksVersion, DEFAULT_EKS_VERSION } from '../../catalog/eks-versions.js';
import { lookupClientToken, rememberClientToken } from '../../core/idempotency.js';
import { arn, hexId, unitHash } from '../../core/ids.js';
import type { RequestContext } from '../../core/service.js';
import { validateInput } from '../../core/validation.js';
import {
  createManagedSecurityGroup,
  createNetworkInterface,
  deleteManagedSecurityGroup,
  deleteNetworkInterface,
} from '../ec2/public.js';
import { findRole, roleTrustsService } from '../iam/public.js';
import { newAccessEntry } from './access-model.js';
import { CLUSTER_ADMIN_POLICY_ARN } from '../../catalog/eks-access-policies.js';
import { checkClusterNetwork, checkServiceCidr, defaultServiceCidr } from './cluster-network.js';
import { clientError, inUse, invalidParameter } from './errors.js';
import { tagsSchema } from './paging.js';
import { renderCluster } from './render.js';
import { AUTH_MODES, clusterName, loggingSchema, normaliseLogging } from './schemas.js';
import { eksRegion, type StoredCluster } from './state.js';

const MINUTE = 60_000;

const createClusterSchema = z.object({
  name: clusterName,
  roleArn: z.string().min(1),
  resourcesVpcConfig: z.object({
    subnetIds: z.array(z.string()).optional(),
    securityGroupIds: z.array(z.string()).optional(),
    endpointPublicAccess: z.boolean().optional(),
    endpointPrivateAccess: z.boolean().optional(),
    publicAccessCidrs: z.array(z.string()).optional(),
  }),
  version: z.string().optional(),
  kubernetesNetworkConfig: z
    .object({ serviceIpv4Cidr: z.string().optional(), ipFamily: z.enum(['ipv4', 'ipv6']).optional() })
    .optional(),
  logging: loggingSchema.optional(),
  clientRequestToken: z.string().min(1).optional(),
  tags: tagsSchema,
  accessConfig: z
    .object({
      bootstrapClusterCreatorAdminPermissions: z.boolean().optional(),
      authenticationMode: z.enum(AUTH_MODES).optional(),
    })
    .optional(),
  upgradePolicy: z.object({ supportType: z.enum(['STANDARD', 'EXTENDED']).optional() }).optional(),
  bootstrapSelfManagedAddons: z.boolean().optional(),
  zonalShiftConfig: z.object({ enabled: z.boolean().optional() }).optional(),
  deletionProtection: z.boolean().optional(),
  controlPlaneScalingConfig: z
    .object({ tier: z.enum(['standard', 'tier-xl', 'tier-2xl', 'tier-4xl', 'tier-8xl']).optional() })
    .optional(),
});

/** Features the sandbox does not emulate: refused by name rather than silently ignored. */
const NOT_EMULATED: Record<string, string> = {
  encryptionConfig: 'envelope encryption with KMS',
  outpostConfig: 'EKS on Outposts',
  remoteNetworkConfig: 'hybrid nodes',
  computeConfig: 'EKS Auto Mode',
  storageConfig: 'EKS Auto Mode',
  kubeApiServerConfig: 'control-plane component configuration',
  kubeSchedulerConfig: 'control-plane component configuration',
  kubeControllerManagerConfig: 'control-plane component configuration',
};

/** An assumed-role session ARN becomes its role ARN, as EKS records the cluster creator. */
export function creatorPrincipalArn(callerArn: string): string {
  const m = /^arn:(aws[a-z-]*):sts::(\d{12}):assumed-role\/([^/]+)\/.+$/.exec(callerArn);
  return m ? `arn:${m[1]}:iam::${m[2]}:role/${m[3]}` : callerArn;
}

export function createCluster(input: unknown, ctx: RequestContext) {
  const req = validateInput(createClusterSchema, input, { style: 'coral', code: 'InvalidParameterException' });
  const regionState = eksRegion(ctx.state, ctx.region);
  const mismatch = () =>
    clientError('The clientRequestToken was already used for a different CreateCluster request.', {
      clusterName: req.name,
    });
  const earlier = lookupClientToken(ctx, req.clientRequestToken, input, mismatch);
  const repeated = earlier ? keyed.get(regionState.clusters, earlier) : undefined;
  if (repeated) return { cluster: renderCluster(repeated, ctx.region, ctx.runtime) };
  if (keyed.get(regionState.clusters, req.name))
    throw inUse(`Cluster already exists with name: ${req.name}`, { clusterName: req.name });

  for (const [field, feature] of Object.entries(NOT_EMULATED)) {
    if ((input as Record<string, unknown>)[field] !== undefined)
      throw invalidParameter(`${field}: the sandbox does not emulate ${feature}.`, { clusterName: req.name });
  }
  const version = req.version ?? DEFAULT_EKS_VERSION;
  const versionInfo = findEksVersion(version);
  if (!versionInfo || versionInfo.versionStatus === 'UNSUPPORTED') {
    throw invalidParameter(`unsupported Kubernetes version ${version}`, { clusterName: req.name });
  }
  const role = findRole(ctx.state, req.roleArn);
  if (!role || !req.roleArn.startsWith('arn:'))
    throw invalidParameter(`Role with arn: ${req.roleArn}, does not exist or is not an IAM role ARN (roleArn).`, {
      clusterName: req.name,
    });
  if (!roleTrustsService(role, 'eks.amazonaws.com')) {
    throw invalidParameter(
      `Role ${role.arn} cannot be assumed by the EKS service: its trust policy does not allow eks.amazonaws.com to sts:AssumeRole.`,
      { clusterName: req.name },
    );
  }
  const vpcReq = req.resourcesVpcConfig;
  const net = checkClusterNetwork(ctx.state, ctx.region, vpcReq.subnetIds ?? [], vpcReq.securityGroupIds ?? []);
  if (req.kubernetesNetworkConfig?.ipFamily === 'ipv6') {
    throw invalidParameter(
      'kubernetesNetworkConfig.ipFamily ipv6 needs IPv6 CIDRs on the VPC and subnets, which the sandbox VPCs do not have.',
      { clusterName: req.name },
    );
  }
  const serviceCidr = req.kubernetesNetworkConfig?.serviceIpv4Cidr ?? defaultServiceCidr(net.vpcCidr);
  checkServiceCidr(serviceCidr, net.vpcCidr);
  const authenticationMode = req.accessConfig?.authenticationMode ?? 'CONFIG_MAP';
  const bootstrapAdmin = req.accessConfig?.bootstrapClusterCreatorAdminPermissions ?? true;
  if (authenticationMode === 'CONFIG_MAP' && !bootstrapAdmin) {
    throw invalidParameter(
      'bootstrapClusterCreatorAdminPermissions must be true if cluster authentication mode is set to CONFIG_MAP',
      { clusterName: req.name },
    );
  }
  const publicAccessCidrs = vpcReq.publicAccessCidrs ?? ['0.0.0.0/0'];
  const endpointPublicAccess = vpcReq.endpointPublicAccess ?? true;
  const endpointPrivateAccess = vpcReq.endpointPrivateAccess ?? false;
  if (!endpointPublicAccess && !endpointPrivateAccess) {
    throw invalidParameter('resourcesVpcConfig: endpointPublicAccess and endpointPrivateAccess cannot both be false.', {
      clusterName: req.name,
    });
  }

  // Everything is checked: from here on the request succeeds.
  const now = ctx.now();
  const sgDigits = String(Math.floor(unitHash(`${ctx.region}:${req.name}:${now}`) * 1e10)).padStart(10, '0');
  const sgName = `eks-cluster-sg-${req.name}-${sgDigits}`;
  const clusterSg = createManagedSecurityGroup(ctx.state, ctx.region, {
    vpcId: net.vpcId,
    groupName: sgName,
    description:
      'EKS created security group applied to ENI that is attached to EKS Control Plane master nodes, as well as any managed workloads.',
    selfReferencing: true,
    tags: { Name: sgName, 'aws:eks:cluster-name': req.name, [`kubernetes.io/cluster/${req.name}`]: 'owned' },
  });
  const eniIds: string[] = [];
  try {
    for (const subnet of net.eniSubnets) {
      const eni = createNetworkInterface(ctx.state, ctx.region, {
        subnetId: subnet.subnetId,
        groupIds: [clusterSg, ...net.securityGroupIds],
        description: `Amazon EKS ${req.name}`,
        requesterId: 'amazon-eks',
      });
      eniIds.push(eni.networkInterfaceId);
    }
  } catch (err) {
    // A subnet filled up between the check and now: undo, so a failed request leaves nothing behind.
    for (const id of eniIds) deleteNetworkInterface(ctx.state, ctx.region, id);
    deleteManagedSecurityGroup(ctx.state, ctx.region, clusterSg);
    throw err;
  }

  const failureMessage = ctx.runtime.faults.takeCreateFailure('eks', req.name);
  const cluster: StoredCluster = {
    name: req.name,
    arn: arn('eks', ctx.region, ctx.accountId, `cluster/${req.name}`),
    version,
    platformVersion: versionInfo.platformVersion,
    roleArn: role.arn,
    status: 'CREATING',
    createdAt: now,
    readyAt: now + Math.round((8 + 4 * unitHash(req.name)) * MINUTE),
    ...(failureMessage ? { failureMessage } : {}),
    endpointId: hexId(32).toUpperCase(),
    oidcId: hexId(32).toUpperCase(),
    vpcId: net.vpcId,
    subnetIds: net.subnets.map((s) => s.subnetId),
    securityGroupIds: net.securityGroupIds,
    clusterSecurityGroupId: clusterSg,
    controlPlaneEniIds: eniIds,
    endpointPublicAccess,
    endpointPrivateAccess,
    publicAccessCidrs,
    serviceIpv4Cidr: serviceCidr,
    ipFamily: 'ipv4',
    logging: normaliseLogging([], req.logging),
    authenticationMode,
    bootstrapClusterCreatorAdminPermissions: bootstrapAdmin,
    supportType: req.upgradePolicy?.supportType ?? 'EXTENDED',
    bootstrapSelfManagedAddons: req.bootstrapSelfManagedAddons ?? true,
    deletionProtection: req.deletionProtection ?? false,
    ...(req.zonalShiftConfig?.enabled !== undefined ? { zonalShiftEnabled: req.zonalShiftConfig.enabled } : {}),
    ...(req.controlPlaneScalingConfig?.tier ? { controlPlaneTier: req.controlPlaneScalingConfig.tier } : {}),
    ...(req.clientRequestToken ? { clientRequestToken: req.clientRequestToken } : {}),
    creatorArn: creatorPrincipalArn(ctx.principal.arn),
    tags: { ...(req.tags ?? {}) },
    addons: {},
    accessEntries: {},
    podIdentityAssociations: {},
    updates: [],
  };
  if (authenticationMode !== 'CONFIG_MAP' && bootstrapAdmin) grantCreatorAdmin(cluster, now);
  keyed.set(regionState.clusters, req.name, cluster);
  rememberClientToken(ctx, req.clientRequestToken, input, req.name);
  return { cluster: renderCluster(cluster, ctx.region, ctx.runtime) };
}

/** The cluster creator's access entry with AmazonEKSClusterAdminPolicy (bootstrapClusterCreatorAdminPermissions). */
export function grantCreatorAdmin(cluster: StoredCluster, now: number): void {
  if (keyed.get(cluster.accessEntries, cluster.creatorArn)) return;
  const entry = newAccessEntry(cluster, { principalArn: cluster.creatorArn, type: 'STANDARD' }, now);
  entry.policies.push({
    policyArn: CLUSTER_ADMIN_POLICY_ARN,
    accessScope: { type: 'cluster', namespaces: [] },
    associatedAt: now,
    modifiedAt: now,
  });
  keyed.set(cluster.accessEntries, cluster.creatorArn, entry);
}
