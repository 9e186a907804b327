import {
  AllocateAddressCommand,
  AssociateRouteTableCommand,
  AttachInternetGatewayCommand,
  CreateInternetGatewayCommand,
  CreateNatGatewayCommand,
  CreateRouteCommand,
  CreateRouteTableCommand,
  CreateSecurityGroupCommand,
  CreateSubnetCommand,
  CreateVpcCommand,
  DescribeNatGatewaysCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';
import {
  CreateClusterCommand as CreateEksClusterCommand,
  DescribeClusterCommand as DescribeEksClusterCommand,
  EKSClient,
} from '@aws-sdk/client-eks';
import { CreateRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import {
  DescribeClusterCommand,
  SageMakerClient,
  type ClusterInstanceGroupSpecification,
  type ClusterStatus,
  type DescribeClusterResponse,
} from '@aws-sdk/client-sagemaker';
import {
  GetServiceQuotaCommand,
  ListServiceQuotasCommand,
  RequestServiceQuotaIncreaseCommand,
  ServiceQuotasClient,
} from '@aws-sdk/client-service-quotas';
import { eventually, type TestSandbox } from '../helpers/sandbox.js';
import { installHyperPodDependencies } from './hyperpod-dependencies-fixture.js';

/**
 * HyperPod's prerequisites, built the way a user builds them, through the SDKs: a VPC with
 * private subnets behind a NAT gateway in two zones, the roles, an ACTIVE EKS cluster in
 * API_AND_CONFIG_MAP mode at a Kubernetes version HyperPod supports, with HyperPod's dependencies
 * chart installed (hyperpod-dependencies-fixture.ts), and enough Service Quotas for the instance
 * types the tests use.
 */

/** The Kubernetes version the fixtures' EKS clusters run: the newest SageMaker HyperPod supports. */
export const HYPERPOD_EKS_VERSION = '1.34';
export interface HyperPodPrereqs {
  vpcId: string;
  privateSubnets: string[];
  publicSubnets: string[];
  zones: string[];
  securityGroupId: string;
  executionRoleArn: string;
  clusterRoleArn: string;
  eksClusterArn: string;
  eksClusterName: string;
}

const trust = (service: string) =>
  JSON.stringify({
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Principal: { Service: service }, Action: 'sts:AssumeRole' }],
  });

/** `sb` needs only `advance` (so bench/ can build the same world through the admin API's clock). */
export async function buildPrereqs(
  sb: Pick<TestSandbox, 'advance'>,
  tag: string,
  zones = ['us-west-2a', 'us-west-2b'],
): Promise<HyperPodPrereqs> {
  const ec2 = new EC2Client({});
  const vpcId = (await ec2.send(new CreateVpcCommand({ CidrBlock: '10.1.0.0/16' }))).Vpc!.VpcId!;
  const publicSubnets: string[] = [];
  const privateSubnets: string[] = [];
  for (const [i, zone] of zones.entries()) {
    publicSubnets.push(
      (await ec2.send(new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: `10.1.${i}.0/24`, AvailabilityZone: zone })))
        .Subnet!.SubnetId!,
    );
    privateSubnets.push(
      (
        await ec2.send(
          new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: `10.1.${64 + i * 32}.0/19`, AvailabilityZone: zone }),
        )
      ).Subnet!.SubnetId!,
    );
  }
  const igw = (await ec2.send(new CreateInternetGatewayCommand({}))).InternetGateway!.InternetGatewayId!;
  await ec2.send(new AttachInternetGatewayCommand({ InternetGatewayId: igw, VpcId: vpcId }));
  const publicRt = (await ec2.send(new CreateRouteTableCommand({ VpcId: vpcId }))).RouteTable!.RouteTableId!;
  await ec2.send(new CreateRouteCommand({ RouteTableId: publicRt, DestinationCidrBlock: '0.0.0.0/0', GatewayId: igw }));
  for (const s of publicSubnets)
    await ec2.send(new AssociateRouteTableCommand({ RouteTableId: publicRt, SubnetId: s }));
  const eip = (await ec2.send(new AllocateAddressCommand({ Domain: 'vpc' }))).AllocationId!;
  const nat = (await ec2.send(new CreateNatGatewayCommand({ SubnetId: publicSubnets[0]!, AllocationId: eip })))
    .NatGateway!.NatGatewayId!;
  await eventually(
    async () =>
      (await ec2.send(new DescribeNatGatewaysCommand({ NatGatewayIds: [nat] }))).NatGateways?.[0]?.State ===
      'available',
    {
      sandbox: sb,
      stepSeconds: 60,
      what: 'NAT gateway available',
    },
  );
  const privateRt = (await ec2.send(new CreateRouteTableCommand({ VpcId: vpcId }))).RouteTable!.RouteTableId!;
  await ec2.send(
    new CreateRouteCommand({ RouteTableId: privateRt, DestinationCidrBlock: '0.0.0.0/0', NatGatewayId: nat }),
  );
  for (const s of privateSubnets)
    await ec2.send(new AssociateRouteTableCommand({ RouteTableId: privateRt, SubnetId: s }));
  const securityGroupId = (
    await ec2.send(
      new CreateSecurityGroupCommand({ GroupName: `${tag}-hyperpod`, Description: 'HyperPod nodes', VpcId: vpcId }),
    )
  ).GroupId!;

  const iam = new IAMClient({});
  const executionRoleArn = (
    await iam.send(
      new CreateRoleCommand({ RoleName: `${tag}-exec`, AssumeRolePolicyDocument: trust('sagemaker.amazonaws.com') }),
    )
  ).Role!.Arn!;
  const clusterRoleArn = (
    await iam.send(
      new CreateRoleCommand({
        RoleName: `${tag}-autoscale`,
        AssumeRolePolicyDocument: trust('hyperpod.sagemaker.amazonaws.com'),
      }),
    )
  ).Role!.Arn!;
  const eksRoleArn = (
    await iam.send(
      new CreateRoleCommand({ RoleName: `${tag}-eks`, AssumeRolePolicyDocument: trust('eks.amazonaws.com') }),
    )
  ).Role!.Arn!;

  const eks = new EKSClient({});
  const eksClusterName = `${tag}-eks`;
  const created = await eks.send(
    new CreateEksClusterCommand({
      name: eksClusterName,
      roleArn: eksRoleArn,
      // EKS's default (1.35 in the sandbox) is newer than HyperPod supports: ask for one it does.
      version: HYPERPOD_EKS_VERSION,
      resourcesVpcConfig: { subnetIds: privateSubnets, securityGroupIds: [securityGroupId] },
      accessConfig: { authenticationMode: 'API_AND_CONFIG_MAP' },
    }),
  );
  await eventually(
    async () => (await eks.send(new DescribeEksClusterCommand({ name: eksClusterName }))).cluster?.status === 'ACTIVE',
    {
      sandbox: sb,
      stepSeconds: 120,
      what: 'EKS cluster ACTIVE',
    },
  );
  await installHyperPodDependencies(sb, eksClusterName);
  return {
    vpcId,
    privateSubnets,
    publicSubnets,
    zones,
    securityGroupId,
    executionRoleArn,
    clusterRoleArn,
    eksClusterArn: created.cluster!.arn!,
    eksClusterName,
  };
}

/** Raises the HyperPod quota named `quotaName` to at least `value` through Service Quotas, as a user would. */
export async function ensureQuota(sb: Pick<TestSandbox, 'advance'>, quotaName: string, value: number): Promise<void> {
  const sq = new ServiceQuotasClient({});
  let quota;
  let token: string | undefined;
  do {
    const page = await sq.send(new ListServiceQuotasCommand({ ServiceCode: 'sagemaker', NextToken: token }));
    quota = page.Quotas?.find((q) => q.QuotaName === quotaName);
    token = page.NextToken;
  } while (!quota && token);
  if (!quota) throw new Error(`no Service Quotas entry named '${quotaName}'`);
  if ((quota.Value ?? 0) >= value) return;
  await sq.send(
    new RequestServiceQuotaIncreaseCommand({
      ServiceCode: 'sagemaker',
      QuotaCode: quota.QuotaCode!,
      DesiredValue: value,
    }),
  );
  await eventually(
    async () =>
      ((await sq.send(new GetServiceQuotaCommand({ ServiceCode: 'sagemaker', QuotaCode: quota.QuotaCode! }))).Quota
        ?.Value ?? 0) >= value,
    { sandbox: sb, stepSeconds: 600, what: `quota '${quotaName}' raised to ${value}` },
  );
}

export function group(
  p: HyperPodPrereqs,
  name: string,
  instanceType: string,
  count: number,
  extra: Partial<ClusterInstanceGroupSpecification> = {},
): ClusterInstanceGroupSpecification {
  return {
    InstanceGroupName: name,
    InstanceType: instanceType as ClusterInstanceGroupSpecification['InstanceType'],
    InstanceCount: count,
    ExecutionRole: p.executionRoleArn,
    ...extra,
  };
}

/** Advances sandbox time until the cluster reaches `status` (or fails the test). */
export async function waitForCluster(
  sb: Pick<TestSandbox, 'advance'>,
  name: string,
  status: ClusterStatus,
  stepSeconds = 60,
): Promise<DescribeClusterResponse> {
  const sm = new SageMakerClient({});
  return eventually(
    async () => {
      const d = await sm.send(new DescribeClusterCommand({ ClusterName: name }));
      return d.ClusterStatus === status ? d : undefined;
    },
    { sandbox: sb, stepSeconds, what: `HyperPod cluster ${name} ${status}` },
  );
}

/** The sandbox's inventory minus the call-independent parts, for "nothing changed" comparisons. */
export async function inventoryJson(sb: TestSandbox): Promise<string> {
  return JSON.stringify(await sb.inventory());
}
