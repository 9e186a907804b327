import type { KubeObject } from '../types.js';
import {
  configMap,
  csiDriver,
  daemonSet,
  deployment,
  ecr,
  namespace,
  service,
  serviceAccount,
  upstream,
  type AddonParams,
} from './addon-builders.js';
import { CERT_MANAGER_CRDS, KUEUE_CRDS, S3_CSI_CRDS, TRAINING_OPERATOR_CRDS, VPC_CNI_CRDS } from './addon-crds.js';
import { inferenceOperatorManifests } from './inference-addon.js';

/**
 * What each EKS add-on installs in the cluster: its namespace, service accounts, controllers and
 * node agents, Services, CRDs and CSIDriver — names, labels and images as EKS deploys them, in
 * brief. A function of the add-on version (image tags), its namespace and the region.
 */

const system = { priorityClassName: 'system-cluster-critical' };
const critical = [{ key: 'CriticalAddonsOnly', operator: 'Exists' }];

export const ADDON_MANIFESTS: Record<string, (p: AddonParams) => KubeObject[]> = {
  'vpc-cni': ({ namespace: ns, region, version }) => [
    serviceAccount(ns, 'aws-node', { 'app.kubernetes.io/instance': 'aws-vpc-cni' }),
    daemonSet(ns, 'aws-node', {
      labels: { 'k8s-app': 'aws-node' },
      serviceAccountName: 'aws-node',
      hostNetwork: true,
      initContainers: [
        { name: 'aws-vpc-cni-init', image: `${ecr(region)}/amazon-k8s-cni-init:${version}`, requests: { cpu: '25m' } },
      ],
      containers: [
        {
          name: 'aws-node',
          image: `${ecr(region)}/amazon-k8s-cni:${version}`,
          ports: [{ name: 'metrics', containerPort: 61678 }],
          requests: { cpu: '25m' },
        },
        {
          name: 'aws-eks-nodeagent',
          image: `${ecr(region)}/amazon/aws-network-policy-agent:v1.2.1-eksbuild.1`,
          requests: { cpu: '25m' },
        },
      ],
      programs: { 'aws-vpc-cni-init': 'oneshot' },
    }),
    ...VPC_CNI_CRDS,
  ],
  'kube-proxy': ({ namespace: ns, region, version }) => [
    serviceAccount(ns, 'kube-proxy', { 'eks.amazonaws.com/component': 'kube-proxy' }),
    configMap(
      ns,
      'kube-proxy-config',
      { config: 'apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: iptables\n' },
      { 'eks.amazonaws.com/component': 'kube-proxy', 'k8s-app': 'kube-proxy' },
    ),
    daemonSet(ns, 'kube-proxy', {
      labels: { 'k8s-app': 'kube-proxy', 'eks.amazonaws.com/component': 'kube-proxy' },
      serviceAccountName: 'kube-proxy',
      hostNetwork: true,
      containers: [
        {
          name: 'kube-proxy',
          image: `${ecr(region)}/eks/kube-proxy:${version.replace(/-eksbuild/, '-minimal-eksbuild')}`,
          command: [
            'kube-proxy',
            '--v=2',
            '--config=/var/lib/kube-proxy-config/config',
            '--hostname-override=$(NODE_NAME)',
          ],
          requests: { cpu: '100m' },
        },
      ],
    }),
  ],
  coredns: ({ namespace: ns, region, version, clusterDns }) => [
    serviceAccount(ns, 'coredns', { 'eks.amazonaws.com/component': 'coredns', 'k8s-app': 'kube-dns' }),
    configMap(
      ns,
      'coredns',
      {
        Corefile:
          '.:53 {\n    errors\n    health {\n        lameduck 5s\n      }\n    ready\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n      pods insecure\n      fallthrough in-addr.arpa ip6.arpa\n    }\n    prometheus :9153\n    forward . /etc/resolv.conf\n    cache 30\n    loop\n    reload\n    loadbalance\n}\n',
      },
      { 'eks.amazonaws.com/component': 'coredns', 'k8s-app': 'kube-dns' },
    ),
    deployment(ns, 'coredns', {
      ...system,
      labels: { 'k8s-app': 'kube-dns', 'eks.amazonaws.com/component': 'coredns' },
      replicas: 2,
      serviceAccountName: 'coredns',
      tolerations: [...critical, { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
      containers: [
        {
          name: 'coredns',
          image: `${ecr(region)}/eks/coredns:${version}`,
          args: ['-conf', '/etc/coredns/Corefile'],
          ports: [
            { name: 'dns', containerPort: 53, protocol: 'UDP' },
            { name: 'dns-tcp', containerPort: 53 },
            { name: 'metrics', containerPort: 9153 },
          ],
          requests: { cpu: '100m', memory: '70Mi' },
          limits: { memory: '170Mi' },
        },
      ],
    }),
    service(
      ns,
      'kube-dns',
      { 'k8s-app': 'kube-dns' },
      [
        { name: 'dns', port: 53, protocol: 'UDP' },
        { name: 'dns-tcp', port: 53 },
        { name: 'metrics', port: 9153 },
      ],
      { clusterIP: clusterDns, clusterIPs: [clusterDns] },
    ),
  ],
  'eks-pod-identity-agent': ({ namespace: ns, region, version }) => [
    daemonSet(ns, 'eks-pod-identity-agent', {
      labels: {
        'app.kubernetes.io/name': 'eks-pod-identity-agent',
        'app.kubernetes.io/instance': 'eks-pod-identity-agent',
      },
      hostNetwork: true,
      initContainers: [
        {
          name: 'eks-pod-identity-agent-init',
          image: `${ecr(region)}/eks/eks-pod-identity-agent:${upstream(version).replace(/^v/, '')}`,
          command: ['/go-runner', '/eks-pod-identity-agent', 'initialize'],
        },
      ],
      containers: [
        {
          name: 'eks-pod-identity-agent',
          image: `${ecr(region)}/eks/eks-pod-identity-agent:${upstream(version).replace(/^v/, '')}`,
          args: ['--port', '80', '--cluster-name', 'eks', '--probe-port', '2703'],
          ports: [{ name: 'proxy', containerPort: 80 }],
        },
      ],
      programs: { 'eks-pod-identity-agent-init': 'oneshot' },
    }),
  ],
  'metrics-server': ({ namespace: ns, region, version }) => [
    serviceAccount(ns, 'metrics-server', { 'app.kubernetes.io/instance': 'metrics-server' }),
    deployment(ns, 'metrics-server', {
      ...system,
      labels: { 'app.kubernetes.io/name': 'metrics-server', 'app.kubernetes.io/instance': 'metrics-server' },
      replicas: 2,
      serviceAccountName: 'metrics-server',
      containers: [
        {
          name: 'metrics-server',
          image: `${ecr(region)}/eks/metrics-server:${version}`,
          args: [
            '--secure-port=10251',
            '--cert-dir=/tmp',
            '--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname',
            '--kubelet-use-node-status-port',
            '--metric-resolution=15s',
          ],
          ports: [{ name: 'https', containerPort: 10251 }],
          requests: { cpu: '100m', memory: '200Mi' },
        },
      ],
    }),
    service(
      ns,
      'metrics-server',
      { 'app.kubernetes.io/name': 'metrics-server', 'app.kubernetes.io/instance': 'metrics-server' },
      [{ name: 'https', port: 443, targetPort: 'https' }],
    ),
  ],
  'cert-manager': ({ namespace: ns, version }) => {
    const part = (name: string, component: string, image: string, port?: number) => [
      serviceAccount(ns, name, {
        'app.kubernetes.io/instance': 'cert-manager',
        'app.kubernetes.io/component': component,
      }),
      deployment(ns, name, {
        labels: {
          app: component === 'controller' ? 'cert-manager' : component,
          'app.kubernetes.io/name': component === 'controller' ? 'cert-manager' : component,
          'app.kubernetes.io/instance': 'cert-manager',
          'app.kubernetes.io/component': component,
        },
        serviceAccountName: name,
        containers: [
          {
            name: `cert-manager-${component}`,
            image: `quay.io/jetstack/cert-manager-${image}:${upstream(version)}`,
            ...(port
              ? { ports: [{ name: component === 'webhook' ? 'https' : 'http-metrics', containerPort: port }] }
              : {}),
          },
        ],
      }),
    ];
    return [
      namespace(ns),
      ...part('cert-manager', 'controller', 'controller', 9402),
      ...part('cert-manager-cainjector', 'cainjector', 'cainjector'),
      ...part('cert-manager-webhook', 'webhook', 'webhook', 10250),
      service(
        ns,
        'cert-manager',
        {
          'app.kubernetes.io/name': 'cert-manager',
          'app.kubernetes.io/instance': 'cert-manager',
          'app.kubernetes.io/component': 'controller',
        },
        [{ name: 'tcp-prometheus-servicemonitor', port: 9402 }],
      ),
      service(
        ns,
        'cert-manager-webhook',
        {
          'app.kubernetes.io/name': 'webhook',
          'app.kubernetes.io/instance': 'cert-manager',
          'app.kubernetes.io/component': 'webhook',
        },
        [{ name: 'https', port: 443, targetPort: 'https' }],
      ),
      ...CERT_MANAGER_CRDS,
    ];
  },
  'aws-mountpoint-s3-csi-driver': ({ namespace: ns, version }) => {
    const image = `public.ecr.aws/mountpoint-s3-csi-driver/aws-mountpoint-s3-csi-driver:${upstream(version)}`;
    return [
      serviceAccount(ns, 's3-csi-driver-sa', { 'app.kubernetes.io/name': 'aws-mountpoint-s3-csi-driver' }),
      daemonSet(ns, 's3-csi-node', {
        labels: { app: 's3-csi-node', 'app.kubernetes.io/name': 'aws-mountpoint-s3-csi-driver' },
        serviceAccountName: 's3-csi-driver-sa',
        containers: [
          { name: 's3-plugin', image, args: ['--endpoint=unix:/csi/csi.sock', '--logtostderr', '--v=4'] },
          {
            name: 'node-driver-registrar',
            image: 'public.ecr.aws/eks-distro/kubernetes-csi/node-driver-registrar:v2.13.0-eks-1-33-4',
          },
          {
            name: 'liveness-probe',
            image: 'public.ecr.aws/eks-distro/kubernetes-csi/livenessprobe:v2.15.0-eks-1-33-4',
          },
        ],
      }),
      ...(version.startsWith('v1.')
        ? []
        : [
            deployment(ns, 's3-csi-controller', {
              labels: { app: 's3-csi-controller', 'app.kubernetes.io/name': 'aws-mountpoint-s3-csi-driver' },
              serviceAccountName: 's3-csi-driver-sa',
              containers: [{ name: 's3-csi-controller', image }],
            }),
            ...S3_CSI_CRDS,
          ]),
      csiDriver('s3.csi.aws.com', { podInfoOnMount: true, fsGroupPolicy: 'None' }),
    ];
  },
  'aws-fsx-csi-driver': ({ namespace: ns, version }) => {
    const image = `public.ecr.aws/fsx-csi-driver/aws-fsx-csi-driver:${upstream(version)}`;
    return [
      serviceAccount(ns, 'fsx-csi-controller-sa', { 'app.kubernetes.io/name': 'aws-fsx-csi-driver' }),
      serviceAccount(ns, 'fsx-csi-node-sa', { 'app.kubernetes.io/name': 'aws-fsx-csi-driver' }),
      deployment(ns, 'fsx-csi-controller', {
        labels: { app: 'fsx-csi-controller', 'app.kubernetes.io/name': 'aws-fsx-csi-driver' },
        replicas: 2,
        serviceAccountName: 'fsx-csi-controller-sa',
        tolerations: critical,
        containers: [
          {
            name: 'fsx-plugin',
            image,
            args: ['--mode=controller', '--endpoint=$(CSI_ENDPOINT)', '--logtostderr', '--v=2'],
          },
          {
            name: 'csi-provisioner',
            image: 'public.ecr.aws/eks-distro/kubernetes-csi/external-provisioner:v5.2.0-eks-1-33-4',
          },
        ],
      }),
      daemonSet(ns, 'fsx-csi-node', {
        labels: { app: 'fsx-csi-node', 'app.kubernetes.io/name': 'aws-fsx-csi-driver' },
        serviceAccountName: 'fsx-csi-node-sa',
        containers: [
          { name: 'fsx-plugin', image, args: ['--mode=node', '--endpoint=$(CSI_ENDPOINT)', '--logtostderr', '--v=2'] },
          {
            name: 'node-driver-registrar',
            image: 'public.ecr.aws/eks-distro/kubernetes-csi/node-driver-registrar:v2.13.0-eks-1-33-4',
          },
        ],
      }),
      csiDriver('fsx.csi.aws.com', {}),
    ];
  },
  'amazon-sagemaker-hyperpod-training-operator': ({ namespace: ns, version }) => [
    namespace(ns, { 'hp-training-control-plane': 'true' }),
    serviceAccount(ns, 'hp-training-operator-controller-manager', { 'hp-training-control-plane': 'true' }),
    deployment(ns, 'hp-training-operator-hp-training-controller-manager', {
      labels: { 'hp-training-control-plane': 'hp-training-controller-manager', 'control-plane': 'controller-manager' },
      serviceAccountName: 'hp-training-operator-controller-manager',
      nodeSelector: { 'sagemaker.amazonaws.com/compute-type': 'hyperpod' },
      containers: [
        {
          name: 'manager',
          image: `public.ecr.aws/sagemaker/hyperpod-training-operator:${upstream(version)}`,
          args: ['--leader-elect', '--health-probe-bind-address=:8081'],
          requests: { cpu: '250m', memory: '512Mi' },
          limits: { cpu: '2', memory: '2Gi' },
        },
      ],
    }),
    ...TRAINING_OPERATOR_CRDS,
  ],
  'amazon-sagemaker-hyperpod-inference': inferenceOperatorManifests,
  'amazon-sagemaker-hyperpod-observability': ({ namespace: ns, version }) => {
    const labels = (name: string) => ({
      'app.kubernetes.io/name': name,
      'app.kubernetes.io/part-of': 'hyperpod-observability',
    });
    const image = (name: string) => `public.ecr.aws/sagemaker/hyperpod-observability/${name}:${upstream(version)}`;
    return [
      namespace(ns),
      serviceAccount(ns, 'hyperpod-observability-collector'),
      deployment(ns, 'hyperpod-observability-collector', {
        labels: labels('hyperpod-observability-collector'),
        serviceAccountName: 'hyperpod-observability-collector',
        containers: [
          { name: 'otel-collector', image: image('otel-collector'), ports: [{ name: 'otlp', containerPort: 4317 }] },
        ],
      }),
      deployment(ns, 'kube-state-metrics', {
        labels: labels('kube-state-metrics'),
        containers: [
          {
            name: 'kube-state-metrics',
            image: 'registry.k8s.io/kube-state-metrics/kube-state-metrics:v2.15.0',
            ports: [{ name: 'http-metrics', containerPort: 8080 }],
          },
        ],
      }),
      daemonSet(ns, 'node-exporter', {
        labels: labels('node-exporter'),
        hostNetwork: true,
        containers: [
          {
            name: 'node-exporter',
            image: 'quay.io/prometheus/node-exporter:v1.9.1',
            ports: [{ name: 'metrics', containerPort: 9100 }],
          },
        ],
      }),
      daemonSet(ns, 'dcgm-exporter', {
        labels: labels('dcgm-exporter'),
        nodeSelector: { 'sagemaker.amazonaws.com/compute-type': 'hyperpod' },
        containers: [
          {
            name: 'dcgm-exporter',
            image: 'nvcr.io/nvidia/k8s/dcgm-exporter:4.2.3-4.1.3-ubuntu22.04',
            ports: [{ name: 'metrics', containerPort: 9400 }],
          },
        ],
      }),
      daemonSet(ns, 'efa-exporter', {
        labels: labels('efa-exporter'),
        nodeSelector: { 'sagemaker.amazonaws.com/compute-type': 'hyperpod' },
        containers: [
          { name: 'efa-exporter', image: image('efa-exporter'), ports: [{ name: 'metrics', containerPort: 9109 }] },
        ],
      }),
    ];
  },
  'amazon-sagemaker-hyperpod-taskgovernance': ({ namespace: ns, version }) => [
    namespace(ns, { 'control-plane': 'controller-manager' }),
    serviceAccount(ns, 'kueue-controller-manager', { 'app.kubernetes.io/name': 'kueue' }),
    deployment(ns, 'kueue-controller-manager', {
      labels: {
        'control-plane': 'controller-manager',
        'app.kubernetes.io/name': 'kueue',
        'app.kubernetes.io/component': 'controller',
      },
      serviceAccountName: 'kueue-controller-manager',
      containers: [
        {
          name: 'manager',
          image: `public.ecr.aws/sagemaker/hyperpod-task-governance/kueue:${upstream(version)}`,
          args: ['--config=/controller_manager_config.yaml', '--zap-log-level=2'],
          ports: [{ name: 'webhook-server', containerPort: 9443 }],
          requests: { cpu: '500m', memory: '512Mi' },
        },
      ],
    }),
    service(ns, 'kueue-webhook-service', { 'control-plane': 'controller-manager' }, [
      { name: 'https', port: 443, targetPort: 9443 },
    ]),
    ...KUEUE_CRDS,
  ],
};
