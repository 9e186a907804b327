import { deleteObject } from '../api/deletion.js';
import type { KubeCluster } from '../cluster.js';
import type { KubeObject, ResourceType } from '../types.js';
import { recordEvent, type EventType } from './events.js';
import { injectFault } from './injected-faults.js';
import { evaluateRules, rulesOf, type Verdict } from './training-log-rules.js';
import {
  COUNTED,
  MASTER_PORT,
  plannedPods,
  runsElasticAgent,
  trainingContainer,
  trainingPod,
  trainingStatus,
  type PlannedPod,
} from './training-pods.js';
import { budgetOf, counted, decide, restartStatusAt } from './training-recovery.js';
import {
  byController,
  isReady,
  isTerminal,
  nodeNameOf,
  ownedBy,
  podPhase,
  removeIfPresent,
  rfc3339,
  save,
  T,
  type Any,
} from './util.js';

/**
 * The HyperPod training operator (add-on `amazon-sagemaker-hyperpod-training-operator`): while the
 * cluster serves `hyperpodpytorchjobs.sagemaker.amazonaws.com`, each HyperPodPyTorchJob gets its
 * pods (training-pods.ts) and a status as the operator reports it — conditions Created, PodsRunning,
 * Running, Completed or Failed; `restartCount`, `restartStatus`, `latestFaultyPodInstanceList`,
 * `jobPods`, `masterAddr`/`masterPort`, `startTime`, `completionTime`.
 *
 * Faults: a rank's training container exiting non-zero (`ProcessFault`), a log rule finding a rank
 * HANGING (`LogStateHanging_<rule>`: its process is stopped and restarted), a pod on an unhealthy
 * node (`NodeFault`, the node labelled UnschedulablePendingReboot/Replacement, NotReady or gone) or a
 * failed pod (`PodFailed`). The first two need the HyperPod elastic agent in the rank: it runs the
 * training processes, restarts them and reads their logs. A rank whose container does not start
 * `hyperpodrun` (training-pods.ts, runsElasticAgent) is never judged by the log rules (a hang goes
 * unnoticed), and its crash is a failed pod (`PodFailed`), which only a full job restart replaces.
 * Each pass that finds faults spends one restart of the budget
 * (training-recovery.ts): a process-level restart (the container restarts in place), a full job
 * restart (every pod recreated), or — the budget spent — Failed, naming the budget. Running goes
 * False with the fault's reason until every rank runs again (`The fault of reason X was remediated
 * in N milliseconds.`). A SLOW log rule marks Running `LogStateSlow_<rule>` without a restart.
 * The job completes when every pod's training container (its first) exited 0; then
 * `cleanPodPolicy` (All, the default: every pod; OnlyComplete: the succeeded ones; None) removes
 * pods, and `ttlSecondsAfterFinished` (> 0) the job.
 */

export const TRAINING_REPORTER = 'hyperpod-pytorch-job-controller';
const HEALTH = 'sagemaker.amazonaws.com/node-health-status';
const UNHEALTHY = new Set(['UnschedulablePendingReboot', 'UnschedulablePendingReplacement']);

interface Fault {
  pod: KubeObject;
  rank: number;
  kind: 'process' | 'hang' | 'node' | 'pod';
  reason: string;
  message: string;
  node?: string;
}

interface Pass {
  cluster: KubeCluster;
  type: ResourceType;
  job: KubeObject;
  st: Any;
  now: number;
  event(type: EventType, reason: string, message: string, options?: { minIntervalMs?: number }): void;
}

export function runTrainingOperator(cluster: KubeCluster): void {
  const type = cluster.findType('sagemaker.amazonaws.com', 'v1', 'hyperpodpytorchjobs');
  if (!type) return;
  const jobs = cluster.objects.list(type);
  if (jobs.length === 0) return;
  const podsOf = byController(cluster, T.pods);
  let nodes: Map<string, KubeObject> | undefined;
  const nodeNamed = (name: string) =>
    (nodes ??= new Map(cluster.objects.list(T.nodes).map((n) => [n.metadata.name!, n]))).get(name);
  for (const job of jobs) {
    if (job.metadata.deletionTimestamp) continue;
    const st = structuredClone((job.status ?? {}) as Any);
    const pass: Pass = {
      cluster,
      type,
      job,
      st,
      now: cluster.now(),
      event: (t, reason, message, options) =>
        recordEvent(cluster, job, t, reason, message, TRAINING_REPORTER, options ?? {}),
    };
    reconcile(pass, podsOf(job), nodeNamed);
    save(cluster, type, job, { ...job, status: st });
  }
}

function reconcile(pass: Pass, owned: KubeObject[], nodeNamed: (name: string) => KubeObject | undefined): void {
  const { cluster, job, st, now } = pass;
  const spec = (job.spec ?? {}) as Any;
  if (isTrue(st, 'Completed') || isTrue(st, 'Failed')) return expire(pass, spec);
  const name = job.metadata.name!;
  const planned = plannedPods(job);
  const budget = budgetOf(spec);
  if (!st.startTime) {
    st.startTime = rfc3339(now);
    setCondition(st, 'Created', 'True', 'Created', `HyperPodPyTorchJob ${name} is created.`, now);
  }
  const startMs = Date.parse(st.startTime);
  let used = { total: Number(st.restartCount ?? 0), window: restartStatusAt(st.restartStatus, budget, startMs, now) };
  const byName = new Map(owned.filter((p) => !p.metadata.deletionTimestamp).map((p) => [p.metadata.name!, p]));

  const deadline = Number(spec.runPolicy?.activeDeadlineSeconds);
  if (Number.isFinite(deadline) && deadline > 0 && now - startMs >= deadline * 1000) {
    return finish(
      pass,
      byName,
      'Failed',
      'DeadlineExceeded',
      `the job ran longer than runPolicy.activeDeadlineSeconds ${deadline}`,
    );
  }

  const faults = faultsOf(pass, planned, byName, nodeNamed);
  const slow: Array<Verdict & { pod: string; rank: number }> = [];
  const rules = rulesOf(spec);
  if (faults.length === 0 && rules.length > 0) {
    for (const p of planned) {
      const pod = byName.get(p.name);
      const container = pod && trainingContainer(pod);
      // The agent reads the processes' output; without it no rule is ever evaluated.
      if (!pod || !container || podPhase(pod) !== 'Running' || !runsElasticAgent(container)) continue;
      const verdicts = evaluateRules(cluster, pod, container, trainingStatus(pod), rules, now);
      const hang = verdicts.find((v) => v.state === 'HANGING');
      if (hang)
        faults.push({
          pod,
          rank: p.rank,
          kind: 'hang',
          reason: hang.reason,
          message: `rule ${hang.rule} evaluated HANGING on rank ${p.rank} (pod ${p.name}): ${hang.message}`,
        });
      else for (const v of verdicts) slow.push({ ...v, pod: p.name, rank: p.rank });
    }
  }

  if (faults.length > 0) {
    const decision = decide(
      budget,
      used,
      faults.some((f) => f.kind === 'node' || f.kind === 'pod'),
    );
    const restartType = decision.action === 'fail' ? decision.restartType : decision.action;
    st.latestFaultyPodInstanceList = {
      restartType,
      faultyInstanceIdList: [
        ...new Set(faults.map((f) => instanceIdOf(nodeNameOf(f.pod), nodeNamed)).filter((id): id is string => !!id)),
      ],
      faultyPodList: faults.map((f) => f.pod.metadata.name!),
      faultyRankList: faults.map((f) => String(f.rank)),
    };
    const primary = faults[0]!;
    const what = faults.map((f) => f.message).join('; ');
    if (decision.action === 'fail') {
      pass.event('Warning', primary.reason, what);
      st.restartStatus = used.window;
      return finish(
        pass,
        byName,
        'Failed',
        decision.reason,
        `${decision.message}; last fault: ${primary.reason}: ${what}`,
      );
    }
    pass.event('Warning', primary.reason, `${what}: ${decision.message}`);
    used = counted(used, decision.action);
    setCondition(st, 'Running', 'False', primary.reason, what, now);
    if (decision.action === 'JLR') {
      for (const pod of byName.values()) removeIfPresent(cluster, T.pods, pod);
      byName.clear();
    } else {
      for (const f of faults) restartInPlace(pass, f, byName);
    }
  }
  st.restartCount = used.total;
  st.restartStatus = used.window;

  for (const p of planned) {
    if (byName.has(p.name)) continue;
    const taken = cluster.objects.get(T.pods, job.metadata.namespace, p.name);
    if (taken && !ownedBy(taken, job)) continue; // the name belongs to someone else's pod: never theirs to replace
    if (taken) continue; // still being deleted
    byName.set(p.name, cluster.objects.create(T.pods, cluster.admit(T.pods, trainingPod(job, p, planned))));
    pass.event('Normal', 'SuccessfulCreate', `Created pod: ${p.name}`);
  }
  observe(pass, planned, byName, slow, faults.length > 0);
}

/** Crashed ranks, ranks on unhealthy nodes and failed pods, as found on the pods. */
function faultsOf(
  pass: Pass,
  planned: PlannedPod[],
  byName: Map<string, KubeObject>,
  nodeNamed: (name: string) => KubeObject | undefined,
): Fault[] {
  const faults: Fault[] = [];
  for (const p of planned) {
    const pod = byName.get(p.name);
    if (!pod) continue;
    const nodeName = nodeNameOf(pod);
    const node = nodeName ? nodeNamed(nodeName) : undefined;
    const cs = trainingStatus(pod);
    if (
      nodeName &&
      !isTerminal(pod) &&
      (!node || !isReady(node) || UNHEALTHY.has(node.metadata.labels?.[HEALTH] ?? ''))
    ) {
      faults.push({
        pod,
        rank: p.rank,
        kind: 'node',
        reason: 'NodeFault',
        message: `Found unhealthy node ${nodeName}`,
        node: nodeName,
      });
    } else if (podPhase(pod) === 'Failed' && cs?.state?.terminated?.exitCode !== 0) {
      const why = (pod.status as Any)?.reason ?? `exit code ${cs?.state?.terminated?.exitCode ?? 'unknown'}`;
      faults.push({
        pod,
        rank: p.rank,
        kind: 'pod',
        reason: 'PodFailed',
        message: `rank ${p.rank} (pod ${p.name}) failed: ${why}`,
      });
    } else if (Number(cs?.restartCount ?? 0) > Number(pod.metadata.annotations?.[COUNTED] ?? 0)) {
      const code = cs?.lastState?.terminated?.exitCode ?? cs?.state?.terminated?.exitCode;
      if (runsElasticAgent(trainingContainer(pod)))
        faults.push({
          pod,
          rank: p.rank,
          kind: 'process',
          reason: 'ProcessFault',
          message: `rank ${p.rank} (pod ${p.name}) exited with code ${code ?? 'unknown'}`,
        });
      else
        faults.push({
          pod,
          rank: p.rank,
          kind: 'pod',
          reason: 'PodFailed',
          message: `rank ${p.rank} (pod ${p.name}) exited with code ${code ?? 'unknown'}; it runs no HyperPod elastic agent (hyperpodrun), so its processes cannot be restarted in place`,
        });
    }
  }
  return faults;
}

/** A process-level restart: a crashed container restarts by itself; a hung one is stopped so it does. */
function restartInPlace(pass: Pass, fault: Fault, byName: Map<string, KubeObject>): void {
  const { cluster, now } = pass;
  let pod = cluster.objects.get(T.pods, fault.pod.metadata.namespace, fault.pod.metadata.name!) ?? fault.pod;
  const cs = trainingStatus(pod);
  let restarts = Number(cs?.restartCount ?? 0);
  if (fault.kind === 'hang' && cs?.state?.running) {
    const started = Date.parse(cs.state.running.startedAt);
    pod = injectFault(cluster, pod, {
      container: String(trainingContainer(pod)?.name),
      run: restarts,
      kind: 'restart',
      at: rfc3339(now),
      afterMs: Math.max(0, now - started),
      reason: fault.reason,
    });
    restarts += 1;
  }
  const next = {
    ...pod,
    metadata: { ...pod.metadata, annotations: { ...(pod.metadata.annotations ?? {}), [COUNTED]: String(restarts) } },
  };
  byName.set(pod.metadata.name!, save(cluster, T.pods, pod, next));
}

/** PodsRunning, Running (recovery, SLOW), completion, and the references to the pods. */
function observe(
  pass: Pass,
  planned: PlannedPod[],
  byName: Map<string, KubeObject>,
  slow: Array<Verdict & { pod: string; rank: number }>,
  restarting: boolean,
): void {
  const { st, now, job } = pass;
  const current = planned.map((p) => byName.get(p.name)).filter((p): p is KubeObject => !!p);
  const done = (p: KubeObject) => trainingStatus(p)?.state?.terminated?.exitCode === 0;
  const running = (p: KubeObject) => podPhase(p) === 'Running' && !!trainingStatus(p)?.state?.running;
  st.jobPods = current.map((p) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    name: p.metadata.name,
    namespace: p.metadata.namespace,
    uid: p.metadata.uid,
  }));
  if (planned[0]) {
    st.masterAddr = planned[0].name;
    st.masterPort = MASTER_PORT;
  }
  if (planned.length > 0 && current.length === planned.length && current.every(done)) {
    return finish(
      pass,
      byName,
      'Completed',
      'Completed',
      `All ${planned.length} pods of HyperPodPyTorchJob ${job.metadata.name} completed successfully.`,
    );
  }
  // A rank restarted in this pass still looks as it did before (its kubelet acts next): not healthy yet.
  const healthy =
    !restarting &&
    planned.length > 0 &&
    current.length === planned.length &&
    current.every((p) => running(p) || done(p));
  const up = current.filter(running).length;
  setCondition(
    st,
    'PodsRunning',
    healthy ? 'True' : 'False',
    healthy ? 'PodsRunning' : 'PodsNotRunning',
    healthy ? `All ${planned.length} pods are running.` : `${up} of ${planned.length} pods are running.`,
    now,
  );
  const cond = condition(st, 'Running');
  if (!healthy) return;
  if (!cond || cond.status !== 'True') {
    if (cond?.status === 'False') {
      const message = `The fault of reason ${cond.reason} was remediated in ${Math.max(0, now - Date.parse(cond.lastTransitionTime))} milliseconds.`;
      setCondition(st, 'Running', 'True', 'Running', message, now);
      pass.event('Normal', 'Running', message);
    } else setCondition(st, 'Running', 'True', 'Running', `HyperPodPyTorchJob ${job.metadata.name} is running.`, now);
    return;
  }
  const first = slow[0];
  if (first) {
    const message = `rule ${first.rule} evaluated SLOW on rank ${first.rank} (pod ${first.pod}): ${first.message}`;
    setCondition(st, 'Running', 'True', first.reason, message, now);
    pass.event('Warning', first.reason, message, { minIntervalMs: 60_000 });
  } else if (cond.reason !== 'Running')
    setCondition(st, 'Running', 'True', 'Running', `HyperPodPyTorchJob ${job.metadata.name} is running.`, now);
}

/** Completed or Failed: the condition, the time, an event, and the pods cleanPodPolicy removes. */
function finish(
  pass: Pass,
  byName: Map<string, KubeObject>,
  type: 'Completed' | 'Failed',
  reason: string,
  message: string,
): void {
  const { cluster, st, now, job } = pass;
  st.completionTime = rfc3339(now);
  setCondition(st, 'PodsRunning', 'False', type, message, now);
  setCondition(st, 'Running', 'False', type === 'Completed' ? 'Completed' : reason, message, now);
  setCondition(st, type, 'True', reason, message, now);
  pass.event(type === 'Completed' ? 'Normal' : 'Warning', type === 'Completed' ? 'Completed' : reason, message);
  const policy = String((job.spec as Any)?.runPolicy?.cleanPodPolicy ?? 'All');
  for (const pod of byName.values()) {
    if (policy === 'All' || (policy === 'OnlyComplete' && podPhase(pod) === 'Succeeded'))
      removeIfPresent(cluster, T.pods, pod);
  }
}

/** ttlSecondsAfterFinished > 0: the finished job goes that long after it finished (0, -1 or unset: it stays). */
function expire(pass: Pass, spec: Any): void {
  const ttl = Number(spec.runPolicy?.ttlSecondsAfterFinished);
  const finished = Date.parse(pass.st.completionTime ?? '');
  if (!Number.isFinite(ttl) || ttl <= 0 || !Number.isFinite(finished) || pass.now < finished + ttl * 1000) return;
  deleteObject(pass.cluster, pass.type, pass.job, 'Background');
}

const condition = (st: Any, type: string): Any | undefined =>
  ((st.conditions ?? []) as Any[]).find((c) => c.type === type);
const isTrue = (st: Any, type: string) => condition(st, type)?.status === 'True';

/**
 * Sets a condition (times kept while nothing changes). One that turns True moves to the end, so
 * `.status.conditions[-1]` is the newest state reached (the CRD's Status column).
 */
function setCondition(
  st: Any,
  type: string,
  status: 'True' | 'False',
  reason: string,
  message: string,
  now: number,
): void {
  const list = (st.conditions ?? []) as Any[];
  const old = list.find((c) => c.type === type);
  if (old && old.status === status && old.reason === reason && old.message === message) return;
  const at = rfc3339(now);
  const flipped = !old || old.status !== status;
  const next = {
    type,
    status,
    reason,
    message,
    lastTransitionTime: flipped ? at : old.lastTransitionTime,
    lastProbeTime: at,
  };
  const rest = list.filter((c) => c.type !== type);
  st.conditions =
    flipped && status === 'True'
      ? [...rest, next]
      : old
        ? list.map((c) => (c.type === type ? next : c))
        : [...list, next];
}

/** `i-0abc…` of a HyperPod node (`hyperpod-i-0abc…`), else the node's provider id's last part or its name. */
function instanceIdOf(
  nodeName: string | undefined,
  nodeNamed: (name: string) => KubeObject | undefined,
): string | undefined {
  if (!nodeName) return undefined;
  if (nodeName.startsWith('hyperpod-i-')) return nodeName.slice('hyperpod-'.length);
  const provider = String((nodeNamed(nodeName)?.spec as Any | undefined)?.providerID ?? '')
    .split('/')
    .at(-1);
  return provider || nodeName;
}
