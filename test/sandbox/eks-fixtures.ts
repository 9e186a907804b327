import { CreateSecurityGroupCommand, CreateSubnetCommand, CreateVpcCommand, EC2Client } from '@aws-sdk/client-ec2';
import {
  CreateClusterCommand,
  DescribeClusterCommand,
  EKSClient,
  type CreateClusterCommandInput,
} from '@aws-sdk/client-eks';
import { CreateRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { eventually, type TestSandbox } from '../helpers/sandbox.js';

/** What an EKS test needs from EC2 and IAM, built through their real SDK clients. */
export interface EksWorld {
  vpcId: string;
  subnetA: string;
  subnetB: string;
  /** A third subnet in the same AZ as subnetA (for the one-AZ check). */
  subnetA2: string;
  securityGroupId: string;
  clusterRoleArn: string;
  podRoleArn: string;
}

function trust(service: string): string {
  return JSON.stringify({
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Principal: { Service: service },
        Action: service === 'pods.eks.amazonaws.com' ? ['sts:AssumeRole', 'sts:TagSession'] : 'sts:AssumeRole',
      },
    ],
  });
}

export async function buildEksWorld(prefix: string): Promise<EksWorld> {
  const ec2 = new EC2Client({});
  const iam = new IAMClient({});
  const vpc = await ec2.send(new CreateVpcCommand({ CidrBlock: '10.0.0.0/16' }));
  const vpcId = vpc.Vpc!.VpcId!;
  const subnet = async (cidr: string, az: string) =>
    (await ec2.send(new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: cidr, AvailabilityZone: az }))).Subnet!
      .SubnetId!;
  const subnetA = await subnet('10.0.1.0/24', 'us-west-2a');
  const subnetB = await subnet('10.0.2.0/24', 'us-west-2b');
  const subnetA2 = await subnet('10.0.3.0/24', 'us-west-2a');
  const sg = await ec2.send(
    new CreateSecurityGroupCommand({ GroupName: `${prefix}-sg`, Description: 'eks test', VpcId: vpcId }),
  );
  const role = async (name: string, service: string) =>
    (await iam.send(new CreateRoleCommand({ RoleName: name, AssumeRolePolicyDocument: trust(service) }))).Role!.Arn!;
  return {
    vpcId,
    subnetA,
    subnetB,
    subnetA2,
    securityGroupId: sg.GroupId!,
    clusterRoleArn: await role(`${prefix}-cluster-role`, 'eks.amazonaws.com'),
    podRoleArn: await role(`${prefix}-pod-role`, 'pods.eks.amazonaws.com'),
  };
}

export function clusterInput(
  world: EksWorld,
  name: string,
  extra: Partial<CreateClusterCommandInput> = {},
): CreateClusterCommandInput {
  return {
    name,
    roleArn: world.clusterRoleArn,
    resourcesVpcConfig: { subnetIds: [world.subnetA, world.subnetB], securityGroupIds: [world.securityGroupId] },
    accessConfig: { authenticationMode: 'API_AND_CONFIG_MAP' },
    ...extra,
  };
}

/** Creates a cluster and moves sandbox time until it is ACTIVE. */
export async function activeCluster(
  sb: TestSandbox,
  world: EksWorld,
  name: string,
  extra: Partial<CreateClusterCommandInput> = {},
): Promise<void> {
  const eks = new EKSClient({});
  await eks.send(new CreateClusterCommand(clusterInput(world, name, extra)));
  await eventually(async () => (await eks.send(new DescribeClusterCommand({ name }))).cluster?.status === 'ACTIVE', {
    sandbox: sb,
    stepSeconds: 120,
    what: `${name} ACTIVE`,
  });
}
