import type { SandboxState } from '../../core/store.js';
import { listHyperPodNodes, requestNodeRecovery, type HyperPodNodeView } from '../../services/sagemaker/public.js';
import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { recordEvent } from './events.js';
import { registeredPlugins } from './device-plugins.js';
import { agentWatches } from './health-agent.js';
import { nodeInfo, nodeResources } from './node-shape.js';
import { keepConditionTimes, rfc3339, save, T, type Any } from './util.js';

/**
 * HyperPod instances as Nodes `hyperpod-<instance id>`, kept as HyperPod's agents keep them: the
 * labels of hyperpod-apis.md §4 (compute type, instance group, instance type, zone, health status,
 * deep-health-check status, fault type and reason), the group's KubernetesConfig labels and taints,
 * the health taint (and a cordon) while not Schedulable, capacity from the instance type — its GPUs,
 * Neuron devices and EFA interfaces only while their device plugins are registered (device-plugins.ts)
 * — and Ready only while the instance runs. A node registers once its instance has booted, turns NotReady while
 * it reboots, and goes with its instance (replacement, scale-in, cluster deletion).
 *
 * SageMaker is the truth for health: its changes show at the next tick — an agent-found fault only while
 * a working health agent runs on the node (AGENT_FOUND_FAULTS). The one change that flows
 * the other way is a user labelling a node UnschedulablePendingReboot/Replacement (`kubectl label
 * --overwrite`), which asks HyperPod to reboot or replace the instance.
 */

const HEALTH = 'sagemaker.amazonaws.com/node-health-status';
const COMPUTE = 'sagemaker.amazonaws.com/compute-type';
const DHC = 'sagemaker.amazonaws.com/deep-health-check-status';
const FAULT_TYPE = 'sagemaker.amazonaws.com/fault-type';
const FAULT_REASON = 'sagemaker.amazonaws.com/fault-reason';
/** What the sync last wrote (health, group labels, whether it cordoned), to tell user changes from stale state. */
const SYNC = 'sandbox.instantstart.dev/hyperpod-sync';
const RECOVERY = new Set(['UnschedulablePendingReboot', 'UnschedulablePendingReplacement']);
const REGISTERED = new Set(['Running', 'DeepHealthCheckInProgress', 'SystemUpdating']);
const HEARTBEAT_MS = 5 * 60_000;
/**
 * The faults HyperPod's health-monitoring agent finds on the node, from its kernel and driver logs (GPU
 * Xid and DCGM errors, Neuron and EFA errors, kernel panics and deadlocks — the sandbox's fault types,
 * node-lifecycle.ts → faultTypeOf): they show on the node only while a working agent runs there
 * (health-agent.ts). What HyperPod's own instance checks find (InstanceError) does not depend on the agent.
 */
const AGENT_FOUND_FAULTS = new Set(['GpuError', 'NeuronError', 'NetworkError', 'KernelError']);

interface SyncRecord {
  health: string;
  labels: string[];
  taints: string[];
  cordoned: boolean;
}

export function syncHyperPodNodes(cluster: KubeCluster, state: SandboxState, version: string): void {
  const instances = listHyperPodNodes(state, cluster.region, cluster.arn).filter((n) => n.status !== 'ShuttingDown');
  const existing = new Map(
    cluster.objects
      .list(T.nodes)
      .filter((n) => n.metadata.labels?.[COMPUTE] === 'hyperpod')
      .map((n) => [n.metadata.name!, n]),
  );
  const now = cluster.now();
  // The pods on each node, once per pass (a 5,000-node cluster must not scan every pod per node).
  const podsOn = new Map<string, KubeObject[]>();
  for (const p of cluster.objects.list(T.pods)) {
    const at = (p.spec as Any | undefined)?.nodeName as string | undefined;
    if (at) (podsOn.get(at) ?? podsOn.set(at, []).get(at)!).push(p);
  }
  const onNode = (name: string): NodeSide => {
    const here = podsOn.get(name) ?? [];
    // Whether an agent watches is asked only for a node with an agent-found fault open (an RBAC check: not every tick).
    return {
      devices: registeredPlugins(here, name),
      agent: () => here.length > 0 && agentWatches(cluster, here, name),
    };
  };
  for (const inst of instances) {
    const name = `hyperpod-${inst.instanceId}`;
    const current = existing.get(name);
    existing.delete(name);
    if (!current) {
      if (!REGISTERED.has(inst.status)) continue;
      const created = cluster.objects.create(T.nodes, nodeObject(inst, undefined, version, now, onNode(name)));
      recordEvent(cluster, created, 'Normal', 'Starting', 'Starting kubelet.', 'kubelet', { host: name });
      recordEvent(
        cluster,
        created,
        'Normal',
        'RegisteredNode',
        `Node ${name} event: Registered Node ${name} in Controller`,
        'node-controller',
      );
      continue;
    }
    const record = syncRecord(current);
    const labelled = current.metadata.labels?.[HEALTH];
    if (
      labelled &&
      labelled !== record.health &&
      RECOVERY.has(labelled) &&
      labelled !== inst.healthStatus &&
      inst.status === 'Running'
    ) {
      requestNodeRecovery(
        state,
        cluster.region,
        inst.clusterName,
        inst.instanceId,
        labelled as 'UnschedulablePendingReboot' | 'UnschedulablePendingReplacement',
        now,
      );
      recordEvent(
        cluster,
        current,
        'Warning',
        'NodeRecoveryRequested',
        `Node labelled ${HEALTH}=${labelled}: HyperPod will ${labelled.endsWith('Reboot') ? 'reboot' : 'replace'} instance ${inst.instanceId}`,
        'sagemaker-hyperpod',
      );
      continue;
    }
    const next = nodeObject(inst, current, version, now, onNode(name));
    const wasReady = readyStatus(current);
    const saved = save(cluster, T.nodes, current, next);
    const isNowReady = readyStatus(saved);
    if (wasReady !== isNowReady) {
      if (isNowReady === 'True')
        recordEvent(cluster, saved, 'Normal', 'NodeReady', `Node ${name} status is now: NodeReady`, 'kubelet', {
          host: name,
        });
      else
        recordEvent(
          cluster,
          saved,
          'Normal',
          'NodeNotReady',
          `Node ${name} status is now: NodeNotReady`,
          'node-controller',
        );
    }
  }
  // Instances that are gone take their Nodes with them (the node lifecycle controller then removes their pods).
  for (const node of existing.values()) {
    cluster.objects.remove(T.nodes, undefined, node.metadata.name!);
    recordEvent(
      cluster,
      node,
      'Normal',
      'RemovingNode',
      `Node ${node.metadata.name} event: Removing Node ${node.metadata.name} from Controller`,
      'node-controller',
    );
  }
}

const readyStatus = (node: KubeObject) =>
  (((node.status as Any)?.conditions ?? []) as Any[]).find((c) => c.type === 'Ready')?.status as string | undefined;

function syncRecord(node: KubeObject): SyncRecord {
  try {
    return {
      health: '',
      labels: [],
      taints: [],
      cordoned: false,
      ...JSON.parse(node.metadata.annotations?.[SYNC] ?? '{}'),
    };
  } catch {
    return { health: '', labels: [], taints: [], cordoned: false };
  }
}

/** Label values are at most 63 characters of [A-Za-z0-9_.-], starting and ending alphanumeric. */
const labelValue = (text: string) =>
  text
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .slice(0, 63)
    .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');

/** What runs on the node that shapes it: the registered device plugins, and whether a working health agent watches it. */
interface NodeSide {
  devices: ReturnType<typeof registeredPlugins>;
  agent: () => boolean;
}

function nodeObject(
  inst: HyperPodNodeView,
  current: KubeObject | undefined,
  version: string,
  now: number,
  side: NodeSide,
): KubeObject {
  const name = `hyperpod-${inst.instanceId}`;
  const before = current ? syncRecord(current) : { health: '', labels: [], taints: [], cordoned: false };
  const running = REGISTERED.has(inst.status);
  // An agent-found fault with no working agent on the node leaves the node as it was (assumed: health-agent.ts).
  const unseen =
    inst.faultReason !== undefined &&
    AGENT_FOUND_FAULTS.has(inst.faultType ?? '') &&
    !RECOVERY.has(before.health) &&
    !side.agent();
  const health = unseen ? before.health || 'Schedulable' : inst.healthStatus;
  const schedulable = health === 'Schedulable' && running;
  // Labels: the user's own survive; what HyperPod manages is rewritten.
  const labels: Record<string, string> = { ...(current?.metadata.labels ?? {}) };
  for (const k of [...before.labels, DHC, FAULT_TYPE, FAULT_REASON]) delete labels[k];
  Object.assign(labels, inst.labels, {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/instance-type': inst.instanceType,
    'beta.kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': name,
    'kubernetes.io/os': 'linux',
    'node.kubernetes.io/instance-type': inst.instanceType,
    'topology.k8s.aws/zone-id': inst.availabilityZoneId,
    'topology.kubernetes.io/region': inst.availabilityZone.slice(0, -1),
    'topology.kubernetes.io/zone': inst.availabilityZone,
    [COMPUTE]: 'hyperpod',
    'sagemaker.amazonaws.com/instance-group-name': inst.instanceGroupName,
    [HEALTH]: health,
  });
  if (inst.deepHealthCheckStatus) labels[DHC] = inst.deepHealthCheckStatus;
  if (inst.faultType && !unseen) labels[FAULT_TYPE] = labelValue(inst.faultType);
  if (inst.faultReason && !unseen) labels[FAULT_REASON] = labelValue(inst.faultReason);

  const groupTaints = inst.taints.map((t) => ({
    key: t.key,
    ...(t.value !== undefined ? { value: t.value } : {}),
    effect: t.effect,
  }));
  const managedTaints = new Set([...before.taints, HEALTH, ...groupTaints.map((t) => `${t.key}:${t.effect}`)]);
  const spec: Any = {
    ...((current?.spec ?? {}) as Any),
    providerID: `aws:///${inst.availabilityZone}/${inst.instanceId}`,
  };
  const userTaints = ((spec.taints ?? []) as Any[]).filter(
    (t) => t.key !== HEALTH && !managedTaints.has(`${t.key}:${t.effect}`),
  );
  const taints = [
    ...userTaints,
    ...groupTaints,
    ...(schedulable ? [] : [{ key: HEALTH, value: 'Unschedulable', effect: 'NoSchedule' }]),
  ];
  if (taints.length > 0) spec.taints = taints;
  else delete spec.taints;
  // Cordoned while not schedulable; a cordon the user made stays.
  const cordoned = !schedulable && (before.cordoned || !spec.unschedulable);
  if (!schedulable) spec.unschedulable = true;
  else if (before.cordoned) delete spec.unschedulable;
  const record: SyncRecord = {
    health,
    labels: Object.keys(inst.labels),
    taints: groupTaints.map((t) => `${t.key}:${t.effect}`),
    cordoned: !schedulable ? cordoned : false,
  };

  const { capacity, allocatable } = nodeResources(inst.instanceType, side.devices);
  const at = rfc3339(now);
  const oldConditions = ((current?.status as Any)?.conditions ?? []) as Any[];
  const condition = (type: string, status: string, reason: string, message: string) => ({
    type,
    status,
    lastHeartbeatTime: at,
    lastTransitionTime: at,
    reason,
    message,
  });
  const conditions = keepConditionTimes(oldConditions, [
    condition(
      'MemoryPressure',
      running ? 'False' : 'Unknown',
      running ? 'KubeletHasSufficientMemory' : 'NodeStatusUnknown',
      running ? 'kubelet has sufficient memory available' : 'Kubelet stopped posting node status.',
    ),
    condition(
      'DiskPressure',
      running ? 'False' : 'Unknown',
      running ? 'KubeletHasNoDiskPressure' : 'NodeStatusUnknown',
      running ? 'kubelet has no disk pressure' : 'Kubelet stopped posting node status.',
    ),
    condition(
      'PIDPressure',
      running ? 'False' : 'Unknown',
      running ? 'KubeletHasSufficientPID' : 'NodeStatusUnknown',
      running ? 'kubelet has sufficient PID available' : 'Kubelet stopped posting node status.',
    ),
    condition(
      'Ready',
      running ? 'True' : 'Unknown',
      running ? 'KubeletReady' : 'NodeStatusUnknown',
      running ? 'kubelet is posting ready status' : 'Kubelet stopped posting node status.',
    ),
  ]);
  // Heartbeats every 5 minutes or on a change, not every tick (a write per tick would flood watchers).
  const lastBeat = Date.parse(oldConditions.find((c) => c.type === 'Ready')?.lastHeartbeatTime ?? '');
  const changed = conditions.some((c) => c.lastTransitionTime === at);
  for (const c of conditions) {
    const old = oldConditions.find((o) => o.type === c.type);
    if (old && !changed && now - lastBeat < HEARTBEAT_MS) c.lastHeartbeatTime = old.lastHeartbeatTime;
  }
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      ...(current?.metadata ?? {}),
      name,
      labels,
      annotations: {
        ...(current?.metadata.annotations ?? {}),
        'alpha.kubernetes.io/provided-node-ip': inst.privateIp,
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
        [SYNC]: JSON.stringify(record),
      },
    },
    spec,
    status: {
      capacity,
      allocatable,
      conditions,
      addresses: [
        { type: 'InternalIP', address: inst.privateIp },
        { type: 'InternalDNS', address: inst.privateDnsName },
        { type: 'Hostname', address: inst.privateDnsName },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: nodeInfo(inst.instanceId, version),
      ...((current?.status as Any)?.images ? { images: (current!.status as Any).images } : {}),
    },
  };
}
