import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AllocateAddressCommand,
  AssociateRouteTableCommand,
  AttachInternetGatewayCommand,
  AuthorizeSecurityGroupIngressCommand,
  CreateInternetGatewayCommand,
  CreateNatGatewayCommand,
  CreateRouteCommand,
  CreateRouteTableCommand,
  CreateSecurityGroupCommand,
  CreateSubnetCommand,
  CreateVpcCommand,
  CreateVpcEndpointCommand,
  DeleteInternetGatewayCommand,
  DeleteNatGatewayCommand,
  DeleteRouteTableCommand,
  DeleteSecurityGroupCommand,
  DeleteSubnetCommand,
  DeleteVpcCommand,
  DeleteVpcEndpointsCommand,
  DescribeNatGatewaysCommand,
  DescribeRouteTablesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  DescribeVpcsCommand,
  DetachInternetGatewayCommand,
  DisassociateRouteTableCommand,
  EC2Client,
  ReleaseAddressCommand,
} from '@aws-sdk/client-ec2';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const nameTag = (resource: string, name: string) => [
  {
    ResourceType: resource as any,
    Tags: [
      { Key: 'Name', Value: name },
      { Key: 'app', Value: 'instantstart' },
    ],
  },
];

describe('EC2 network: a HyperPod-style VPC built and torn down', () => {
  let sb: TestSandbox;
  let ec2: EC2Client;
  before(async () => {
    sb = await startTestSandbox();
    ec2 = new EC2Client({});
  });
  after(async () => sb.dispose());

  it('builds public and private subnets over two zones with IGW, NAT, routes, SG and an S3 endpoint, then tears them down in order', async () => {
    const vpcId = (
      await ec2.send(new CreateVpcCommand({ CidrBlock: '10.0.0.0/16', TagSpecifications: nameTag('vpc', 'hp') }))
    ).Vpc!.VpcId!;
    const subnet = async (cidr: string, az: string, name: string) =>
      (
        await ec2.send(
          new CreateSubnetCommand({
            VpcId: vpcId,
            CidrBlock: cidr,
            AvailabilityZone: az,
            TagSpecifications: nameTag('subnet', name),
          }),
        )
      ).Subnet!;
    const publicA = await subnet('10.0.0.0/24', 'us-west-2a', 'public-a');
    const publicB = await subnet('10.0.1.0/24', 'us-west-2b', 'public-b');
    const privateA = await subnet('10.0.16.0/20', 'us-west-2a', 'private-a');
    const privateB = await subnet('10.0.32.0/20', 'us-west-2b', 'private-b');
    assert.equal(privateA.AvailableIpAddressCount, 4096 - 5);

    const igw = (await ec2.send(new CreateInternetGatewayCommand({}))).InternetGateway!.InternetGatewayId!;
    await ec2.send(new AttachInternetGatewayCommand({ InternetGatewayId: igw, VpcId: vpcId }));
    const eip = await ec2.send(new AllocateAddressCommand({ Domain: 'vpc' }));
    const nat = (
      await ec2.send(new CreateNatGatewayCommand({ SubnetId: publicA.SubnetId, AllocationId: eip.AllocationId }))
    ).NatGateway!;
    assert.equal(nat.State, 'pending');
    await assert.rejects(
      ec2.send(new ReleaseAddressCommand({ AllocationId: eip.AllocationId })),
      (e: Error) => e.name === 'InvalidIPAddress.InUse',
    );
    await sb.advance(150);
    const natNow = (await ec2.send(new DescribeNatGatewaysCommand({ NatGatewayIds: [nat.NatGatewayId!] })))
      .NatGateways![0]!;
    assert.equal(natNow.State, 'available');
    assert.equal(natNow.NatGatewayAddresses![0]!.PublicIp, eip.PublicIp);

    const publicRt = (await ec2.send(new CreateRouteTableCommand({ VpcId: vpcId }))).RouteTable!.RouteTableId!;
    const privateRt = (await ec2.send(new CreateRouteTableCommand({ VpcId: vpcId }))).RouteTable!.RouteTableId!;
    await ec2.send(
      new CreateRouteCommand({ RouteTableId: publicRt, DestinationCidrBlock: '0.0.0.0/0', GatewayId: igw }),
    );
    await assert.rejects(
      ec2.send(new CreateRouteCommand({ RouteTableId: publicRt, DestinationCidrBlock: '0.0.0.0/0', GatewayId: igw })),
      (e: Error) => e.name === 'RouteAlreadyExists',
    );
    await ec2.send(
      new CreateRouteCommand({
        RouteTableId: privateRt,
        DestinationCidrBlock: '0.0.0.0/0',
        NatGatewayId: nat.NatGatewayId,
      }),
    );
    const assoc = [];
    for (const [rt, s] of [
      [publicRt, publicA],
      [publicRt, publicB],
      [privateRt, privateA],
      [privateRt, privateB],
    ] as const) {
      assoc.push(
        (await ec2.send(new AssociateRouteTableCommand({ RouteTableId: rt, SubnetId: s.SubnetId }))).AssociationId!,
      );
    }
    await assert.rejects(
      ec2.send(new AssociateRouteTableCommand({ RouteTableId: publicRt, SubnetId: privateA.SubnetId })),
      (e: Error) => e.name === 'Resource.AlreadyAssociated',
    );

    const sg = (
      await ec2.send(
        new CreateSecurityGroupCommand({ GroupName: 'hyperpod', Description: 'HyperPod nodes', VpcId: vpcId }),
      )
    ).GroupId!;
    await ec2.send(
      new AuthorizeSecurityGroupIngressCommand({
        GroupId: sg,
        IpPermissions: [{ IpProtocol: '-1', UserIdGroupPairs: [{ GroupId: sg }] }],
      }),
    );
    await ec2.send(
      new AuthorizeSecurityGroupIngressCommand({
        GroupId: sg,
        IpPermissions: [{ IpProtocol: 'tcp', FromPort: 988, ToPort: 988, UserIdGroupPairs: [{ GroupId: sg }] }],
      }),
    );
    await assert.rejects(
      ec2.send(
        new AuthorizeSecurityGroupIngressCommand({
          GroupId: sg,
          IpPermissions: [{ IpProtocol: '-1', UserIdGroupPairs: [{ GroupId: sg }] }],
        }),
      ),
      (e: Error) => e.name === 'InvalidPermission.Duplicate',
    );
    const described = (await ec2.send(new DescribeSecurityGroupsCommand({ GroupIds: [sg] }))).SecurityGroups![0]!;
    assert.equal(described.IpPermissions!.length, 2);
    assert.equal(described.IpPermissions!.find((p) => p.IpProtocol === '-1')!.UserIdGroupPairs![0]!.GroupId, sg);

    const endpoint = (
      await ec2.send(
        new CreateVpcEndpointCommand({
          VpcId: vpcId,
          ServiceName: 'com.amazonaws.us-west-2.s3',
          VpcEndpointType: 'Gateway',
          RouteTableIds: [privateRt],
        }),
      )
    ).VpcEndpoint!;
    const privateRoutes = (await ec2.send(new DescribeRouteTablesCommand({ RouteTableIds: [privateRt] })))
      .RouteTables![0]!.Routes!;
    assert.ok(
      privateRoutes.some((r) => r.DestinationPrefixListId?.startsWith('pl-') && r.GatewayId === endpoint.VpcEndpointId),
    );
    assert.ok(privateRoutes.some((r) => r.DestinationCidrBlock === '0.0.0.0/0' && r.NatGatewayId === nat.NatGatewayId));

    const tagged = await ec2.send(
      new DescribeSubnetsCommand({
        Filters: [
          { Name: 'tag:Name', Values: ['private-*'] },
          { Name: 'vpc-id', Values: [vpcId] },
        ],
      }),
    );
    assert.deepEqual(tagged.Subnets!.map((s) => s.SubnetId).sort(), [privateA.SubnetId, privateB.SubnetId].sort());

    // Tearing down in the wrong order fails as on AWS, and changes nothing.
    const before = await sb.inventory();
    await assert.rejects(
      ec2.send(new DeleteVpcCommand({ VpcId: vpcId })),
      (e: Error) => e.name === 'DependencyViolation',
    );
    await assert.rejects(
      ec2.send(new DeleteInternetGatewayCommand({ InternetGatewayId: igw })),
      (e: Error) => e.name === 'DependencyViolation',
    );
    await assert.rejects(
      ec2.send(new DeleteSubnetCommand({ SubnetId: publicA.SubnetId })),
      (e: Error) => e.name === 'DependencyViolation',
    );
    await assert.rejects(
      ec2.send(new DeleteRouteTableCommand({ RouteTableId: publicRt })),
      (e: Error) => e.name === 'DependencyViolation',
    );
    assert.deepEqual(await sb.inventory(), before);

    // The right order.
    await ec2.send(new DeleteVpcEndpointsCommand({ VpcEndpointIds: [endpoint.VpcEndpointId!] }));
    await ec2.send(new DeleteNatGatewayCommand({ NatGatewayId: nat.NatGatewayId }));
    await sb.advance(120);
    assert.equal(
      (await ec2.send(new DescribeNatGatewaysCommand({ NatGatewayIds: [nat.NatGatewayId!] }))).NatGateways![0]!.State,
      'deleted',
    );
    await ec2.send(new ReleaseAddressCommand({ AllocationId: eip.AllocationId }));
    for (const id of assoc) await ec2.send(new DisassociateRouteTableCommand({ AssociationId: id }));
    await ec2.send(new DeleteRouteTableCommand({ RouteTableId: publicRt }));
    await ec2.send(new DeleteRouteTableCommand({ RouteTableId: privateRt }));
    await ec2.send(new DeleteSecurityGroupCommand({ GroupId: sg }));
    for (const s of [publicA, publicB, privateA, privateB])
      await ec2.send(new DeleteSubnetCommand({ SubnetId: s.SubnetId }));
    await ec2.send(new DetachInternetGatewayCommand({ InternetGatewayId: igw, VpcId: vpcId }));
    await ec2.send(new DeleteInternetGatewayCommand({ InternetGatewayId: igw }));
    await ec2.send(new DeleteVpcCommand({ VpcId: vpcId }));
    await assert.rejects(
      ec2.send(new DescribeVpcsCommand({ VpcIds: [vpcId] })),
      (e: Error) => e.name === 'InvalidVpcID.NotFound',
    );
  });

  it('refuses bad CIDRs and missing parameters with EC2’s codes, changing nothing', async () => {
    const vpcId = (await ec2.send(new CreateVpcCommand({ CidrBlock: '172.31.0.0/16' }))).Vpc!.VpcId!;
    await ec2.send(
      new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: '172.31.0.0/20', AvailabilityZone: 'us-west-2a' }),
    );
    const before = await sb.inventory();
    const cases: Array<[Promise<unknown>, string]> = [
      [ec2.send(new CreateVpcCommand({} as any)), 'MissingParameter'],
      [ec2.send(new CreateVpcCommand({ CidrBlock: '10.0.0.0/8' })), 'InvalidVpc.Range'],
      [ec2.send(new CreateVpcCommand({ CidrBlock: 'ten-dot-zero' })), 'InvalidParameterValue'],
      [ec2.send(new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: '10.9.0.0/24' })), 'InvalidSubnet.Range'],
      [ec2.send(new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: '172.31.8.0/24' })), 'InvalidSubnet.Conflict'],
      [ec2.send(new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: '172.31.64.0/29' })), 'InvalidSubnet.Range'],
      [
        ec2.send(
          new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: '172.31.64.0/24', AvailabilityZone: 'us-east-1a' }),
        ),
        'InvalidParameterValue',
      ],
      [
        ec2.send(new CreateSubnetCommand({ VpcId: 'vpc-0000000000000000', CidrBlock: '172.31.64.0/24' })),
        'InvalidVpcID.NotFound',
      ],
      [ec2.send(new DescribeVpcsCommand({ VpcIds: ['vpc-does-not-exist'] })), 'InvalidVpcID.NotFound'],
      [
        ec2.send(new DescribeSubnetsCommand({ Filters: [{ Name: 'no-such-filter', Values: ['x'] }] })),
        'InvalidParameterValue',
      ],
      [ec2.send(new CreateVpcCommand({ CidrBlock: '10.50.0.0/16', DryRun: true })), 'DryRunOperation'],
    ];
    for (const [promise, code] of cases)
      await assert.rejects(
        promise,
        (e: Error) => e.name === code || assert.fail(`expected ${code}, got ${e.name}: ${e.message}`),
      );
    assert.deepEqual(await sb.inventory(), before);

    const unsigned = await fetch(sb.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'Action=CreateVpc&Version=2016-11-15&CidrBlock=10.9.0.0%2F16',
    });
    assert.equal(unsigned.status, 401);
    assert.match(await unsigned.text(), /<Code>MissingAuthenticationToken<\/Code>/);
    assert.deepEqual(await sb.inventory(), before);
    const unknown = await sb.aws(['ec2', 'describe-vpcs'], {
      allowFailure: true,
      env: { AWS_SECRET_ACCESS_KEY: 'nope' },
    });
    assert.match(unknown.stderr, /AuthFailure/);
  });

  it('pages DescribeVpcs and the CLI sees what the SDK made', async () => {
    for (let i = 0; i < 7; i++)
      await ec2.send(
        new CreateVpcCommand({ CidrBlock: `10.${100 + i}.0.0/16`, TagSpecifications: nameTag('vpc', `paged-${i}`) }),
      );
    const first = await ec2.send(
      new DescribeVpcsCommand({ MaxResults: 5, Filters: [{ Name: 'tag:Name', Values: ['paged-*'] }] }),
    );
    assert.equal(first.Vpcs!.length, 5);
    assert.ok(first.NextToken);
    const second = await ec2.send(
      new DescribeVpcsCommand({
        MaxResults: 5,
        NextToken: first.NextToken,
        Filters: [{ Name: 'tag:Name', Values: ['paged-*'] }],
      }),
    );
    assert.equal(second.Vpcs!.length, 2);
    assert.equal(second.NextToken, undefined);

    const created = await sb.aws([
      'ec2',
      'create-vpc',
      '--cidr-block',
      '10.200.0.0/16',
      '--tag-specifications',
      'ResourceType=vpc,Tags=[{Key=Name,Value=from-cli}]',
    ]);
    const vpcId = created.json.Vpc.VpcId;
    const listed = await sb.aws(['ec2', 'describe-vpcs', '--filters', 'Name=tag:Name,Values=from-cli']);
    assert.equal(listed.json.Vpcs.length, 1);
    assert.equal(listed.json.Vpcs[0].VpcId, vpcId);
    assert.equal(listed.json.Vpcs[0].CidrBlock, '10.200.0.0/16');
  });
});
