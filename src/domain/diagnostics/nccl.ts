import type { Finding, SuggestedCommand } from '../schemas/diagnostics.js';
import type { NcclEvidence } from './nccl-evidence.js';
import { logFindings } from './nccl-logs.js';
import { allocatableFindings, expectedPlacement, settingFindings } from './nccl-setup.js';
import { ncclSuggestions } from './nccl-suggestions.js';
import { groupFindings, securityGroupFindings, zoneFindings } from './nccl-topology.js';

export type { NcclEvidence, NcclNodeEvidence, NcclRankEvidence, NcclJobEvidence } from './nccl-evidence.js';

/**
 * `diagnose_nccl`'s judgement (issue 29): from the evidence read about a training job, what stops or slows its
 * NCCL traffic. Pure: it reads nothing and changes nothing; the capability gathers the evidence with read ports.
 * Findings, most severe first, each with a stable code:
 *
 * | code | severity | from |
 * |---|---|---|
 * | `nccl-timeout` | critical | a watchdog / ProcessGroupNCCL / NCCL WARN timeout in a rank's log |
 * | `efa-init-failed` | critical | aws-ofi-nccl found no provider (`fi_getinfo() call failed`) |
 * | `efa-not-used` | critical | an EFA type whose ranks chose sockets or another provider |
 * | `efa-setting-missing` | critical | FI_PROVIDER, FI_EFA_USE_DEVICE_RDMA or EFA devices the family needs, missing |
 * | `efa-setting-wrong` | critical | settings that break the family (RDMA on g5, EFA on a type without it, NCCL_NET=Socket) |
 * | `efa-not-allocatable` | critical | the node (or every node of the group) advertises fewer EFA devices than asked |
 * | `sg-no-self-rule` | critical (EFA, >1 rank) / warning | no all-traffic rule to the group itself, in or out |
 * | `ranks-across-zones` | critical (EFA) / warning | ranks in more than one zone |
 * | `nccl-error` | critical / warning beside a timeout | another NCCL error |
 * | `ranks-outside-group` | warning | ranks on nodes of another group or type |
 * | `no-ranks` | warning | no pod runs the job's ranks yet (a RayJob's Ray cluster not made): nothing else is judged |
 * | `efa-in-use`, `sg-self-rule`, `rank-restarts`, `nccl-init-not-logged`, `sg-not-read`, `instance-type-unknown` | info | checked, or context |
 *
 * @example
 * diagnoseNccl(evidence) // → { summary: 'NCCL timed out …; likely cause: …', findings: [...], suggestions: [...] }
 */
export function diagnoseNccl(evidence: NcclEvidence): {
  summary: string;
  findings: Finding[];
  suggestions: SuggestedCommand[];
} {
  if (evidence.ranks.length === 0) return noRanks(evidence);
  const placement = expectedPlacement(evidence);
  const efaExpected = (placement?.efaPerPod ?? 0) > 0 && placement?.accelerator === 'nvidia';
  const findings: Finding[] = [
    ...logFindings(evidence, efaExpected),
    ...settingFindings(evidence, placement),
    ...allocatableFindings(evidence),
    ...(efaExpected || evidence.securityGroup ? securityGroupFindings(evidence, efaExpected) : []),
    ...zoneFindings(evidence, efaExpected),
    ...groupFindings(evidence),
  ];
  if (!placement)
    findings.push({
      severity: 'info',
      code: 'instance-type-unknown',
      title: 'The job’s instance type and its facts were not known',
      explanation:
        'Without the type’s accelerator and EFA facts the settings could not be checked against the family; the logs, devices, security group and zones still were.',
      evidence: [],
    });
  const order = { critical: 0, warning: 1, info: 2 } as const;
  // Stable sort: within a severity the order above stays (the log's story first, then its causes).
  findings.sort((a, b) => order[a.severity] - order[b.severity]);
  return { summary: summarise(evidence, findings), findings, suggestions: ncclSuggestions(evidence, findings) };
}

/** A job with no rank pods: what it is waiting for, and what to read meanwhile — never "no problem found". */
function noRanks(evidence: NcclEvidence): { summary: string; findings: Finding[]; suggestions: SuggestedCommand[] } {
  const { job } = evidence;
  const where = job.podSelector ? `no pod matches ${job.podSelector}` : 'its Ray cluster is not made yet';
  const finding: Finding = {
    severity: 'warning',
    code: 'no-ranks',
    title: 'No rank runs yet',
    explanation: `The ${job.kind} has no pods running its ranks (${where}), so there are no NCCL logs, settings or placements to judge. Follow the job until it runs, then diagnose again.`,
    evidence: [{ source: `kubernetes ${job.kind} ${job.namespace}/${job.name}`, detail: where }],
  };
  return {
    summary: `Nothing to judge for ${job.namespace}/${job.name} yet: ${where}.`,
    findings: [finding],
    suggestions: ncclSuggestions(evidence, [finding]),
  };
}

/** One or two sentences: the symptom, and the cause the other critical findings point to. */
function summarise(evidence: NcclEvidence, findings: readonly Finding[]): string {
  const job = `${evidence.job.namespace}/${evidence.job.name}`;
  const critical = findings.filter((f) => f.severity === 'critical');
  if (!critical.length) {
    const warnings = findings.filter((f) => f.severity === 'warning');
    const checked = `checked ${evidence.ranks.length} rank(s): logs, EFA settings and devices, security group, zones`;
    return warnings.length
      ? `No NCCL failure found for ${job}; ${warnings.length} warning(s): ${warnings.map((w) => w.title).join('; ')} (${checked}).`
      : `No NCCL or EFA problem found for ${job} (${checked}).`;
  }
  const symptom = critical.find((f) => f.code === 'nccl-timeout' || f.code === 'nccl-error');
  const causes = critical.filter((f) => f !== symptom);
  if (symptom && causes.length)
    return `${symptom.title} in ${job}; likely cause: ${causes.map((c) => c.title).join('; ')}.`;
  if (symptom)
    return `${symptom.title} in ${job}; the settings, devices, security group and zones look right — read the ranks' previous logs for the first rank that stopped.`;
  return `${causes.map((c) => c.title).join('; ')} (${job}).`;
}
