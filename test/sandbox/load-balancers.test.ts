import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AssociateRouteTableCommand,
  AttachInternetGatewayCommand,
  CreateInternetGatewayCommand,
  CreateRouteCommand,
  CreateRouteTableCommand,
  CreateTagsCommand,
  DescribeNetworkInterfacesCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';
import { DescribeClusterCommand, EKSClient } from '@aws-sdk/client-eks';
import { stringify } from 'yaml';
import { makeKubeCluster, type KubeCluster } from '../../sandbox/kube/cluster.js';
import { T } from '../../sandbox/kube/controllers/util.js';
import type { ClusterKubeState } from '../../sandbox/kube/objects.js';
import { kubeAccess, type TestKubeCluster } from '../helpers/kube.js';
import { eventually, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { node } from '../kube/controllers-fixtures.js';
import { activeCluster, buildEksWorld, type EksWorld } from './eks-fixtures.js';

/**
 * The load balancers Kubernetes objects make on a sandbox EKS cluster hold AWS resources, as on a
 * real account: a LoadBalancer Service or an ALB Ingress gets its controller's finalizer and its
 * load balancer's network interfaces in the VPC's subnets the controller discovers; deleting the
 * object deletes them (the AWS Load Balancer Controller only while it runs); deleting the EKS
 * cluster first leaves them behind, and the subnets cannot go.
 *
 * The VPC: subnets A (us-west-2a) and B (us-west-2b) public and tagged `kubernetes.io/role/elb=1`,
 * A2 (us-west-2a) public and untagged, none tagged `kubernetes.io/role/internal-elb` and none
 * private — so an internal LBC load balancer finds no subnet at all.
 */
describe('sandbox load balancers: finalizers and network interfaces in the VPC', () => {
  let sb: TestSandbox;
  let world: EksWorld;
  let k: TestKubeCluster;
  let cluster: KubeCluster;
  const json = async (args: string[]) => JSON.parse((await k.kubectl([...args, '-o', 'json'])).stdout);
  const apply = async (...objects: object[]) => {
    const r = await k.kubectl(['apply', '-f', '-'], { input: objects.map((o) => stringify(o)).join('---\n') });
    assert.equal(r.code, 0, r.stderr);
  };
  const until = <V>(probe: () => Promise<V | undefined | false>, what: string, stepSeconds = 5) =>
    eventually(probe, { sandbox: sb, stepSeconds, tries: 60, what });
  const service = (resource: 'services' | 'ingresses', name: string): any =>
    cluster.objects.get(resource === 'services' ? T.services : T.ingresses, 'default', name);
  /**
   * The VPC's network interfaces whose description starts so, as DescribeNetworkInterfaces lists them (through the SDK:
   * the aws CLI costs a second a call; the last case reads them with the CLI).
   */
  const enis = async (descriptionPrefix: string) =>
    (
      await new EC2Client({}).send(
        new DescribeNetworkInterfacesCommand({ Filters: [{ Name: 'vpc-id', Values: [world.vpcId] }] }),
      )
    ).NetworkInterfaces!.filter((e) => e.Description!.startsWith(descriptionPrefix));
  const events = async (name: string) =>
    (await json(['get', 'events', '--field-selector', `involvedObject.name=${name}`])).items as any[];
  const lbcReplicas = (n: number) =>
    k.kubectl(['-n', 'kube-system', 'scale', 'deployment/aws-load-balancer-controller', `--replicas=${n}`]);
  const lbcReady = () =>
    cluster.objects
      .list(T.pods, 'kube-system')
      .some(
        (p) =>
          p.metadata.labels?.['app.kubernetes.io/name'] === 'aws-load-balancer-controller' &&
          !p.metadata.deletionTimestamp &&
          (p.status as any)?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True'),
      );
  const nlbService = (name: string, annotations: Record<string, string> = {}) => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name,
      namespace: 'default',
      annotations: {
        'service.beta.kubernetes.io/aws-load-balancer-type': 'external',
        'service.beta.kubernetes.io/aws-load-balancer-nlb-target-type': 'ip',
        ...annotations,
      },
    },
    spec: { type: 'LoadBalancer', selector: { app: name }, ports: [{ port: 80, targetPort: 8080 }] },
  });
  const publicNlb = (name: string) =>
    nlbService(name, { 'service.beta.kubernetes.io/aws-load-balancer-scheme': 'internet-facing' });
  const gone = async (resource: string, name: string) =>
    (await k.kubectl(['get', resource, name], { allowFailure: true })).code !== 0;

  before(async () => {
    sb = await startTestSandbox();
    world = await buildEksWorld('lb');
    // Built through the SDK, as buildEksWorld builds the rest (the aws CLI costs a second a call).
    const ec2 = new EC2Client({});
    const igw = (await ec2.send(new CreateInternetGatewayCommand({}))).InternetGateway!.InternetGatewayId!;
    await ec2.send(new AttachInternetGatewayCommand({ InternetGatewayId: igw, VpcId: world.vpcId }));
    const rt = (await ec2.send(new CreateRouteTableCommand({ VpcId: world.vpcId }))).RouteTable!.RouteTableId!;
    await ec2.send(new CreateRouteCommand({ RouteTableId: rt, DestinationCidrBlock: '0.0.0.0/0', GatewayId: igw }));
    for (const subnet of [world.subnetA, world.subnetB, world.subnetA2])
      await ec2.send(new AssociateRouteTableCommand({ RouteTableId: rt, SubnetId: subnet }));
    await ec2.send(
      new CreateTagsCommand({
        Resources: [world.subnetA, world.subnetB],
        Tags: [{ Key: 'kubernetes.io/role/elb', Value: '1' }],
      }),
    );
    await activeCluster(sb, world, 'lb');
    k = await kubeAccess(sb, 'lb');
    const data = (sb.sandbox.runtime.store.state as unknown as { kube: Record<string, ClusterKubeState> }).kube[k.arn]!;
    cluster = makeKubeCluster({ arn: k.arn, name: 'lb', region: 'us-west-2' }, data, {
      now: () => sb.sandbox.runtime.clock.now(),
      changed: () => sb.sandbox.runtime.store.markDirty(),
    });
    cluster.objects.create(T.nodes, node('node-0', { cpu: '8', memory: '32Gi' }, { ip: '10.0.1.40' }));
    // The AWS Load Balancer Controller as its chart labels it (v2.13.2, the inference add-on's version).
    await apply({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'aws-load-balancer-controller', namespace: 'kube-system' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { 'app.kubernetes.io/name': 'aws-load-balancer-controller' } },
        template: {
          metadata: { labels: { 'app.kubernetes.io/name': 'aws-load-balancer-controller' } },
          spec: {
            containers: [{ name: 'controller', image: 'public.ecr.aws/eks/aws-load-balancer-controller:v2.13.2' }],
          },
        },
      },
    });
    await until(async () => lbcReady(), 'the AWS Load Balancer Controller Ready');
  });
  after(async () => sb?.dispose());

  it('an internet-facing LBC Service: finalizer, hostname and one NLB interface per tagged subnet; deleting it deletes them', async () => {
    await apply(publicNlb('web'));
    const svc = await until(
      async () => ((s) => s.status?.loadBalancer?.ingress && s)(await json(['get', 'service', 'web'])),
      'the NLB hostname',
    );
    assert.deepEqual(svc.metadata.finalizers, ['service.k8s.aws/resources']);
    assert.match(
      svc.status.loadBalancer.ingress[0].hostname,
      /^k8s-default-web-[0-9a-f]{10}-[0-9a-f]{16}\.elb\.us-west-2\.amazonaws\.com$/,
    );
    const name = svc.status.loadBalancer.ingress[0].hostname.replace(/-[0-9a-f]{16}\.elb\..*$/, '');
    const interfaces = await enis(`ELB net/${name}/`);
    assert.deepEqual(
      interfaces.map((e) => e.SubnetId).sort(),
      [world.subnetA, world.subnetB].sort(),
      'one per tagged subnet (A2 is untagged)',
    );
    for (const e of interfaces) {
      assert.match(e.Description ?? '', /^ELB net\/k8s-default-web-[0-9a-f]{10}\/[0-9a-f]{16}$/);
      assert.equal(e.RequesterManaged, true);
      assert.equal(e.RequesterId, 'amazon-elb');
      assert.equal(e.InterfaceType, 'network_load_balancer');
    }
    await k.kubectl(['delete', 'service', 'web', '--wait=false']);
    await until(async () => gone('service', 'web'), 'the Service gone', 1);
    assert.deepEqual(await enis(`ELB net/${name}/`), []);
  });

  it('an LBC Service with no subnet to use: a FailedBuildModel Warning, no hostname, no finalizer', async () => {
    await apply(nlbService('inner'));
    const warning = await until(
      async () => (await events('inner')).find((e) => e.reason === 'FailedBuildModel'),
      'the FailedBuildModel event',
    );
    assert.equal(warning.type, 'Warning');
    assert.equal(
      warning.message,
      'Failed build model due to unable to resolve at least one subnet. Evaluated 0 subnets: 0 are tagged for other clusters, and 0 have insufficient available IP addresses',
    );
    const svc = await json(['get', 'service', 'inner']);
    assert.deepEqual(svc.status.loadBalancer, {});
    assert.equal(svc.metadata.finalizers, undefined);
    await k.kubectl(['delete', 'service', 'inner', '--wait=false']);
    assert.ok(await gone('service', 'inner'), 'nothing holds it');
  });

  it('while the LBC is not running a deleted Service stays Terminating with its finalizer and its interfaces; it goes when the LBC is back', async () => {
    await apply(publicNlb('held'));
    await until(async () => service('services', 'held')?.status?.loadBalancer?.ingress, 'the NLB hostname');
    await lbcReplicas(0);
    await until(async () => !lbcReady(), 'the LBC stopped', 1);
    await k.kubectl(['delete', 'service', 'held', '--wait=false']);
    await sb.advance(60);
    const held = await json(['get', 'service', 'held']);
    assert.ok(held.metadata.deletionTimestamp, 'Terminating');
    assert.deepEqual(held.metadata.finalizers, ['service.k8s.aws/resources']);
    const uid = held.metadata.uid as string;
    const left = (await enis('ELB net/k8s-default-held-')).length;
    assert.equal(left, 2, `its NLB stays (${uid})`);
    await lbcReplicas(1);
    await until(async () => gone('service', 'held'), 'the Service gone once the LBC runs again');
    assert.deepEqual(await enis('ELB net/k8s-default-held-'), []);
  });

  it('an ALB Ingress: the implicit group finalizer and ALB interfaces; deleting it deletes them', async () => {
    await apply({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: {
        name: 'site',
        namespace: 'default',
        annotations: { 'alb.ingress.kubernetes.io/scheme': 'internet-facing' },
      },
      spec: {
        ingressClassName: 'alb',
        rules: [
          {
            http: {
              paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'site', port: { number: 80 } } } }],
            },
          },
        ],
      },
    });
    const ing = await until(
      async () => ((i) => i.status?.loadBalancer?.ingress && i)(await json(['get', 'ingress', 'site'])),
      'the ALB hostname',
      1,
    );
    assert.deepEqual(ing.metadata.finalizers, ['ingress.k8s.aws/resources']);
    assert.match(
      ing.status.loadBalancer.ingress[0].hostname,
      /^k8s-default-site-[0-9a-f]{10}-\d{10}\.us-west-2\.elb\.amazonaws\.com$/,
    );
    const interfaces = await enis('ELB app/k8s-default-site-');
    assert.deepEqual(interfaces.map((e) => e.SubnetId).sort(), [world.subnetA, world.subnetB].sort());
    assert.ok(interfaces.every((e) => e.InterfaceType === 'interface' && e.RequesterId === 'amazon-elb'));
    await k.kubectl(['delete', 'ingress', 'site', '--wait=false']);
    await until(async () => gone('ingress', 'site'), 'the Ingress gone', 1);
    assert.deepEqual(await enis('ELB app/k8s-default-site-'), []);
  });

  it('an explicit IngressGroup shares one ALB: its finalizer on each member, its interfaces until the last member goes', async () => {
    const member = (name: string) => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: {
        name,
        namespace: 'default',
        annotations: {
          'alb.ingress.kubernetes.io/group.name': 'shop',
          'alb.ingress.kubernetes.io/scheme': 'internet-facing',
        },
      },
      spec: {
        ingressClassName: 'alb',
        rules: [
          {
            http: {
              paths: [{ path: `/${name}`, pathType: 'Prefix', backend: { service: { name, port: { number: 80 } } } }],
            },
          },
        ],
      },
    });
    await apply(member('cart'), member('shelf'));
    const hostnames = await until(
      async () => {
        const names = ['cart', 'shelf'].map(
          (n) => service('ingresses', n)?.status?.loadBalancer?.ingress?.[0]?.hostname,
        );
        return names.every(Boolean) && names;
      },
      'both hostnames',
      1,
    );
    assert.equal(hostnames[0], hostnames[1], 'one ALB');
    assert.match(hostnames[0], /^k8s-shop-[0-9a-f]{10}-\d{10}\.us-west-2\.elb\.amazonaws\.com$/);
    assert.deepEqual(service('ingresses', 'cart').metadata.finalizers, ['group.ingress.k8s.aws/shop']);
    assert.equal((await enis('ELB app/k8s-shop-')).length, 2);
    await k.kubectl(['delete', 'ingress', 'cart', '--wait=false']);
    await until(async () => gone('ingress', 'cart'), 'cart gone', 1);
    assert.equal((await enis('ELB app/k8s-shop-')).length, 2, 'shelf still uses the ALB');
    await k.kubectl(['delete', 'ingress', 'shelf', '--wait=false']);
    await until(async () => gone('ingress', 'shelf'), 'shelf gone', 1);
    assert.deepEqual(await enis('ELB app/k8s-shop-'), []);
  });

  it("the in-tree controller's Classic Load Balancer: its finalizer at once, interfaces, hostname after a while; cleaned up on delete even without the LBC", async () => {
    await lbcReplicas(0);
    await until(async () => !lbcReady(), 'the LBC stopped', 1);
    await apply({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'classic', namespace: 'default' },
      spec: { type: 'LoadBalancer', selector: { app: 'classic' }, ports: [{ port: 80 }] },
    });
    await sb.advance(1);
    const first = await json(['get', 'service', 'classic']);
    assert.deepEqual(first.metadata.finalizers, ['service.kubernetes.io/load-balancer-cleanup']);
    const name = `a${(first.metadata.uid as string).replace(/-/g, '')}`.slice(0, 32);
    const interfaces = await enis(`ELB ${name}`);
    assert.deepEqual(
      interfaces.map((e) => e.SubnetId).sort(),
      [world.subnetA, world.subnetB].sort(),
      'one per AZ, the role-tagged one first',
    );
    assert.ok(interfaces.every((e) => e.Description === `ELB ${name}` && e.InterfaceType === 'interface'));
    const svc = await until(
      async () => ((s) => s.status?.loadBalancer?.ingress && s)(await json(['get', 'service', 'classic'])),
      'the CLB hostname',
    );
    assert.match(
      svc.status.loadBalancer.ingress[0].hostname,
      new RegExp(`^${name}-\\d{10}\\.us-west-2\\.elb\\.amazonaws\\.com$`),
    );
    await k.kubectl(['delete', 'service', 'classic', '--wait=false']);
    await until(async () => gone('service', 'classic'), 'the Service gone', 1);
    assert.deepEqual(await enis(`ELB ${name}`), []);
    assert.ok((await events('classic')).some((e) => e.reason === 'DeletedLoadBalancer'));
    await lbcReplicas(1);
    await until(async () => lbcReady(), 'the LBC back', 1);
  });

  it('deleting the EKS cluster first orphans the load balancer: its interfaces stay and DeleteSubnet answers DependencyViolation', async () => {
    await apply(publicNlb('orphan'));
    await until(async () => service('services', 'orphan')?.status?.loadBalancer?.ingress, 'the NLB hostname');
    const before = await enis('ELB net/k8s-default-orphan-');
    assert.equal(before.length, 2);
    await sb.aws(['eks', 'delete-cluster', '--name', 'lb']);
    await until(
      async () =>
        new EKSClient({}).send(new DescribeClusterCommand({ name: 'lb' })).then(
          () => false,
          (err: Error) => err.name === 'ResourceNotFoundException',
        ),
      'the EKS cluster gone',
      60,
    );
    const after = await enis('ELB net/k8s-default-orphan-');
    assert.deepEqual(
      after.map((e) => e.NetworkInterfaceId).sort(),
      before.map((e) => e.NetworkInterfaceId).sort(),
      'nothing deleted the NLB',
    );
    const inA = (
      await sb.aws(['ec2', 'describe-network-interfaces', '--filters', `Name=subnet-id,Values=${world.subnetA}`])
    ).json.NetworkInterfaces as any[];
    assert.ok(
      inA.length > 0 && inA.every((e) => e.Description.startsWith('ELB net/k8s-default-orphan-')),
      'only the NLB holds subnet A now',
    );
    const refused = await sb.aws(['ec2', 'delete-subnet', '--subnet-id', world.subnetA], { allowFailure: true });
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /DependencyViolation/);
    // A subnet no load balancer used goes.
    await sb.aws(['ec2', 'delete-subnet', '--subnet-id', world.subnetA2]);
  });
});
