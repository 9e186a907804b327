import { CreateAddonCommand, DescribeAddonCommand, EKSClient } from '@aws-sdk/client-eks';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { makeKubeCluster, type KubeCluster } from '../../sandbox/kube/cluster.js';
import { T } from '../../sandbox/kube/controllers/util.js';
import type { ClusterKubeState } from '../../sandbox/kube/objects.js';
import { inferenceOperatorConfigurationValues } from '../../src/domain/features/install-pieces.js';
import { node } from '../kube/controllers-fixtures.js';
import { startKubeCluster, type TestKubeCluster } from './kube.js';
import { eventually, startTestSandbox, type TestSandbox } from './sandbox.js';

const ACCOUNT = '000000000000';
const role = (name: string) => `arn:aws:iam::${ACCOUNT}:role/${name}`;
/** The bucket S3 model sources name. */
export const MODELS_BUCKET = 'inf-models-000000000000';

export interface InferenceOperatorWorld {
  sb: TestSandbox;
  k: TestKubeCluster;
  /** The cluster's stored objects, read and written in place (nodes the tests add, what the operator made). */
  cluster: KubeCluster;
}

/**
 * A sandbox EKS cluster `inf` with the inference operator's add-on running (its needs first: cert-manager, the CSI
 * drivers, metrics-server; its roles as the product would configure them), a models bucket, two ml.g5.8xlarge GPU
 * nodes for the endpoints and a CPU node for the add-on's controllers — what the sandbox operator tests start from.
 */
export async function startInferenceOperatorWorld(): Promise<InferenceOperatorWorld> {
  const sb = await startTestSandbox();
  const k = await startKubeCluster(sb, 'inf');
  const eks = new EKSClient({});
  const until = <V>(probe: () => Promise<V | undefined | false>, what: string, stepSeconds = 5) =>
    eventually(probe, { sandbox: sb, stepSeconds, tries: 120, what });
  for (const addonName of ['cert-manager', 'aws-mountpoint-s3-csi-driver', 'aws-fsx-csi-driver', 'metrics-server'])
    await eks.send(new CreateAddonCommand({ clusterName: 'inf', addonName }));
  await sb.advance(4 * 60);
  const configurationValues = inferenceOperatorConfigurationValues({
    region: 'us-west-2',
    eksClusterName: 'inf',
    hyperpodClusterArn: `arn:aws:sagemaker:us-west-2:${ACCOUNT}:cluster/abcdef123456`,
    tlsBucket: 'inf-tls-000000000000',
    roleArns: new Map([
      ['execution', role('SageMakerHyperPodInference-inf-exec')],
      ['gated-model', role('inf-gated')],
      ['load-balancer-controller', role('inf-alb')],
      ['keda', role('inf-keda')],
    ]),
  });
  await eks.send(
    new CreateAddonCommand({
      clusterName: 'inf',
      addonName: 'amazon-sagemaker-hyperpod-inference',
      configurationValues,
    }),
  );
  const addonStatus = async () =>
    (await eks.send(new DescribeAddonCommand({ clusterName: 'inf', addonName: 'amazon-sagemaker-hyperpod-inference' })))
      .addon?.status ?? '';
  await until(async () => ['ACTIVE', 'DEGRADED'].includes(await addonStatus()), 'the inference add-on running', 30);
  await new S3Client({}).send(new CreateBucketCommand({ Bucket: MODELS_BUCKET }));
  const data = (sb.sandbox.runtime.store.state as unknown as { kube: Record<string, ClusterKubeState> }).kube[k.arn]!;
  const cluster = makeKubeCluster({ arn: k.arn, name: 'inf', region: 'us-west-2' }, data, {
    now: () => sb.sandbox.runtime.clock.now(),
    changed: () => sb.sandbox.runtime.store.markDirty(),
  });
  const type = { 'node.kubernetes.io/instance-type': 'ml.g5.8xlarge' };
  for (let i = 0; i < 2; i++)
    cluster.objects.create(
      T.nodes,
      node(`gpu-${i}`, { cpu: '32', memory: '128Gi', 'nvidia.com/gpu': '1' }, { labels: type, ip: `10.0.1.${20 + i}` }),
    );
  cluster.objects.create(
    T.nodes,
    node(
      'cpu-0',
      { cpu: '32', memory: '128Gi' },
      { labels: { 'node.kubernetes.io/instance-type': 'ml.m5.4xlarge' }, ip: '10.0.1.40' },
    ),
  );
  await until(
    async () =>
      cluster.objects
        .list(T.deployments, 'hyperpod-inference-system')
        .some((d) => d.metadata.name === 'keda-operator' && Number((d.status as any)?.readyReplicas ?? 0) > 0),
    'KEDA running',
  );
  return { sb, k, cluster };
}
