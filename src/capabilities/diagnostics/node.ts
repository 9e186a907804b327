import { clusterNodesTarget } from '../../domain/naming.js';
import type { Diagnosis, Finding, SuggestedCommand } from '../../domain/schemas/diagnostics.js';
import type { NodeDetail, NodeOutcome } from '../../domain/schemas/nodes.js';
import type { OperationView } from '../../domain/schemas/operations.js';
import { bySeverity, evidence, mcp } from './findings.js';
import type { DiagnosticsReadPort } from './read-port.js';

/** Node conditions that say something is wrong when True (kubelet's own, and the health agent's). */
const PRESSURE = new Set(['MemoryPressure', 'DiskPressure', 'PIDPressure', 'NetworkUnavailable']);
/** Node-action operations read for the node's history (each lists its nodes in its input). */
const HISTORY = 20;

type Stage = NonNullable<Diagnosis['escalation']>;

/**
 * A node's health and where it stands on investigate → reboot → replace (SPEC "Node health"): SageMaker's instance
 * status (DescribeClusterNode), HyperPod's health labels and the health-monitoring agent's fault labels, the deep
 * health check, the Kubernetes conditions, recent events, the pods a reboot or replace would stop, and the node
 * actions already run on it. Suggests the next step as text; runs nothing.
 */
export async function diagnoseNode(
  read: DiagnosticsReadPort,
  where: { region: string; cluster: string; node: string },
): Promise<Diagnosis> {
  const { region, cluster } = where;
  const detail = await read.node(region, cluster, where.node);
  const hp = await read.hyperpodCluster(region, cluster);
  const n = detail.node;
  const id = n.instanceId;
  const history = nodeHistory(read, region, cluster, id);
  const findings: Finding[] = [
    ...instanceFindings(detail),
    ...labelFindings(detail),
    ...deepHealthFindings(detail, history),
    ...conditionFindings(detail),
    ...eventFindings(detail),
  ];
  const lastReboot = history.find((h) => h.op.kind === 'reboot-nodes' && h.outcome?.outcome === 'succeeded');
  const escalation = escalationOf(detail, hp?.NodeRecovery, lastReboot?.op);
  if (detail.pods.length)
    findings.push({
      severity: 'info',
      code: 'pods-on-node',
      title: `${detail.pods.length} pod(s) run on the node`,
      explanation:
        'A reboot or replace stops them; their controllers (jobs, deployments) start them again elsewhere or after.',
      evidence: detail.pods
        .slice(0, 20)
        .map((p) => evidence(`pods on node ${n.nodeName}`, `${p.namespace}/${p.name} ${p.phase}`)),
    });
  return {
    subject: { kind: 'node', cluster, region, id },
    summary: `${id} (${n.instanceGroupName}, ${n.instanceType}) is ${n.health.state}: ${n.health.reason} ${escalation.why}`,
    findings: bySeverity(findings),
    suggestions: suggestionsFor(cluster, region, detail, escalation),
    escalation,
    readOnly: true,
    gatheredAt: new Date().toISOString(),
  };
}

function instanceFindings(d: NodeDetail): Finding[] {
  const s = d.node.instanceStatus;
  const said = evidence(
    'sagemaker:DescribeClusterNode',
    `InstanceStatus ${s.status}${s.message ? `: ${s.message}` : ''}`,
  );
  if (s.status === 'Running')
    return [
      {
        severity: 'info',
        code: 'instance-running',
        title: 'SageMaker says the instance is Running',
        explanation: 'The instance itself is up; its health is judged by the labels and conditions.',
        evidence: [said],
      },
    ];
  return [
    {
      severity: s.status === 'Failure' || s.status === 'NotFound' ? 'critical' : 'warning',
      code: `instance-${s.status.toLowerCase()}`,
      title: `SageMaker says the instance is ${s.status}`,
      explanation: d.node.health.reason,
      evidence: [said],
    },
  ];
}

function labelFindings(d: NodeDetail): Finding[] {
  const { healthStatus, faultType, faultReason } = d.node.labels;
  const label = evidence(
    'kubernetes: Node labels',
    `sagemaker.amazonaws.com/node-health-status=${healthStatus ?? '(none)'}`,
  );
  const fault = [
    ...(faultType ? [evidence('kubernetes: Node labels', `sagemaker.amazonaws.com/fault-type=${faultType}`)] : []),
    ...(faultReason
      ? [evidence('kubernetes: Node labels', `sagemaker.amazonaws.com/fault-reason=${faultReason}`)]
      : []),
  ];
  // HyperPod's own event saying why it labelled the node (an instance fault has no fault labels: only the agent sets them).
  if (healthStatus && healthStatus !== 'Schedulable')
    fault.push(
      ...d.events
        .filter((e) => e.source === 'hyperpod' && e.message.includes(healthStatus))
        .slice(0, 2)
        .map((e) => evidence('sagemaker:ListClusterEvents', `${e.time} ${e.message}`)),
    );
  const found: Finding[] = [];
  if (healthStatus === 'UnschedulablePendingReboot')
    found.push({
      severity: 'critical',
      code: 'pending-reboot',
      title: 'HyperPod marked the node for a reboot',
      explanation:
        'The health-monitoring agent found a fault a reboot usually clears; the node takes no new pods until then.',
      evidence: [label, ...fault],
    });
  else if (healthStatus === 'UnschedulablePendingReplacement')
    found.push({
      severity: 'critical',
      code: 'pending-replacement',
      title: 'HyperPod marked the node for replacement',
      explanation:
        'The health-monitoring agent found a fault a reboot does not clear (hardware): the instance must be replaced with new hardware; local data on its volumes is lost.',
      evidence: [label, ...fault],
    });
  else if (healthStatus === 'Unschedulable')
    found.push({
      severity: 'warning',
      code: 'unschedulable',
      title: 'HyperPod marked the node unschedulable',
      explanation: 'The node takes no new pods (a check runs, or a fault is being judged).',
      evidence: [label, ...fault],
    });
  else if (fault.length)
    found.push({
      severity: 'warning',
      code: 'health-agent-fault',
      title: 'The health-monitoring agent reported a fault',
      explanation: 'The fault labels are set while the node is still schedulable: watch it, and look at its events.',
      evidence: [label, ...fault],
    });
  else if (healthStatus)
    found.push({
      severity: 'info',
      code: 'health-label-schedulable',
      title: 'HyperPod labels the node Schedulable',
      explanation: 'The health-monitoring agent has found nothing wrong.',
      evidence: [label],
    });
  return found;
}

function deepHealthFindings(d: NodeDetail, history: NodeHistoryItem[]): Finding[] {
  const status = d.node.labels.deepHealthCheckStatus;
  const check = history.find((h) => h.op.kind === 'deep-health-check');
  const ran = check
    ? [
        evidence(
          `operation ${check.op.id} (deep-health-check)`,
          `${check.op.status}${check.outcome ? `; this node: ${check.outcome.outcome}${check.outcome.code ? ` ${check.outcome.code}` : ''}${check.outcome.message ? ` — ${check.outcome.message}` : ''}` : ''}`,
        ),
      ]
    : [];
  if (!status && !check) return [];
  const label = status
    ? [evidence('kubernetes: Node labels', `sagemaker.amazonaws.com/deep-health-check-status=${status}`)]
    : [];
  const failed = status === 'Failed' || check?.outcome?.outcome === 'failed';
  return [
    {
      severity: failed ? 'critical' : 'info',
      code: failed ? 'deep-health-check-failed' : `deep-health-check-${(status ?? check!.op.status).toLowerCase()}`,
      title: failed ? 'The deep health check failed' : `Deep health check: ${status ?? check!.op.status}`,
      explanation: failed
        ? 'GPU/accelerator stress or EFA connectivity checks failed: the hardware is suspect, and a reboot rarely fixes that.'
        : 'The deep health checks (GPU/accelerator stress, EFA connectivity) are not failing.',
      evidence: [...label, ...ran],
    },
  ];
}

function conditionFindings(d: NodeDetail): Finding[] {
  const found: Finding[] = [];
  const ready = d.conditions.find((c) => c.type === 'Ready');
  if (ready && ready.status !== 'True')
    found.push({
      severity: 'critical',
      code: 'not-ready',
      title: `Kubernetes says the node is not Ready (${ready.status})`,
      explanation: 'The kubelet stopped reporting or reports a problem: nothing new runs there.',
      evidence: [
        evidence(
          'kubernetes: Node conditions',
          `Ready=${ready.status}${ready.reason ? ` ${ready.reason}` : ''}${ready.message ? `: ${ready.message}` : ''}`,
        ),
      ],
    });
  const pressing = d.conditions.filter((c) => PRESSURE.has(c.type) && c.status === 'True');
  if (pressing.length)
    found.push({
      severity: 'warning',
      code: 'node-pressure',
      title: `The node reports ${pressing.map((c) => c.type).join(', ')}`,
      explanation: 'The kubelet is short of a resource and may evict pods.',
      evidence: pressing.map((c) =>
        evidence('kubernetes: Node conditions', `${c.type}=True${c.message ? `: ${c.message}` : ''}`),
      ),
    });
  if (!d.conditions.length)
    found.push({
      severity: 'warning',
      code: 'not-in-kubernetes',
      title: 'The node is not in Kubernetes',
      explanation: 'HyperPod has the instance but Kubernetes has no Node for it (still joining, or left).',
      evidence: [evidence('kubernetes: Node', `no Node ${d.node.nodeName ?? `hyperpod-${d.node.instanceId}`}`)],
    });
  return found;
}

function eventFindings(d: NodeDetail): Finding[] {
  const bad = d.events.filter((e) => e.level !== 'info').slice(0, 10);
  if (!bad.length) return [];
  return [
    {
      severity: 'warning',
      code: 'recent-warning-events',
      title: `${bad.length} recent warning or error event(s)`,
      explanation: "HyperPod's and Kubernetes' own account of what happened to the node, newest first.",
      evidence: bad.map((e) =>
        evidence(
          e.source === 'hyperpod' ? 'sagemaker:ListClusterEvents' : 'kubernetes: Events',
          `${e.time} ${e.kind}: ${e.message}`,
        ),
      ),
    },
  ];
}

/** Where the node stands: the labels decide first (HyperPod's own judgement), then the health verdict. */
function escalationOf(d: NodeDetail, nodeRecovery: string | undefined, rebooted: OperationView | undefined): Stage {
  const label = d.node.labels.healthStatus;
  const automatic = nodeRecovery === 'Automatic';
  const hyperpodActs = automatic
    ? ' Automatic node recovery is on: HyperPod does this itself within minutes — check again before acting.'
    : ' Automatic node recovery is off: HyperPod will not act on its own.';
  if (label === 'UnschedulablePendingReplacement')
    return {
      stage: 'replace',
      why: `HyperPod labelled the node UnschedulablePendingReplacement: a fault a reboot does not clear.${hyperpodActs}`,
    };
  if (label === 'UnschedulablePendingReboot') {
    if (rebooted)
      return {
        stage: 'replace',
        why: `The node was rebooted (operation ${rebooted.id}) and is marked for a reboot again: escalate to replace.${hyperpodActs}`,
      };
    return {
      stage: 'reboot',
      next: 'replace',
      why: `HyperPod labelled the node UnschedulablePendingReboot: a reboot usually clears it; replace if it comes back.${hyperpodActs}`,
    };
  }
  if (d.node.labels.deepHealthCheckStatus === 'Failed')
    return { stage: 'replace', why: 'The deep health check failed: the hardware is suspect.' };
  const h = d.node.health;
  if (h.state === 'healthy') return { stage: 'none', why: 'The node is healthy: nothing to do.' };
  if (h.state === 'transitional')
    return { stage: 'none', why: `The node is changing on its own (${h.code}): wait and check again.` };
  if (h.suggestedAction === 'reboot') return { stage: 'reboot', next: 'replace', why: h.reason };
  if (h.suggestedAction === 'replace') return { stage: 'replace', why: h.reason };
  return { stage: 'investigate', next: 'reboot', why: `${h.reason} Look at the evidence before rebooting.` };
}

function suggestionsFor(cluster: string, region: string, d: NodeDetail, e: Stage): SuggestedCommand[] {
  const id = d.node.instanceId;
  const nodeName = d.node.nodeName ?? `hyperpod-${id}`;
  const look: SuggestedCommand = {
    description: "Read the Node's conditions, taints and events yourself.",
    kind: 'kubectl',
    command: `kubectl describe node ${nodeName}`,
    mutating: false,
  };
  const reboot: SuggestedCommand = {
    description: 'Reboot the node (the instance and its volumes stay); its pods are stopped. Ask the user first.',
    kind: 'mcp',
    command: mcp('reboot_nodes', { cluster, region, nodeIds: [id] }),
    mutating: true,
  };
  const replace: SuggestedCommand = {
    description:
      'Replace the node with new hardware (local data on its volumes is lost). Ask the user first; needs confirm: true.',
    kind: 'mcp',
    command: mcp('replace_nodes', { cluster, region, nodeIds: [id], confirm: true }),
    mutating: true,
  };
  if (e.stage === 'reboot') return [reboot, look];
  if (e.stage === 'replace') return [replace, look];
  if (e.stage === 'investigate') {
    const check: SuggestedCommand[] = d.node.instanceGroupName
      ? [
          {
            description:
              'Run the deep health checks on this node (it takes no new work while they run). Ask the user first.',
            kind: 'mcp',
            command: mcp('start_deep_health_check', {
              cluster,
              region,
              instanceGroupName: d.node.instanceGroupName,
              nodeIds: [id],
            }),
            mutating: true,
          },
        ]
      : [];
    return [look, ...check];
  }
  return [look];
}

interface NodeHistoryItem {
  op: OperationView;
  outcome?: NodeOutcome;
}

/** The node actions of the cluster that named this node, newest first, with this node's outcome. */
function nodeHistory(read: DiagnosticsReadPort, region: string, cluster: string, id: string): NodeHistoryItem[] {
  return read
    .operations({ target: clusterNodesTarget(region, cluster), limit: HISTORY })
    .filter((op) => ((op.input as { nodeIds?: string[] }).nodeIds ?? []).includes(id))
    .map((op) => {
      const results = (op.result as { results?: NodeOutcome[] } | undefined)?.results;
      const outcome = results?.find((r) => r.nodeId === id);
      return outcome ? { op, outcome } : { op };
    });
}
