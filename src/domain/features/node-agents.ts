import { InputError } from '../errors.js';
import { clusterRoleBindingManifest } from '../kube/cluster-role-binding.js';
import { clusterRoleManifest, type PolicyRule } from '../kube/cluster-role.js';
import { daemonSetManifest } from '../kube/daemon-set.js';
import type { Loose } from '../kube/kind.js';
import { namespaceManifest } from '../kube/namespace.js';
import { serviceAccountManifest } from '../kube/service-account.js';
import type { KubeObject } from '../kube-object.js';
import {
  COMPUTE_TYPE_LABEL,
  HYPERPOD_COMPUTE_TYPE,
  INSTANCE_TYPE_LABEL,
  NODE_HEALTH_LABEL,
} from '../node-health-terms.js';
import {
  EFA_DEVICE_PLUGIN_IMAGE,
  EFA_PLUGIN_INSTANCE_TYPES,
  HEALTH_AGENT_NEURON_INSTANCE_TYPES,
  HEALTH_AGENT_NVIDIA_INSTANCE_TYPES,
  HEALTH_AGENT_REGIONS,
  HYPERPOD_CHART_SOURCE,
  healthAgentImage,
  NEURON_DEVICE_PLUGIN_IMAGE,
  NEURON_PLUGIN_INSTANCE_TYPES,
  NVIDIA_DEVICE_PLUGIN_IMAGE,
  NVIDIA_PLUGIN_INSTANCE_TYPES,
} from './hyperpod-chart.js';

/**
 * The node agents of HyperPod's dependencies chart, written from its templates and values
 * (hyperpod-chart.ts names each source): the NVIDIA, Neuron and EFA device plugins, and the
 * health-monitoring agent with its RBAC. Each runs only on HyperPod nodes (`compute-type: hyperpod`)
 * of the instance types the chart schedules it on.
 *
 * A device plugin registers with the kubelet through the socket directory `/var/lib/kubelet/device-plugins`
 * on the host: without that mount no `nvidia.com/gpu`, `aws.amazon.com/neuron*` or `vpc.amazonaws.com/efa`
 * is ever advertised and every pod asking for one stays Pending.
 */

/** The kubelet's device-plugin socket directory (Kubernetes device-plugin API). */
export const DEVICE_PLUGIN_DIR = '/var/lib/kubelet/device-plugins';

const HYPERPOD_NODES = { [COMPUTE_TYPE_LABEL]: HYPERPOD_COMPUTE_TYPE };
/** What every plugin must tolerate on a HyperPod node (the chart's readme: "across all plugins"). */
const HEALTH_TAINT = { key: NODE_HEALTH_LABEL, operator: 'Equal', value: 'Unschedulable', effect: 'NoSchedule' };

const instanceTypes = (values: readonly string[], extra: Loose[] = []) => ({
  nodeAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [
        { matchExpressions: [{ key: INSTANCE_TYPE_LABEL, operator: 'In', values: [...values] }, ...extra] },
      ],
    },
  },
});
const hostPath = (name: string, path: string, type?: string) => ({
  name,
  hostPath: { path, ...(type ? { type } : {}) },
});
const fromField = (name: string, fieldPath: string) => ({ name, valueFrom: { fieldRef: { fieldPath } } });

function nvidiaDevicePlugin(): KubeObject {
  return daemonSetManifest({
    namespace: 'kube-system',
    name: 'nvidia-device-plugin-daemonset',
    podSpec: {
      priorityClassName: 'system-node-critical',
      securityContext: {},
      nodeSelector: HYPERPOD_NODES,
      affinity: instanceTypes(NVIDIA_PLUGIN_INSTANCE_TYPES),
      tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }, HEALTH_TAINT],
      containers: [
        {
          name: 'nvidia-device-plugin-ctr',
          image: NVIDIA_DEVICE_PLUGIN_IMAGE,
          imagePullPolicy: 'IfNotPresent',
          command: ['nvidia-device-plugin'],
          env: [
            { name: 'MPS_ROOT', value: '/run/nvidia/mps' },
            { name: 'NVIDIA_VISIBLE_DEVICES', value: 'all' },
            { name: 'NVIDIA_DRIVER_CAPABILITIES', value: 'compute,utility' },
          ],
          // The chart's default with no MIG strategy and no CPU-manager compatibility.
          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
          volumeMounts: [
            { name: 'device-plugin', mountPath: DEVICE_PLUGIN_DIR },
            { name: 'mps-shm', mountPath: '/dev/shm' },
            { name: 'mps-root', mountPath: '/mps' },
            { name: 'cdi-root', mountPath: '/var/run/cdi' },
          ],
        },
      ],
      volumes: [
        hostPath('device-plugin', DEVICE_PLUGIN_DIR),
        hostPath('mps-root', '/run/nvidia/mps', 'DirectoryOrCreate'),
        hostPath('mps-shm', '/run/nvidia/mps/shm'),
        hostPath('cdi-root', '/var/run/cdi', 'DirectoryOrCreate'),
      ],
    },
  });
}

/** charts/neuron-device-plugin/templates/k8s-neuron-device-plugin-rbac.yaml: it labels nodes and patches pods it allocates. */
const NEURON_PLUGIN_RULES: PolicyRule[] = [
  { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
  { apiGroups: [''], resources: ['pods'], verbs: ['update', 'patch', 'get', 'list', 'watch'] },
  { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch', 'update'] },
];

function neuronDevicePlugin(): KubeObject[] {
  const name = 'neuron-device-plugin';
  return [
    clusterRoleManifest({ name, rules: NEURON_PLUGIN_RULES }),
    serviceAccountManifest('kube-system', name),
    clusterRoleBindingManifest({ name, role: name, namespace: 'kube-system', serviceAccount: name }),
    daemonSetManifest({
      namespace: 'kube-system',
      name,
      podSpec: {
        serviceAccountName: name,
        priorityClassName: 'system-node-critical',
        nodeSelector: HYPERPOD_NODES,
        affinity: instanceTypes(NEURON_PLUGIN_INSTANCE_TYPES),
        tolerations: [
          { key: 'CriticalAddonsOnly', operator: 'Exists' },
          { key: 'aws.amazon.com/neuron', operator: 'Exists', effect: 'NoSchedule' },
          HEALTH_TAINT,
        ],
        containers: [
          {
            name,
            image: NEURON_DEVICE_PLUGIN_IMAGE,
            imagePullPolicy: 'Always',
            env: [
              { name: 'KUBECONFIG', value: '/etc/kubernetes/kubelet.conf' },
              fromField('NODE_NAME', 'spec.nodeName'),
            ],
            securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
            volumeMounts: [
              { name: 'device-plugin', mountPath: DEVICE_PLUGIN_DIR },
              { name: 'infa-map', mountPath: '/run' },
            ],
          },
        ],
        volumes: [hostPath('device-plugin', DEVICE_PLUGIN_DIR), hostPath('infa-map', '/run')],
      },
    }),
  ];
}

function efaDevicePlugin(): KubeObject {
  return daemonSetManifest({
    namespace: 'kube-system',
    name: 'aws-efa-k8s-device-plugin',
    podSpec: {
      automountServiceAccountToken: false,
      hostNetwork: true,
      priorityClassName: 'system-node-critical',
      nodeSelector: HYPERPOD_NODES,
      // The chart keeps EKS Auto Mode nodes out; HyperPod nodes never are, but the term is the chart's.
      affinity: instanceTypes(EFA_PLUGIN_INSTANCE_TYPES, [
        { key: 'eks.amazonaws.com/compute-type', operator: 'NotIn', values: ['auto'] },
      ]),
      // The chart lists CriticalAddonsOnly twice (its own and HyperPod's values); once is the same.
      tolerations: [
        { key: 'CriticalAddonsOnly', operator: 'Exists' },
        { key: 'aws.amazon.com/efa', operator: 'Exists', effect: 'NoSchedule' },
        HEALTH_TAINT,
      ],
      containers: [
        {
          name: 'aws-efa-k8s-device-plugin',
          image: EFA_DEVICE_PLUGIN_IMAGE,
          securityContext: { allowPrivilegeEscalation: true, privileged: true, runAsNonRoot: false, runAsUser: 0 },
          resources: { requests: { cpu: '10m', memory: '20Mi' } },
          volumeMounts: [
            { name: 'device-plugin', mountPath: DEVICE_PLUGIN_DIR },
            { name: 'infiniband-volume', mountPath: '/dev/infiniband/' },
            { name: 'neuron-tools', mountPath: '/opt/aws/neuron/' },
          ],
        },
      ],
      volumes: [
        hostPath('device-plugin', DEVICE_PLUGIN_DIR),
        hostPath('infiniband-volume', '/dev/infiniband/'),
        hostPath('neuron-tools', '/opt/aws/neuron/', 'DirectoryOrCreate'),
      ],
    },
  });
}

/** The device-plugins manifest set: NVIDIA, Neuron (with its RBAC), EFA. */
export function devicePluginManifests(): KubeObject[] {
  return [nvidiaDevicePlugin(), ...neuronDevicePlugin(), efaDevicePlugin()];
}

// ── the health-monitoring agent ─────────────────────────────────────────────────────────────────

/** The agent's own flag (node-problem-detector's): the system log monitor's config in the image. */
export const HEALTH_AGENT_ARGS = [
  '--enable-k8s-exporter=false',
  '--config.system-log-monitor=/config/system-message-monitor.json',
];

/** charts/health-monitoring-agent/templates/health-monitoring-agent.yaml → ClusterRole health-monitoring-agent. */
export const HEALTH_AGENT_RULES: PolicyRule[] = [
  { apiGroups: [''], resources: ['nodes'], verbs: ['get'] },
  { apiGroups: [''], resources: ['nodes', 'nodes/status'], verbs: ['patch'] },
  { apiGroups: ['', 'events.k8s.io'], resources: ['events'], verbs: ['create', 'patch', 'update'] },
];

const AGENT = 'health-monitoring-agent';

/** A Region the chart has no agent image for: refused by field (create-cluster checks it before any AWS call). */
export function healthAgentRegionProblem(region: string): string | undefined {
  if (healthAgentImage(region)) return undefined;
  return (
    `HyperPod's health-monitoring agent has no image for ${region} in its dependencies chart (${HYPERPOD_CHART_SOURCE}); ` +
    `it is published for ${HEALTH_AGENT_REGIONS.join(', ')}.`
  );
}

function agentDaemonSet(
  namespace: string,
  name: string,
  image: string,
  types: readonly string[],
  extra: { args?: string[]; env?: Loose[] },
): KubeObject {
  return daemonSetManifest({
    namespace,
    name,
    podSpec: {
      serviceAccountName: AGENT,
      nodeSelector: HYPERPOD_NODES,
      affinity: instanceTypes(types),
      // The agent must keep running on nodes HyperPod marked unhealthy: that is when it matters.
      tolerations: [
        { effect: 'NoSchedule', operator: 'Exists' },
        { effect: 'NoExecute', operator: 'Exists' },
      ],
      containers: [
        {
          name,
          image,
          imagePullPolicy: 'IfNotPresent',
          ...(extra.args ? { args: extra.args } : {}),
          resources: { limits: { cpu: '500m', memory: '512Mi' }, requests: { cpu: '500m', memory: '512Mi' } },
          securityContext: { runAsUser: 1000, runAsGroup: 2000 },
          env: [fromField('NODE_NAME', 'spec.nodeName'), fromField('NODE_IP', 'status.hostIP'), ...(extra.env ?? [])],
          volumeMounts: [
            { name: 'log', mountPath: '/var/log' },
            { name: 'kmsg', mountPath: '/dev/kmsg', readOnly: true },
            // Same time zone as the host.
            { name: 'localtime', mountPath: '/etc/localtime', readOnly: true },
          ],
        },
      ],
      volumes: [hostPath('log', '/var/log/'), hostPath('kmsg', '/dev/kmsg'), hostPath('localtime', '/etc/localtime')],
    },
  });
}

/**
 * The health-monitoring agent as the chart runs it: its ClusterRole and binding, and two DaemonSets —
 * one on the NVIDIA types (the chart gives it no args: the image's own command), one on Inferentia and
 * Trainium with the system-log-monitor flag and no GPU visible. The image comes from the Region's
 * own ECR account; a Region the chart lacks throws (create-cluster refuses it first).
 */
export function healthMonitoringAgentManifests(namespace: string, region: string): KubeObject[] {
  const image = healthAgentImage(region);
  if (!image) throw InputError.field('region', healthAgentRegionProblem(region)!);
  return [
    namespaceManifest(namespace),
    clusterRoleManifest({ name: AGENT, rules: HEALTH_AGENT_RULES }),
    serviceAccountManifest(namespace, AGENT),
    clusterRoleBindingManifest({ name: AGENT, role: AGENT, namespace, serviceAccount: AGENT }),
    agentDaemonSet(namespace, AGENT, image, HEALTH_AGENT_NVIDIA_INSTANCE_TYPES, {}),
    agentDaemonSet(namespace, `${AGENT}-non-nvidia`, image, HEALTH_AGENT_NEURON_INSTANCE_TYPES, {
      args: HEALTH_AGENT_ARGS,
      env: [
        { name: 'NVIDIA_VISIBLE_DEVICES', value: 'void' },
        { name: 'NVIDIA_DRIVER_CAPABILITIES', value: '' },
      ],
    }),
  ];
}
