import type { Finding } from '../schemas/diagnostics.js';
import { placementFor, type Placement } from '../training/placement.js';
import type { NcclEvidence, NcclRankEvidence } from './nccl-evidence.js';

/**
 * The static half of the NCCL diagnosis: what the pods were given (FI_PROVIDER, FI_EFA_USE_DEVICE_RDMA, NCCL_NET,
 * EFA devices) against what the instance family needs — decided once by src/domain/training/placement.ts, which
 * is what the product sets on purpose — and whether the nodes can give what the pods ask for.
 */

/** What placement.ts sets for the job's type, when the type's facts were read. */
export function expectedPlacement(evidence: NcclEvidence): Placement | undefined {
  const { facts, instanceType, instanceGroup } = evidence.job;
  if (!facts || !instanceType || facts.instanceType !== instanceType) return undefined;
  return placementFor({ name: instanceGroup ?? 'group', instanceType }, facts);
}

const podSource = (e: NcclEvidence, r: NcclRankEvidence) => `pod ${e.job.namespace}/${r.pod} env`;
const podSpec = (e: NcclEvidence, r: NcclRankEvidence) => `pod ${e.job.namespace}/${r.pod} resources`;

/**
 * Settings the family needs that a rank lacks (`efa-setting-missing`), and settings that break it
 * (`efa-setting-wrong`).
 */
export function settingFindings(evidence: NcclEvidence, placement: Placement | undefined): Finding[] {
  if (!placement || placement.accelerator !== 'nvidia') return [];
  const missing: Finding['evidence'] = [];
  const wrong: Finding['evidence'] = [];
  const rdma = placement.env.some((v) => v.name === 'FI_EFA_USE_DEVICE_RDMA');
  for (const r of evidence.ranks) {
    const provider = r.env.FI_PROVIDER;
    if (placement.efaPerPod > 0) {
      // aws-ofi-nccl picks a provider itself when FI_PROVIDER is unset, but the product pins it so a node without
      // EFA fails loudly instead of quietly running over TCP (placement.ts familyEnv).
      if (provider === undefined)
        missing.push({ source: podSource(evidence, r), detail: `rank ${r.rank}: FI_PROVIDER is not set (want efa)` });
      else if (provider.toLowerCase() !== 'efa')
        wrong.push({ source: podSource(evidence, r), detail: `rank ${r.rank}: FI_PROVIDER=${provider} (want efa)` });
      // Without the device resource the EFA device plugin mounts no /dev/infiniband/uverbs* into the container, so
      // libfabric finds no EFA device (AWS EKS user guide, "Run machine learning training on Amazon EKS with EFA").
      if (r.efaRequested < placement.efaPerPod)
        missing.push({
          source: podSpec(evidence, r),
          detail: `rank ${r.rank}: requests ${r.efaRequested} vpc.amazonaws.com/efa (the type has ${placement.efaPerPod})`,
        });
      if (rdma && r.env.FI_EFA_USE_DEVICE_RDMA !== '1')
        missing.push({
          source: podSource(evidence, r),
          detail: `rank ${r.rank}: FI_EFA_USE_DEVICE_RDMA is ${r.env.FI_EFA_USE_DEVICE_RDMA ?? 'not set'} (want 1 on ${placement.family}: GPUDirect RDMA)`,
        });
    } else if (provider?.toLowerCase() === 'efa' || r.efaRequested > 0) {
      // A type without EFA: libfabric's efa provider has no device, so aws-ofi-nccl fails at init.
      wrong.push({
        source: r.efaRequested > 0 ? podSpec(evidence, r) : podSource(evidence, r),
        detail: `rank ${r.rank}: ${r.efaRequested > 0 ? `requests ${r.efaRequested} vpc.amazonaws.com/efa` : 'FI_PROVIDER=efa'} on ${placement.instanceType}, which has no EFA`,
      });
    }
    // placement.ts: on EFA families without GPUDirect RDMA (g5, g6…) setting it makes NCCL fail at init.
    if (!rdma && r.env.FI_EFA_USE_DEVICE_RDMA === '1')
      wrong.push({
        source: podSource(evidence, r),
        detail: `rank ${r.rank}: FI_EFA_USE_DEVICE_RDMA=1 on ${placement.family}, which has no GPUDirect RDMA`,
      });
    // NCCL docs (Environment Variables, NCCL_NET): forces one network; "Socket" skips the EFA plugin entirely.
    if (placement.efaPerPod > 0 && r.env.NCCL_NET && !/libfabric|ofi/i.test(r.env.NCCL_NET))
      wrong.push({
        source: podSource(evidence, r),
        detail: `rank ${r.rank}: NCCL_NET=${r.env.NCCL_NET} forces NCCL off the EFA plugin`,
      });
  }
  const out: Finding[] = [];
  if (missing.length)
    out.push({
      severity: 'critical',
      code: 'efa-setting-missing',
      title: `The ranks lack EFA settings ${placement.instanceType} needs`,
      explanation:
        `${placement.instanceType} has ${placement.efaPerPod} EFA interfaces; NCCL reaches them only through the aws-ofi-nccl ` +
        'plugin with FI_PROVIDER=efa and the EFA devices allocated to the pod (vpc.amazonaws.com/efa)' +
        (rdma ? ', and FI_EFA_USE_DEVICE_RDMA=1 for GPUDirect RDMA' : '') +
        '. Without them the ranks fall back to TCP sockets — far slower, and collectives that time out under load — or fail at init.',
      evidence: missing,
    });
  if (wrong.length)
    out.push({
      severity: 'critical',
      code: 'efa-setting-wrong',
      title: 'A rank sets NCCL/EFA settings that do not fit its instance family',
      explanation:
        'These settings contradict what the instance family supports: NCCL either fails at init or is forced off EFA.',
      evidence: wrong,
    });
  return out;
}

/**
 * A rank asking for more EFA devices (or GPUs) than its node — or, while pending, any node of the group — can give
 * (`efa-not-allocatable`): the EFA device plugin did not register them, or the node has none.
 */
export function allocatableFindings(evidence: NcclEvidence): Finding[] {
  const found: Finding['evidence'] = [];
  const groupNodes = evidence.nodes.filter(
    (n) => !evidence.job.instanceGroup || n.instanceGroup === evidence.job.instanceGroup,
  );
  for (const r of evidence.ranks) {
    if (r.efaRequested <= 0) continue;
    const node = r.node ? evidence.nodes.find((n) => n.name === r.node) : undefined;
    if (node && node.allocatable.efa < r.efaRequested) {
      found.push({
        source: `node ${node.name} allocatable`,
        detail: `vpc.amazonaws.com/efa: ${node.allocatable.efa}; rank ${r.rank} (pod ${r.pod}) requests ${r.efaRequested}`,
      });
    } else if (!r.node && groupNodes.length > 0 && groupNodes.every((n) => n.allocatable.efa < r.efaRequested)) {
      found.push({
        source: `pod ${evidence.job.namespace}/${r.pod} (${r.phase ?? 'Pending'}, not scheduled)`,
        detail: `requests ${r.efaRequested} vpc.amazonaws.com/efa; nodes of the group have ${groupNodes.map((n) => `${n.name}: ${n.allocatable.efa}`).join(', ')}`,
      });
    }
  }
  if (!found.length) return [];
  return [
    {
      severity: 'critical',
      code: 'efa-not-allocatable',
      title: 'EFA devices are not allocatable where the ranks need them',
      explanation:
        'A node advertises vpc.amazonaws.com/efa only when the EFA Kubernetes device plugin runs on it and finds the ' +
        'interfaces the instance was launched with. A pod asking for more stays Pending; a node showing 0 is missing ' +
        'the device plugin (HyperPod installs it with the cluster’s dependencies) or was launched without EFA.',
      evidence: found,
    },
  ];
}
