import type { Finding, SuggestedCommand } from '../schemas/diagnostics.js';
import type { NcclEvidence } from './nccl-evidence.js';

/**
 * What to run next for each finding, as text: our MCP tools first (what an agent has), then kubectl and aws
 * commands a person can paste. The diagnostic runs none of them; the mutating ones need the user's yes.
 */

const json = (o: Record<string, unknown>) => JSON.stringify(o);

export function ncclSuggestions(evidence: NcclEvidence, findings: readonly Finding[]): SuggestedCommand[] {
  const { cluster, region, job } = evidence;
  const ref = { cluster, namespace: job.namespace, job: job.name, region };
  const codes = new Set(findings.map((f) => f.code));
  const out: SuggestedCommand[] = [];
  const add = (s: SuggestedCommand) => {
    if (!out.some((o) => o.command === s.command)) out.push(s);
  };
  const ns = `-n ${job.namespace}`;

  if (codes.has('nccl-timeout') || codes.has('nccl-error') || codes.has('rank-restarts'))
    add({
      description: 'Read what each rank printed before its restart: the first rank to fail names the cause.',
      kind: 'mcp',
      command: `get_job_logs ${json({ ...ref, previous: true, grep: 'NCCL', tailLines: 200 })}`,
      mutating: false,
    });
  if (codes.has('nccl-init-not-logged') || codes.has('nccl-timeout'))
    add({
      description: 'Search the ranks’ logs for NCCL’s network choice and warnings.',
      kind: 'mcp',
      command: `get_job_logs ${json({ ...ref, grep: 'NET/', tailLines: 500 })}`,
      mutating: false,
    });
  if (codes.has('efa-setting-missing') || codes.has('efa-setting-wrong')) {
    if (job.podSelector)
      add({
        description: 'See the environment and resources the ranks were given.',
        kind: 'kubectl',
        command: `kubectl get pods ${ns} -l ${job.podSelector} -o jsonpath='{range .items[*]}{.metadata.name}{"\\t"}{.spec.containers[0].env}{"\\t"}{.spec.containers[0].resources.limits}{"\\n"}{end}'`,
        mutating: false,
      });
    const again = resubmitCommand(evidence);
    add({
      description:
        'Delete the job (it stops; /data stays), freeing its nodes for the job submitted again' +
        (again ? ' (the next suggestion).' : ' through InstantStart on its instance group (submit_training_job).'),
      kind: 'mcp',
      command: `delete_job ${json({ ...ref, confirm: true })}`,
      mutating: true,
    });
    if (again)
      add({
        description:
          'Submit it again through InstantStart under a new name, from the request it was made with: the placement sets FI_PROVIDER, FI_EFA_USE_DEVICE_RDMA and the EFA devices for the instance family.',
        kind: 'mcp',
        command: again,
        mutating: true,
      });
  }
  if (codes.has('efa-not-allocatable') || codes.has('efa-init-failed') || codes.has('efa-not-used')) {
    for (const node of new Set(evidence.ranks.flatMap((r) => (r.node ? [r.node] : []))))
      add({
        description: `Check what node ${node} advertises (Allocatable: vpc.amazonaws.com/efa) and its events.`,
        kind: 'kubectl',
        command: `kubectl describe node ${node}`,
        mutating: false,
      });
    add({
      description: 'Check that the EFA device plugin runs on every node of the group.',
      kind: 'kubectl',
      command: 'kubectl get daemonset -n kube-system aws-efa-k8s-device-plugin -o wide',
      mutating: false,
    });
  }
  if (codes.has('efa-init-failed') || codes.has('efa-not-used')) {
    const pod = evidence.ranks.find((r) => r.phase === 'Running')?.pod;
    if (pod)
      add({
        description: 'List the libfabric providers the container sees (fi_info ships with the EFA installer).',
        kind: 'kubectl',
        command: `kubectl exec ${ns} ${pod} -- fi_info -p efa -t FI_EP_RDM`,
        mutating: false,
      });
  }
  const sg = evidence.securityGroup?.groupId;
  if (codes.has('sg-no-self-rule') && sg) {
    add({
      description: 'Allow all inbound traffic from the security group itself (EFA needs it).',
      kind: 'aws',
      command: `aws ec2 authorize-security-group-ingress --region ${region} --group-id ${sg} --protocol -1 --source-group ${sg}`,
      mutating: true,
    });
    add({
      description: 'Allow all outbound traffic to the security group itself (EFA needs it).',
      kind: 'aws',
      command: `aws ec2 authorize-security-group-egress --region ${region} --group-id ${sg} --ip-permissions IpProtocol=-1,UserIdGroupPairs=[{GroupId=${sg}}]`,
      mutating: true,
    });
  }
  if (codes.has('ranks-across-zones') || codes.has('ranks-outside-group'))
    add({
      description: 'See each node’s zone and instance group.',
      kind: 'kubectl',
      command:
        'kubectl get nodes -L topology.kubernetes.io/zone,sagemaker.amazonaws.com/instance-group-name,node.kubernetes.io/instance-type',
      mutating: false,
    });
  if (codes.has('ranks-across-zones'))
    add({
      description: 'List the instance groups and their zones, to place the job on one group in one zone.',
      kind: 'mcp',
      command: `list_instance_groups ${json({ cluster, region })}`,
      mutating: false,
    });
  if (codes.has('no-ranks'))
    add({
      description: 'Wait until the job runs (its ranks’ pods exist), then diagnose again.',
      kind: 'mcp',
      command: `wait_for_job ${json({ ...ref, until: ['Running', 'Succeeded', 'Failed'] })}`,
      mutating: false,
    });
  add({
    description: 'The job’s state, restarts and ranks.',
    kind: 'mcp',
    command: `get_job ${json(ref)}`,
    mutating: false,
  });
  return out;
}

/** The next free-looking name: `<job>-2`, or the trailing number plus one; within a job name's 40 characters. */
export function nextJobName(name: string): string {
  const m = /^(.*)-(\d+)$/.exec(name);
  const next = m ? `${m[1]}-${Number(m[2]) + 1}` : `${name}-2`;
  return next.length <= 40 ? next : `${name.slice(0, 38).replace(/-+$/, '')}-2`;
}

/**
 * `submit_training_job` with the request the job was made from (its saved request) under a new name: what InstantStart
 * submits sets the family's EFA settings itself (placement.ts). Absent when the job carries no saved request.
 */
function resubmitCommand(evidence: NcclEvidence): string | undefined {
  const { request, name } = evidence.job;
  if (!request) return undefined;
  const { instanceGroup, ...rest } = request;
  const { cluster, region } = evidence;
  return `submit_training_job ${json({ cluster, region, job: nextJobName(name), group: instanceGroup, ...rest })}`;
}
