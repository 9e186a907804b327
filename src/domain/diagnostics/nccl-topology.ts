import type { SecurityGroupRule } from '../network/completeness.js';
import type { Finding } from '../schemas/diagnostics.js';
import type { NcclEvidence } from './nccl-evidence.js';

/**
 * Where the ranks run and what the network lets through: the security group's self-referencing rule, the zones of
 * the ranks, and nodes outside the job's instance group.
 */

/** All traffic (IpProtocol "-1") to or from the group itself, in one direction. */
const selfAllTraffic = (rules: readonly SecurityGroupRule[], groupId: string, direction: 'ingress' | 'egress') =>
  rules.some((r) => r.direction === direction && r.protocol === '-1' && r.peerGroupId === groupId);

/**
 * AWS EC2 user guide, "Get started with EFA" (Prepare an EFA-enabled security group): the group must allow all
 * inbound and all outbound traffic to and from the security group itself — EFA's SRD traffic is not TCP/UDP, so a
 * port rule does not carry it, and an allow-all egress to 0.0.0.0/0 does not replace the self rule (the EKS user
 * guide's default cluster group adds "Outbound All Self (for EFA traffic)" next to it).
 */
export function securityGroupFindings(evidence: NcclEvidence, efaExpected: boolean): Finding[] {
  const sg = evidence.securityGroup;
  if (!sg)
    return [
      {
        severity: 'info',
        code: 'sg-not-read',
        title: 'The cluster security group was not read',
        explanation: 'Without its rules the self-referencing rule EFA needs could not be checked.',
        evidence: [],
      },
    ];
  const source = `security group ${sg.groupId} rules`;
  const inbound = selfAllTraffic(sg.rules, sg.groupId, 'ingress');
  const outbound = selfAllTraffic(sg.rules, sg.groupId, 'egress');
  if (inbound && outbound)
    return [
      {
        severity: 'info',
        code: 'sg-self-rule',
        title: `Security group ${sg.groupId} allows all traffic within itself, in and out`,
        explanation: 'What EFA needs between the nodes of the cluster.',
        evidence: [{ source, detail: 'inbound and outbound: all traffic, peer = the group itself' }],
      },
    ];
  const lacks = [inbound ? undefined : 'inbound', outbound ? undefined : 'outbound'].filter(Boolean).join(' and ');
  return [
    {
      severity: efaExpected && evidence.ranks.length > 1 ? 'critical' : 'warning',
      code: 'sg-no-self-rule',
      title: `Security group ${sg.groupId} lacks the ${lacks} all-traffic rule to itself`,
      explanation:
        'EFA requires the nodes’ security group to allow all inbound and outbound traffic to and from the group ' +
        'itself (AWS EC2 user guide, EFA security group). Without it, NCCL’s connections between nodes are dropped: ' +
        'ranks hang at the first collective and the watchdog times them out.',
      evidence: [
        {
          source,
          detail: `${sg.rules.length} rules; no ${lacks} rule with protocol -1 and peer ${sg.groupId}`,
        },
      ],
    },
  ];
}

/**
 * Ranks in more than one zone (`ranks-across-zones`): EFA's OS-bypass traffic stays within one subnet, so within
 * one zone (AWS ParallelCluster user guide, "Elastic Fabric Adapter": low-latency OS-bypass communication with other
 * instances in the same subnet); across zones NCCL can only use TCP, with cross-zone latency.
 */
export function zoneFindings(evidence: NcclEvidence, efaExpected: boolean): Finding[] {
  const byZone = new Map<string, number[]>();
  for (const r of evidence.ranks) {
    if (!r.zone) continue;
    byZone.set(r.zone, [...(byZone.get(r.zone) ?? []), r.rank]);
  }
  if (byZone.size <= 1) return [];
  return [
    {
      severity: efaExpected ? 'critical' : 'warning',
      code: 'ranks-across-zones',
      title: `The ranks run in ${byZone.size} Availability Zones`,
      explanation:
        'EFA carries traffic only between instances in the same subnet, so in one zone; ranks in different zones ' +
        'talk over TCP with cross-zone latency, which slows every collective and can exceed its timeout. Place ' +
        'the job on one instance group in one zone.',
      evidence: [...byZone].map(([zone, ranks]) => ({
        source: 'nodes of the ranks (topology.kubernetes.io/zone)',
        detail: `${zone}: ranks ${ranks.join(', ')}`,
      })),
    },
  ];
}

/** Ranks on nodes of another instance group or type than the job's (`ranks-outside-group`). */
export function groupFindings(evidence: NcclEvidence): Finding[] {
  const { instanceGroup, instanceType } = evidence.job;
  const found: Finding['evidence'] = [];
  for (const r of evidence.ranks) {
    const node = r.node ? evidence.nodes.find((n) => n.name === r.node) : undefined;
    if (!node) continue;
    const otherGroup = instanceGroup && node.instanceGroup && node.instanceGroup !== instanceGroup;
    const otherType = instanceType && node.instanceType && node.instanceType !== instanceType;
    if (otherGroup || otherType)
      found.push({
        source: `node ${node.name} labels`,
        detail: `rank ${r.rank} runs on group ${node.instanceGroup ?? '?'} (${node.instanceType ?? '?'}); the job is placed on ${instanceGroup ?? '?'} (${instanceType ?? '?'})`,
      });
  }
  if (!found.length) return [];
  return [
    {
      severity: 'warning',
      code: 'ranks-outside-group',
      title: 'Some ranks run on nodes of another instance group',
      explanation:
        'Ranks on a different instance type get different EFA and GPU counts than the job’s settings assume, and ' +
        'EFA does not connect every pair of families: NCCL may pick sockets for those links or fail to connect.',
      evidence: found,
    },
  ];
}
