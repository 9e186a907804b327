import { groupTolerations, type GroupTaint, type Toleration } from '../instance-groups/tolerations.js';
import { instanceFamily } from '../instance-types.js';
import { INSTANCE_GROUP_LABEL } from '../node-health-terms.js';
import type { InstanceTypeView } from '../schemas/preflight.js';

/**
 * Where a training job's pods run and what each asks for, from the instance group and the facts
 * of its instance type (what the catalog reads from EC2 DescribeInstanceTypes: accelerators, EFA) —
 * never from a table of types. One pod per node: each pod takes every accelerator and every EFA
 * interface of its node. The collective-communication environment (NCCL over EFA, the Neuron
 * runtime) is decided here once per instance family, so no recipe sets it on its own.
 */

export type EnvVar = { name: string; value: string };

/** What placement needs of a type: the catalog's view (src/domain/schemas/preflight.ts InstanceTypeView). */
export type InstanceTypeFacts = Pick<
  InstanceTypeView,
  'instanceType' | 'acceleratorName' | 'acceleratorCount' | 'efaSupported' | 'maximumEfaInterfaces'
>;

export interface PlacementGroup {
  name: string;
  instanceType: string;
  /** The group's taints (HyperPod keeps them on its nodes); the pods tolerate exactly these. */
  taints?: ReadonlyArray<GroupTaint>;
}

export type AcceleratorKind = 'nvidia' | 'neuron' | 'none';

export interface Placement {
  group: string;
  instanceType: string;
  family: string;
  accelerator: AcceleratorKind;
  /** NVIDIA GPUs (nvidia.com/gpu) or Neuron devices (aws.amazon.com/neuron) per pod; 0 without accelerators. */
  acceleratorsPerPod: number;
  /** Processes torchrun/hyperpodrun starts per node: one per GPU, one per NeuronCore, 1 on CPU. */
  processesPerNode: number;
  efaPerPod: number;
  nodeSelector: Record<string, string>;
  tolerations: Toleration[];
  /** Container resources: limits only (extended resources need requests = limits, which Kubernetes fills in). */
  resources: { limits: Record<string, string> };
  /** NCCL / libfabric / Neuron runtime settings for the family. */
  env: EnvVar[];
}

export const GPU_RESOURCE = 'nvidia.com/gpu';
export const NEURON_RESOURCE = 'aws.amazon.com/neuron';
export const EFA_RESOURCE = 'vpc.amazonaws.com/efa';

/**
 * Families whose EFA does RDMA straight to accelerator memory (GPUDirect RDMA on NVIDIA, the same
 * path for Trainium), where libfabric is told to use it. Other EFA families (g5, g6, g6e…) move
 * data through host memory: setting it there makes NCCL fail at init.
 */
const RDMA_FAMILIES = new Set(['p4d', 'p4de', 'p5', 'p5e', 'p5en', 'p6-b200', 'p6e-gb200', 'trn1', 'trn1n', 'trn2']);

/**
 * NeuronCores per Neuron device as the runtime exposes them by default: Trainium and Inferentia2
 * have 2; Trainium2 has 8 physical cores grouped two by two (logical core size 2), so 4. The one
 * fact EC2's count of devices does not carry.
 */
const NEURON_CORES_PER_DEVICE: Readonly<Record<string, number>> = { trn1: 2, trn1n: 2, inf2: 2, trn2: 4 };

function acceleratorKind(family: string, facts: InstanceTypeFacts): AcceleratorKind {
  if (!facts.acceleratorCount) return 'none';
  if (/^(trn|inf)\d/.test(family) || /trainium|inferentia/i.test(facts.acceleratorName ?? '')) return 'neuron';
  return 'nvidia';
}

/** Interfaces to leave to NCCL's socket bootstrap: not the loopback, not container bridges. */
const SOCKET_IFNAME = '^lo,docker,veth';

function familyEnv(family: string, accelerator: AcceleratorKind, efa: number): EnvVar[] {
  const env: EnvVar[] = [];
  if (efa > 0) {
    env.push({ name: 'FI_PROVIDER', value: 'efa' });
    // PyTorch data loaders fork; libfabric must register memory fork-safely.
    env.push({ name: 'FI_EFA_FORK_SAFE', value: '1' });
    if (RDMA_FAMILIES.has(family)) env.push({ name: 'FI_EFA_USE_DEVICE_RDMA', value: '1' });
  }
  if (accelerator === 'nvidia' && efa > 0) {
    env.push({ name: 'NCCL_SOCKET_IFNAME', value: SOCKET_IFNAME });
    // Warnings only: INFO prints every ring of every rank and drowns the training lines.
    env.push({ name: 'NCCL_DEBUG', value: 'WARN' });
  }
  if (accelerator === 'neuron') {
    // The Neuron collectives' bootstrap socket: the pod's own interface.
    env.push({ name: 'CCOM_SOCKET_IFNAME', value: 'eth0' });
  }
  return env;
}

/**
 * The placement of a job on an instance group.
 *
 * @example
 * placementFor({ name: 'gpu', instanceType: 'ml.p5.48xlarge' }, { instanceType: 'ml.p5.48xlarge', acceleratorName:
 * 'H100', acceleratorCount: 8, efaSupported: true, maximumEfaInterfaces: 32 })
 * // { accelerator: 'nvidia', acceleratorsPerPod: 8, efaPerPod: 32, resources: { limits: { 'nvidia.com/gpu': '8',
 * 'vpc.amazonaws.com/efa': '32' } }, env: [FI_PROVIDER=efa, …, FI_EFA_USE_DEVICE_RDMA=1, …], … }
 */
export function placementFor(group: PlacementGroup, facts: InstanceTypeFacts): Placement {
  if (facts.instanceType !== group.instanceType)
    throw new Error(`placementFor: facts describe ${facts.instanceType}, the group runs ${group.instanceType}`);
  const family = instanceFamily(group.instanceType);
  const accelerator = acceleratorKind(family, facts);
  const acceleratorsPerPod = accelerator === 'none' ? 0 : (facts.acceleratorCount ?? 0);
  const efaPerPod = facts.efaSupported ? (facts.maximumEfaInterfaces ?? 0) : 0;
  const limits: Record<string, string> = {};
  if (accelerator === 'nvidia') limits[GPU_RESOURCE] = String(acceleratorsPerPod);
  if (accelerator === 'neuron') limits[NEURON_RESOURCE] = String(acceleratorsPerPod);
  if (efaPerPod > 0) limits[EFA_RESOURCE] = String(efaPerPod);
  const processesPerNode =
    accelerator === 'nvidia'
      ? acceleratorsPerPod
      : accelerator === 'neuron'
        ? acceleratorsPerPod * (NEURON_CORES_PER_DEVICE[family] ?? 2)
        : 1;
  return {
    group: group.name,
    instanceType: group.instanceType,
    family,
    accelerator,
    acceleratorsPerPod,
    processesPerNode,
    efaPerPod,
    nodeSelector: { [INSTANCE_GROUP_LABEL]: group.name },
    tolerations: groupTolerations(group.taints),
    resources: { limits },
    env: familyEnv(family, accelerator, efaPerPod),
  };
}
