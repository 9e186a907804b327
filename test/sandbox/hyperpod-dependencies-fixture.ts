import { Sha256 } from '@aws-crypto/sha256-js';
import { DescribeClusterCommand, EKSClient } from '@aws-sdk/client-eks';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { KubeConfig, KubernetesObjectApi, type KubernetesObject } from '@kubernetes/client-node';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import { listInstanceTypes, type InstanceTypeInfo } from '../../sandbox/catalog/instance-types.js';
import type { TestSandbox } from '../helpers/sandbox.js';

/**
 * `helm install hyperpod-dependencies HyperPodHelmChart --namespace kube-system`, as a user of the
 * SDK does before SageMaker CreateCluster (AWS calls that step required): the objects of the chart
 * that the sandbox's HyperPod looks for, named as the chart names them (aws/sagemaker-hyperpod-cli
 * helm_chart/HyperPodHelmChart at 011ca92), created through the cluster's Kubernetes API with
 * @kubernetes/client-node. Written for the tests, not copied: each DaemonSet runs only on the instance
 * types its chart lists (accelerated ones), so a cluster of CPU nodes gets no daemon pods, and each
 * device plugin mounts the kubelet's device-plugin socket directory as the charts do.
 */
export async function installHyperPodDependencies(
  sb: Pick<TestSandbox, 'advance'>,
  eksClusterName: string,
  region = 'us-west-2',
): Promise<void> {
  // A tick after ACTIVE bootstraps the cluster's namespaces and system objects.
  await sb.advance(1);
  const api = await kubeObjects(eksClusterName, region);
  for (const o of dependencyChartObjects(region)) await api.create(o);
}

/**
 * `helm uninstall hyperpod-dependencies`: the chart's objects go again (the namespace last). For tests
 * that watch EKS and HyperPod on their own after CreateCluster, which needs the chart only to accept
 * the cluster.
 */
export async function uninstallHyperPodDependencies(eksClusterName: string, region = 'us-west-2'): Promise<void> {
  const api = await kubeObjects(eksClusterName, region);
  for (const o of dependencyChartObjects(region).reverse()) await api.delete(o);
}

/**
 * A Kubernetes client for a sandbox EKS cluster, authenticated as `aws eks get-token` does: a
 * presigned STS GetCallerIdentity URL naming the cluster in `x-k8s-aws-id`, behind `k8s-aws-v1.`.
 */
export async function kubeObjects(eksClusterName: string, region = 'us-west-2'): Promise<KubernetesObjectApi> {
  const { cluster } = await new EKSClient({ region }).send(new DescribeClusterCommand({ name: eksClusterName }));
  const hostname = `sts.${region}.amazonaws.com`;
  const signer = new SignatureV4({ service: 'sts', region, sha256: Sha256, credentials: defaultProvider() });
  const signed = await signer.presign(
    new HttpRequest({
      method: 'GET',
      protocol: 'https:',
      hostname,
      path: '/',
      query: { Action: 'GetCallerIdentity', Version: '2011-06-15' },
      headers: { host: hostname, 'x-k8s-aws-id': eksClusterName },
    }),
    { expiresIn: 60 },
  );
  const url = `https://${hostname}/?${new URLSearchParams(signed.query as Record<string, string>).toString()}`;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: eksClusterName, server: cluster!.endpoint!, caData: cluster!.certificateAuthority!.data! }],
    users: [{ name: 'creator', token: `k8s-aws-v1.${Buffer.from(url).toString('base64url')}` }],
    contexts: [{ name: eksClusterName, cluster: eksClusterName, user: 'creator' }],
    currentContext: eksClusterName,
  });
  return KubernetesObjectApi.makeApiClient(kc);
}

/** A manifest: KubernetesObject with the kind's own fields (spec, rules, roleRef, …). */
type Manifest = KubernetesObject & Record<string, unknown>;

const RELEASE = 'hyperpod-dependencies';
const ml = (types: InstanceTypeInfo[]) => types.filter((t) => t.hyperpod).map((t) => `ml.${t.instanceType}`);
const TYPES = listInstanceTypes();
const GPU_TYPES = ml(TYPES.filter((t) => t.gpus));
const NEURON_TYPES = ml(TYPES.filter((t) => t.accelerators));
const EFA_TYPES = ml(TYPES.filter((t) => t.efaSupported));

function daemonSet(p: {
  namespace: string;
  name: string;
  image: string;
  types: string[];
  serviceAccountName?: string;
  socket?: boolean;
}): Manifest {
  const labels = { 'app.kubernetes.io/name': p.name };
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: p.name, namespace: p.namespace, labels },
    spec: {
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          ...(p.serviceAccountName ? { serviceAccountName: p.serviceAccountName } : {}),
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchExpressions: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: p.types }] },
                ],
              },
            },
          },
          tolerations: [{ operator: 'Exists' }],
          containers: [
            {
              name: p.name,
              image: p.image,
              ...(p.socket
                ? { volumeMounts: [{ name: 'device-plugin', mountPath: '/var/lib/kubelet/device-plugins' }] }
                : {}),
            },
          ],
          ...(p.socket
            ? { volumes: [{ name: 'device-plugin', hostPath: { path: '/var/lib/kubelet/device-plugins' } }] }
            : {}),
        },
      },
    },
  };
}

function dependencyChartObjects(region: string): Manifest[] {
  const agent = 'health-monitoring-agent';
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'aws-hyperpod' } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: agent, namespace: 'aws-hyperpod' } },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: agent },
      rules: [
        { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'patch'] },
        { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
        { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch', 'update'] },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: agent },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: agent },
      subjects: [{ kind: 'ServiceAccount', name: agent, namespace: 'aws-hyperpod' }],
    },
    daemonSet({
      namespace: 'aws-hyperpod',
      name: agent,
      image: `905418368575.dkr.ecr.${region}.amazonaws.com/hyperpod-health-monitoring-agent:1.0.1892.0_1.0.424.0`,
      types: [...GPU_TYPES, ...NEURON_TYPES],
      serviceAccountName: agent,
    }),
    daemonSet({
      namespace: 'kube-system',
      name: `${RELEASE}-nvidia-device-plugin`,
      image: 'nvcr.io/nvidia/k8s-device-plugin:v0.16.1',
      types: GPU_TYPES,
      socket: true,
    }),
    daemonSet({
      namespace: 'kube-system',
      name: `${RELEASE}-aws-efa-k8s-device-plugin`,
      image: '602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/aws-efa-k8s-device-plugin:v0.5.6',
      types: EFA_TYPES,
      socket: true,
    }),
    daemonSet({
      namespace: 'kube-system',
      name: 'neuron-device-plugin-daemonset',
      image: 'public.ecr.aws/neuron/neuron-device-plugin:2.19.16.0',
      types: NEURON_TYPES,
      socket: true,
    }),
  ];
}
