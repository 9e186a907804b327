import { InputError, NotFoundError } from '../../domain/errors.js';
import { clusterTarget, resourceNames } from '../../domain/naming.js';
import type { Diagnosis, Finding, SuggestedCommand } from '../../domain/schemas/diagnostics.js';
import type { LogLine, OperationError, OperationView } from '../../domain/schemas/operations.js';
import { CAUSE_TEXT, creationCause, quotaNamed, type CreationCause } from './creation-causes.js';
import { bySeverity, evidence, mcp } from './findings.js';
import type { DiagnosticsReadPort } from './read-port.js';

/** Log lines of the failed phase kept as evidence (the whole log is one get_operation_logs away). */
const LOG_LINES_KEPT = 20;
/** Items of a delete plan named as evidence of what was left behind. */
const LEFT_ITEMS_KEPT = 20;

/**
 * Why a cluster's create failed (or where it stands): the create-cluster operation (the one named, else the
 * cluster's newest), its failed phase and error, that phase's warning and error log lines, HyperPod's own status, the
 * cause told apart by the error (creation-causes.ts) with the evidence the cause needs, and what the failed create left
 * behind. Suggests the one retry or fix; runs nothing.
 */
export async function diagnoseClusterCreation(
  read: DiagnosticsReadPort,
  where: { region: string; cluster: string; operationId?: string },
): Promise<Diagnosis> {
  const { region, cluster } = where;
  const op = findCreate(read, where);
  const findings: Finding[] = [];
  const suggestions: SuggestedCommand[] = [];
  const hp = await read.hyperpodCluster(region, cluster);
  const hyperpodEvidence = hp
    ? evidence(
        'sagemaker:DescribeCluster',
        `ClusterStatus ${hp.ClusterStatus}${hp.FailureMessage ? `; FailureMessage: ${hp.FailureMessage}` : ''}`,
      )
    : evidence('sagemaker:DescribeCluster', `HyperPod has no cluster named ${cluster} in ${region}.`);

  let summary: string;
  if (op.status === 'failed' || op.status === 'cancelled') {
    const failed = op.phases.find((p) => p.status === 'failed');
    const error: OperationError = failed?.error ??
      op.error ?? {
        code: op.status === 'cancelled' ? 'Cancelled' : 'Unknown',
        message: 'The operation ended without an error.',
      };
    const phase = failed?.name ?? error.phase ?? op.currentPhase ?? 'unknown';
    const cause = op.status === 'cancelled' ? undefined : creationCause({ ...error, phase });
    const logEvidence = phaseLog(read, op.id, phase);
    findings.push({
      severity: 'critical',
      code: cause ?? 'cancelled',
      title: cause ? CAUSE_TEXT[cause].title : 'The create was cancelled',
      explanation: cause
        ? CAUSE_TEXT[cause].explanation
        : 'Someone cancelled the operation; what it made so far stays until the cluster is deleted or the create retried.',
      evidence: [
        evidence(`operation ${op.id} phase ${phase}`, `${error.code}: ${error.message}`),
        ...(phase === 'hyperpod' ? [hyperpodEvidence] : []),
        ...logEvidence,
      ],
    });
    if (cause) await gatherCauseEvidence(read, { cause, op, phase, error, findings, suggestions });
    if (failed?.retryable || op.status === 'cancelled')
      suggestions.push({
        description: `Retry the ${phase} phase once the cause is fixed: it observes first and continues where the cloud is (earlier phases are not run again).`,
        kind: 'mcp',
        command: mcp('retry_operation_phase', { operationId: op.id, phase }),
        mutating: true,
      });
    summary = cause
      ? `The create of ${cluster} failed in phase ${phase}: ${lowerFirst(CAUSE_TEXT[cause].title)} (${error.code}).`
      : `The create of ${cluster} was cancelled in phase ${phase}.`;
    await gatherLeftBehind(read, region, cluster, findings, suggestions);
  } else {
    const running = op.phases.filter((p) => ['observing', 'acting', 'awaiting'].includes(p.status));
    findings.push({
      severity: 'info',
      code: op.status === 'succeeded' ? 'creation-succeeded' : 'creation-running',
      title: op.status === 'succeeded' ? 'The create succeeded' : 'The create is still running',
      explanation:
        op.status === 'succeeded'
          ? 'Every phase is done; there is no failure to diagnose.'
          : 'Nothing has failed yet. Each phase shows its progress; a phase past its deadline fails naming what it saw.',
      evidence: [
        ...running.map((p) =>
          evidence(`operation ${op.id} phase ${p.name}`, `${p.status}${p.progress ? `: ${p.progress}` : ''}`),
        ),
        hyperpodEvidence,
      ],
    });
    await gatherCapacityWarnings(read, region, cluster, findings);
    if (op.status !== 'succeeded')
      suggestions.push({
        description: 'Follow the operation to its end.',
        kind: 'mcp',
        command: mcp('wait_for_operation', { operationId: op.id }),
        mutating: false,
      });
    summary =
      op.status === 'succeeded'
        ? `The create of ${cluster} succeeded; nothing to diagnose.`
        : `The create of ${cluster} is running (${running.map((p) => p.name).join(', ') || op.currentPhase || 'starting'}); nothing has failed so far.`;
  }
  return {
    subject: { kind: 'cluster-creation', cluster, region, id: op.id },
    summary,
    findings: bySeverity(findings),
    suggestions,
    readOnly: true,
    gatheredAt: new Date().toISOString(),
  };
}

/** The operation named (it must be a create-cluster of this cluster), else the cluster's newest create-cluster. */
function findCreate(
  read: DiagnosticsReadPort,
  where: { region: string; cluster: string; operationId?: string },
): OperationView {
  const target = clusterTarget(where.region, where.cluster);
  if (where.operationId) {
    const op = read.operation(where.operationId);
    if (op.kind !== 'create-cluster' || op.target !== target)
      throw InputError.field(
        'operationId',
        `operation ${op.id} is a ${op.kind} of ${op.target}, not a create-cluster of ${where.cluster} in ${where.region}`,
      );
    return op;
  }
  const [newest] = read.operations({ kind: 'create-cluster', target, limit: 1 });
  if (!newest)
    throw new NotFoundError({
      resource: 'create-cluster operation',
      id: where.cluster,
      message: `This server has no create-cluster operation of cluster ${where.cluster} in ${where.region}.`,
    });
  return newest;
}

/** The warning and error lines of the phase (and its last lines), newest last, bounded. */
function phaseLog(read: DiagnosticsReadPort, operationId: string, phase: string) {
  const lines: LogLine[] = [];
  let after = 0;
  for (let page = 0; page < 20; page++) {
    const got = read.operationLog(operationId, after, 500);
    lines.push(...got.lines.filter((l) => l.phase === phase));
    if (got.lines.length < 500) break;
    after = got.nextAfter;
  }
  const notable = lines.filter((l) => l.level !== 'info');
  const kept = (notable.length ? notable : lines).slice(-LOG_LINES_KEPT);
  return kept.map((l) => evidence(`operation ${operationId} log (${phase}, ${l.level})`, l.message));
}

interface CauseContext {
  cause: CreationCause;
  op: OperationView;
  phase: string;
  error: OperationError;
  findings: Finding[];
  suggestions: SuggestedCommand[];
}

/** The evidence and the fix each cause needs beyond the error itself. */
async function gatherCauseEvidence(read: DiagnosticsReadPort, c: CauseContext): Promise<void> {
  const input = c.op.input as {
    name: string;
    region: string;
    instanceType?: string;
    instanceCount?: number;
    availabilityZone?: string;
    capacityType?: 'on-demand' | 'spot' | 'training-plan';
  };
  const main = c.findings[0]!;
  switch (c.cause) {
    case 'quota-exceeded': {
      if (!input.instanceType || !input.instanceCount) return;
      const check = await read.quotas({
        region: input.region,
        instanceType: input.instanceType,
        instanceCount: input.instanceCount,
        capacityType: input.capacityType === 'spot' ? 'spot' : 'on-demand',
      });
      const named = quotaNamed(c.error.message);
      for (const q of check.quotas)
        main.evidence.push(
          evidence(
            `servicequotas:GetServiceQuota ${q.quotaCode ?? q.quotaName}`,
            `'${q.quotaName}' is ${q.value}; existing clusters use ${q.inUse}; this create asks for ${q.requested}.`,
          ),
        );
      const short = check.quotas.find((q) => !q.ok) ?? check.quotas.find((q) => q.quotaName === named);
      if (short?.quotaCode)
        c.suggestions.push({
          description: `Ask AWS to raise '${short.quotaName}' to at least ${short.inUse + short.requested} (approval can take a while; the phase retry below goes through once it is approved).`,
          kind: 'aws',
          command: `aws service-quotas request-service-quota-increase --service-code ${short.serviceCode} --quota-code ${short.quotaCode} --desired-value ${short.inUse + short.requested} --region ${input.region}`,
          mutating: true,
        });
      c.suggestions.push({
        description: 'Check the quota again before retrying.',
        kind: 'mcp',
        command: mcp('check_quotas', {
          region: input.region,
          instanceType: input.instanceType,
          instanceCount: input.instanceCount,
        }),
        mutating: false,
      });
      return;
    }
    case 'insufficient-capacity': {
      const events = await read.hyperpodEvents(input.region, input.name, { maxResults: 50 });
      for (const e of events.filter((x) => /capacity|could not launch/i.test(x.Description ?? '')).slice(0, 5))
        main.evidence.push(
          evidence('sagemaker:ListClusterEvents', `${e.EventTime?.toISOString() ?? ''} ${e.Description}`),
        );
      if (input.instanceType)
        c.suggestions.push({
          description: `See the instance types another zone offers before recreating there (or choose another type, or a training plan).`,
          kind: 'mcp',
          command: mcp('list_availability_zones', { region: input.region }),
          mutating: false,
        });
      return;
    }
    case 'iam-trust':
    case 'iam-permission': {
      const names = resourceNames(input.name, await read.accountId(), input.region);
      const expected: Array<[string, string]> = [
        [names.eksClusterRole, 'eks.amazonaws.com'],
        [names.executionRole, 'sagemaker.amazonaws.com'],
      ];
      for (const [role, principal] of expected) {
        const facts = await read.role(role);
        if (!facts) {
          main.evidence.push(evidence(`iam:GetRole ${role}`, 'The role does not exist.'));
          continue;
        }
        const trusts = facts.trustPolicy.includes(principal);
        main.evidence.push(
          evidence(
            `iam:GetRole ${role}`,
            trusts
              ? `Its trust policy names ${principal}.`
              : `Its trust policy does NOT name ${principal}: ${facts.trustPolicy}`,
          ),
        );
        if (!trusts)
          c.suggestions.push({
            description: `Let ${principal} assume ${role} again (the create made it so; something changed it).`,
            kind: 'aws',
            command: `aws iam update-assume-role-policy --role-name ${role} --policy-document '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"${principal}"},"Action":"sts:AssumeRole"}]}'`,
            mutating: true,
          });
      }
      return;
    }
    case 'addon-version-incompatible':
      c.suggestions.push({
        description: 'See the Kubernetes versions EKS and HyperPod offer, and pick an add-on version offered for it.',
        kind: 'mcp',
        command: mcp('list_kubernetes_versions', { region: input.region }),
        mutating: false,
      });
      return;
    default:
      return;
  }
}

/** Capacity warnings HyperPod recorded while the create waits for nodes. */
async function gatherCapacityWarnings(
  read: DiagnosticsReadPort,
  region: string,
  cluster: string,
  findings: Finding[],
): Promise<void> {
  const events = await read.hyperpodEvents(region, cluster, { maxResults: 50 });
  const trouble = events.filter(
    (e) =>
      (e.EventLevel === 'Warn' || e.EventLevel === 'Error') && /capacity|could not launch/i.test(e.Description ?? ''),
  );
  if (!trouble.length) return;
  findings.push({
    severity: 'warning',
    code: 'insufficient-capacity',
    title: 'HyperPod is waiting for capacity',
    explanation: CAUSE_TEXT['insufficient-capacity'].explanation,
    evidence: trouble
      .slice(0, 5)
      .map((e) => evidence('sagemaker:ListClusterEvents', `${e.EventTime?.toISOString() ?? ''} ${e.Description}`)),
  });
}

/** What the failed create left in the account (the delete plan), and the delete that removes it. */
async function gatherLeftBehind(
  read: DiagnosticsReadPort,
  region: string,
  cluster: string,
  findings: Finding[],
  suggestions: SuggestedCommand[],
): Promise<void> {
  const plan = await read.leftBehind(region, cluster);
  if (!plan || plan.deletes.length === 0) return;
  findings.push({
    severity: 'warning',
    code: 'left-behind',
    title: `The failed create left ${plan.deletes.length} resource(s) behind`,
    explanation:
      'What the phases before the failure made stays (and may cost money) until the create is retried to completion or the cluster is deleted. A retry reuses them; a delete removes them, keeping what its plan keeps.',
    evidence: plan.deletes
      .slice(0, LEFT_ITEMS_KEPT)
      .map((d) => evidence('delete plan (tagged resources)', `${d.kind} ${d.name}`)),
  });
  suggestions.push({
    description:
      'If you give up on this cluster instead of retrying: delete what was made (first show get_cluster_delete_plan and get an explicit yes).',
    kind: 'mcp',
    command: mcp('delete_cluster', { cluster, confirm: true }),
    mutating: true,
  });
}

/** A title as the middle of a sentence: its first letter lowered unless it starts an acronym (`AWS`, `IAM`, `EKS`). */
const lowerFirst = (title: string): string =>
  /^[A-Z]{2}/.test(title) ? title : title.charAt(0).toLowerCase() + title.slice(1);
