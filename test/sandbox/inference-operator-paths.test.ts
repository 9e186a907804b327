import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DescribeSubnetsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { CreateFileSystemCommand, FSxClient } from '@aws-sdk/client-fsx';
import { stringify } from 'yaml';
import type { KubeCluster } from '../../sandbox/kube/cluster.js';
import { T } from '../../sandbox/kube/controllers/util.js';
import { SANDBOX_HF_TOKEN } from '../../sandbox/services/huggingface/access.js';
import { managedEndpointManifest, type ManagedEndpointFacts } from '../../src/domain/inference/managed-endpoint.js';
import { DeployManagedEndpointRequestSchema } from '../../src/domain/schemas/inference.js';
import { startInferenceOperatorWorld } from '../helpers/inference-operator-world.js';
import type { TestKubeCluster } from '../helpers/kube.js';
import { eventually, type TestSandbox } from '../helpers/sandbox.js';

const GROUP = 'inference.sagemaker.aws.amazon.com';
const AMP = 'https://aps-workspaces.us-west-2.amazonaws.com/workspaces/ws-0123abcd-4567';

/** The InferenceEndpointConfig the product sends for a deploy request (its own schema and builder). */
function productManifest(body: Record<string, unknown>, facts: Partial<ManagedEndpointFacts> = {}) {
  const req = DeployManagedEndpointRequestSchema.parse({
    instanceTypes: ['ml.g5.8xlarge'],
    worker: {
      image: 'vllm/vllm-openai:v0.8.4',
      args: ['/opt/ml/model'],
      port: 8000,
      gpus: 1,
      cpu: '4',
      memory: '16Gi',
    },
    ...body,
  });
  return managedEndpointManifest(req, { namespace: 'default', ...facts });
}

/**
 * The managed-endpoint paths beyond the S3 one, each built by the product's own builder and run
 * through the sandbox's HyperPod inference operator and KEDA: a Hugging Face model (token in its
 * Secret), an FSx model, a CloudWatch trigger, scale to zero, the router's ScaledObject, and KEDA's
 * pause annotations.
 */
describe("the product's managed endpoints through the sandbox inference operator", () => {
  let sb: TestSandbox;
  let k: TestKubeCluster;
  let cluster: KubeCluster;
  const json = async (args: string[]) => JSON.parse((await k.kubectl([...args, '-o', 'json'])).stdout);
  const apply = (...objects: object[]) =>
    k.kubectl(['apply', '-f', '-'], { input: objects.map((o) => stringify(o)).join('---\n'), allowFailure: true });
  const stored = (resource: string, name: string): any =>
    cluster.objects.get(cluster.findType(GROUP, 'v1', resource)!, 'default', name);
  const scaled = (name: string): any =>
    cluster.objects.get(cluster.findType('keda.sh', 'v1alpha1', 'scaledobjects')!, 'default', name);
  const until = <V>(probe: () => Promise<V | undefined | false>, what: string, stepSeconds = 5) =>
    eventually(probe, { sandbox: sb, stepSeconds, tries: 120, what });
  const complete = (name: string) =>
    until(
      async () => stored('inferenceendpointconfigs', name)?.status?.state === 'DeploymentComplete',
      `${name} DeploymentComplete`,
      2,
    );
  const replicas = (name: string) =>
    Number((cluster.objects.get(T.deployments, 'default', name)?.spec as any)?.replicas);
  const condition = (so: any, type: string) => so?.status?.conditions?.find((c: any) => c.type === type);

  before(async () => {
    ({ sb, k, cluster } = await startInferenceOperatorWorld());
  });
  after(async () => sb?.dispose());

  it('a Hugging Face model: the token stays in its Secret, read only by the download init container, which fetches the model before the server starts', async () => {
    const iec = productManifest({
      name: 'qwen-hf',
      model: {
        source: 'huggingface',
        modelId: 'Qwen/Qwen2.5-0.5B-Instruct',
        tokenSecret: { name: 'hf-token', key: 'token' },
      },
    });
    const applied = await apply(
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'hf-token', namespace: 'default' },
        stringData: { token: SANDBOX_HF_TOKEN },
      },
      iec,
    );
    assert.equal(applied.code, 0, applied.stderr);
    await complete('qwen-hf');
    const pod = (await json(['get', 'deployment', 'qwen-hf'])).spec.template.spec;
    const [download] = pod.initContainers;
    assert.equal(download.name, 'model-download');
    assert.deepEqual(download.command.slice(0, 3), ['hf', 'download', 'Qwen/Qwen2.5-0.5B-Instruct']);
    assert.deepEqual(download.volumeMounts, [{ name: 'model-weights', mountPath: '/opt/ml/model' }]);
    const token = download.env.find((e: any) => e.name === 'HF_TOKEN');
    assert.deepEqual(token.valueFrom.secretKeyRef, { name: 'hf-token', key: 'token' });
    assert.ok(!JSON.stringify(pod.containers).includes('HF_TOKEN'), 'the server never sees the token');
    assert.ok(!JSON.stringify(await json(['get', 'deployment', 'qwen-hf'])).includes(SANDBOX_HF_TOKEN));
    const pods = (await json(['get', 'pods', '-l', 'app=qwen-hf'])).items;
    assert.equal(pods[0].status.initContainerStatuses[0].state.terminated.exitCode, 0);
    const log = await k.kubectl(['logs', pods[0].metadata.name, '-c', 'model-download']);
    assert.match(log.stdout, /\/opt\/ml\/model/);
    await k.kubectl(['delete', 'inferenceendpointconfig', 'qwen-hf']);
  });

  it('an FSx model: the static volume names the file system the storage has, with the DNS and mount names the operator looked up, and the pod mounts it', async () => {
    const subnet = (await new EC2Client({}).send(new DescribeSubnetsCommand({}))).Subnets![0]!.SubnetId!;
    const fs = (
      await new FSxClient({}).send(
        new CreateFileSystemCommand({
          FileSystemType: 'LUSTRE',
          StorageCapacity: 1200,
          SubnetIds: [subnet],
          LustreConfiguration: { DeploymentType: 'SCRATCH_2' },
        }),
      )
    ).FileSystem!;
    const iec = productManifest(
      { name: 'qwen-fsx', model: { source: 'storage', storage: 'models', path: 'qwen' } },
      { storage: { kind: 'fsx', fileSystemId: fs.FileSystemId! } },
    );
    const applied = await apply(iec);
    assert.equal(applied.code, 0, applied.stderr);
    await complete('qwen-fsx');
    const pvc = await json(['get', 'pvc', 'qwen-fsx-model']);
    const pv = await json(['get', 'pv', pvc.spec.volumeName]);
    assert.equal(pv.spec.csi.driver, 'fsx.csi.aws.com');
    assert.equal(pv.spec.csi.volumeHandle, fs.FileSystemId);
    assert.deepEqual(pv.spec.csi.volumeAttributes, {
      dnsname: fs.DNSName,
      mountname: fs.LustreConfiguration!.MountName,
    });
    const pods = (await json(['get', 'pods', '-l', 'app=qwen-fsx'])).items;
    assert.equal(pods[0].status.phase, 'Running');
    await k.kubectl(['delete', 'inferenceendpointconfig', 'qwen-fsx']);

    // A file system that does not exist fails the deployment naming it, and makes no pod.
    await apply(
      productManifest(
        { name: 'gone-fsx', model: { source: 'storage', storage: 'models' } },
        { storage: { kind: 'fsx', fileSystemId: 'fs-0123456789abcdef0' } },
      ),
    );
    await until(
      async () => stored('inferenceendpointconfigs', 'gone-fsx')?.status?.state === 'DeploymentFailed',
      'gone-fsx failed',
      2,
    );
    assert.match(
      stored('inferenceendpointconfigs', 'gone-fsx').status.deploymentStatus.message,
      /fs-0123456789abcdef0/,
    );
    assert.equal(cluster.objects.get(T.deployments, 'default', 'gone-fsx'), undefined);
    await k.kubectl(['delete', 'inferenceendpointconfig', 'gone-fsx']);
  });

  it('a CloudWatch trigger becomes an aws-cloudwatch ScaledObject signed as the KEDA operator; it scales on the metric', async () => {
    const iec = productManifest({
      name: 'cw',
      model: { source: 'huggingface', modelId: 'Qwen/Qwen2.5-0.5B-Instruct' },
      autoscaling: {
        min: 1,
        max: 3,
        trigger: {
          type: 'cloudwatch',
          namespace: 'AWS/SageMaker',
          metricName: 'Invocations',
          dimensions: [{ name: 'EndpointName', value: 'cw' }],
          targetValue: 10,
        },
      },
    });
    assert.equal((await apply(iec)).code, 0);
    await complete('cw');
    const so = await json(['get', 'scaledobject', 'cw-scaled-object']);
    const [trigger] = so.spec.triggers;
    assert.equal(trigger.type, 'aws-cloudwatch');
    assert.equal(trigger.name, 'cw-cloudwatch');
    assert.deepEqual(
      [
        trigger.metadata.namespace,
        trigger.metadata.metricName,
        trigger.metadata.dimensionName,
        trigger.metadata.dimensionValue,
      ],
      ['AWS/SageMaker', 'Invocations', 'EndpointName', 'cw'],
    );
    assert.equal(trigger.metadata.targetMetricValue, '10');
    assert.equal(trigger.metadata.awsRegion, 'us-west-2');
    assert.equal(trigger.metadata.identityOwner, 'operator');
    // Scales on the metric while KEDA has its IRSA role.
    await sb.admin('/_sandbox/kube/inf/metrics', { method: 'POST', body: { name: 'Invocations', value: 25 } });
    await until(async () => replicas('cw') === 3, 'cw scaled to ceil(25 / 10) = 3');
    assert.equal(condition(scaled('cw-scaled-object'), 'Ready').status, 'True');
    await k.kubectl(['delete', 'inferenceendpointconfig', 'cw']);
  });

  it('scale to zero with routing: both ScaledObjects are made; the model scales to 0 after the initial cooldown and stays DeploymentComplete, and back to 1 when the metric rises', async () => {
    const query = 'sum(vllm:num_requests_waiting{namespace="default"})';
    const iec: any = productManifest({
      name: 'zero',
      model: { source: 'huggingface', modelId: 'Qwen/Qwen2.5-0.5B-Instruct' },
      routing: { strategy: 'roundrobin' },
      autoscaling: { min: 0, max: 2, trigger: { type: 'prometheus', serverAddress: AMP, query, targetValue: 5 } },
    });
    assert.equal(iec.spec.autoScalingSpec.minReplicaCount, 0);
    // The router's autoscaling is the CRD's intelligentRoutingSpec.autoScalingSpec (the product does not set it: added here).
    iec.spec.intelligentRoutingSpec.autoScalingSpec = {
      minReplicaCount: 1,
      maxReplicaCount: 2,
      initialCooldownPeriod: 30,
      prometheusTrigger: { name: 'router', serverAddress: AMP, query: 'sum(router_load)', targetValue: 50 },
    };
    iec.spec.autoScalingSpec.initialCooldownPeriod = 30;
    iec.spec.autoScalingSpec.cooldownPeriod = 30;
    assert.equal((await apply(iec)).code, 0);
    await complete('zero');
    const router = await json(['get', 'scaledobject', 'zero-router-scaled-object']);
    assert.equal(router.spec.scaleTargetRef.name, 'zero-router');
    assert.equal(router.spec.minReplicaCount, 1);
    assert.equal((await json(['get', 'scaledobject', 'zero-scaled-object'])).spec.minReplicaCount, 0);
    await until(async () => replicas('zero') === 0, 'zero scaled to 0 after its initial cooldown');
    await sb.advance(10);
    assert.equal(stored('inferenceendpointconfigs', 'zero').status.state, 'DeploymentComplete');
    assert.equal(replicas('zero-router'), 1, 'the router keeps its minimum');
    await sb.admin('/_sandbox/kube/inf/metrics', { method: 'POST', body: { query, value: 3 } });
    await until(async () => replicas('zero') === 1, 'zero activated back to 1');
    assert.equal(condition(scaled('zero-scaled-object'), 'Active').reason, 'ScalerActive');
  });

  it("KEDA's pause annotations: paused-replicas sets the count and removes the HPA; paused takes ParseBool values; a bad count stops scaling", async () => {
    const annotate = (value: Record<string, string | null>) => {
      const so = scaled('zero-scaled-object');
      const annotations = { ...(so.metadata.annotations ?? {}) };
      for (const [k2, v] of Object.entries(value))
        if (v === null) delete annotations[k2];
        else annotations[k2] = v;
      cluster.objects.update(cluster.findType('keda.sh', 'v1alpha1', 'scaledobjects')!, {
        ...so,
        metadata: { ...so.metadata, annotations },
      });
    };
    annotate({ 'autoscaling.keda.sh/paused-replicas': '2' });
    await until(async () => replicas('zero') === 2, 'paused at 2');
    const paused = scaled('zero-scaled-object');
    assert.equal(paused.status.pausedReplicaCount, 2);
    assert.equal(condition(paused, 'Paused').status, 'True');
    assert.equal(cluster.objects.get(T.hpas, 'default', 'keda-hpa-zero-scaled-object'), undefined);

    annotate({ 'autoscaling.keda.sh/paused-replicas': null, 'autoscaling.keda.sh/paused': 'yes' });
    await sb.advance(30);
    assert.equal(condition(scaled('zero-scaled-object'), 'Paused').status, 'True', 'a value ParseBool refuses pauses');
    annotate({ 'autoscaling.keda.sh/paused': 'False' });
    await until(async () => condition(scaled('zero-scaled-object'), 'Paused')?.status === 'False', 'unpaused');
    assert.equal(scaled('zero-scaled-object').status.pausedReplicaCount, undefined);
    assert.ok(cluster.objects.get(T.hpas, 'default', 'keda-hpa-zero-scaled-object'), 'the HPA is back');

    const before = replicas('zero');
    annotate({ 'autoscaling.keda.sh/paused': null, 'autoscaling.keda.sh/paused-replicas': 'two' });
    await until(
      async () => condition(scaled('zero-scaled-object'), 'Ready')?.status === 'False',
      'not ready on a bad count',
    );
    await sb.advance(60);
    assert.equal(replicas('zero'), before);
    await k.kubectl(['delete', 'inferenceendpointconfig', 'zero']);
  });

  it('a trigger KEDA cannot build fails its check naming the parameter, with no HPA and no scaling', async () => {
    const applied = await apply(
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: 'default' },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: {
              nodeSelector: { 'node.kubernetes.io/instance-type': 'ml.m5.4xlarge' },
              containers: [{ name: 'web', image: 'nginx:1.27', resources: { requests: { cpu: '100m' } } }],
            },
          },
        },
      },
      {
        apiVersion: 'keda.sh/v1alpha1',
        kind: 'ScaledObject',
        metadata: { name: 'web', namespace: 'default' },
        spec: {
          scaleTargetRef: { name: 'web' },
          triggers: [
            { type: 'aws-cloudwatch', metadata: { namespace: 'AWS/SQS', metricName: 'Depth', targetMetricValue: '5' } },
          ],
        },
      },
    );
    assert.equal(applied.code, 0, applied.stderr);
    await until(async () => condition(scaled('web'), 'Ready')?.reason === 'ScaledObjectCheckFailed', 'check failed');
    const events = await json(['get', 'events', '--field-selector', 'involvedObject.name=web,reason=KEDAScalerFailed']);
    assert.match(events.items[0].message, /missing required parameter "awsRegion"/);
    assert.equal(cluster.objects.get(T.hpas, 'default', 'keda-hpa-web'), undefined);
    assert.equal(replicas('web'), 1);
  });
});
