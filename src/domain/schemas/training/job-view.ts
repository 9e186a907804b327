import { z } from 'zod';
import { TrainingKindSchema } from './fields.js';

/**
 * A training job as Kubernetes reports it now (either kind): its phase, its pods by rank, the
 * recovery budget spent and the last fault, its events — and a cluster's list of them.
 */

export const TrainingPhaseSchema = z
  .enum(['Pending', 'Running', 'Restarting', 'Hanging', 'Slow', 'Suspended', 'Succeeded', 'Failed'])
  .describe(
    'Pending: waiting for pods or the Ray cluster. Running. Restarting: recovering from a fault. Hanging ' +
      '/ Slow: a log-monitoring rule fired (reason LogStateHanging_<rule> / LogStateSlow_<rule>). ' +
      'Suspended. Succeeded. Failed (reason says why, e.g. the recovery budget ran out).',
  );
export type TrainingPhase = z.infer<typeof TrainingPhaseSchema>;

export const BudgetSchema = z
  .object({
    used: z.number().int().describe('Spent so far.'),
    allowed: z.number().int().optional().describe('The limit; absent when none is set.'),
    remaining: z.number().int().optional().describe('allowed − used, never below 0; absent when there is no limit.'),
  })
  .describe('One part of the recovery budget: used of allowed.');
export type Budget = z.infer<typeof BudgetSchema>;

export const LastFaultSchema = z
  .object({
    restartType: z
      .string()
      .describe('As the operator reports it: PLR (process-level restart) or JLR (job-level restart).'),
    level: z
      .enum(['process', 'job', 'unknown'])
      .describe('What the restart replaced: processes in the same pods, or the pods themselves.'),
    ranks: z.array(z.number().int()).describe('Faulty ranks.'),
    pods: z.array(z.string()).describe('Faulty pods.'),
    instances: z.array(z.string()).describe('Faulty instances (EC2 instance ids) — open them in the node view.'),
  })
  .describe('The latest fault the operator recovered from (status.latestFaultyPodInstanceList).');
export type LastFault = z.infer<typeof LastFaultSchema>;

export const RecoveryBudgetSchema = z
  .object({
    processRestarts: BudgetSchema.optional().describe(
      'HyperPodPyTorchJob: all restarts so far (status.restartCount) of runPolicy.jobMaxRetryCount.',
    ),
    fullJobRestarts: BudgetSchema.optional().describe(
      'HyperPodPyTorchJob: full-job restarts in the current window (status.restartStatus.fullJobRestartCount) of restartPolicy.maxFullJobRestarts.',
    ),
    window: z
      .object({
        restarts: z
          .number()
          .int()
          .describe('Process-level restarts in the current window since the last full-job restart.'),
        beforeFullJobRestart: z
          .number()
          .int()
          .optional()
          .describe('restartPolicy.numRestartBeforeFullJobRestart: at this many the operator restarts the whole job.'),
        evalPeriodSeconds: z.number().int().optional().describe("The window's length."),
        currentEvalPeriod: z.string().optional().describe('The current window as the operator reports it.'),
      })
      .optional()
      .describe('HyperPodPyTorchJob: the escalation window (restartPolicy).'),
    jobRetries: BudgetSchema.optional().describe(
      'RayJob: failed attempts (status.failed) of spec.backoffLimit; each retry runs on a new Ray cluster.',
    ),
    exhausted: z.boolean().describe('True when a limit is reached: the next fault fails the job (or did).'),
    lastFault: LastFaultSchema.optional(),
  })
  .describe('The recovery budget: restarts used of allowed, process-level vs full-job, and the last fault.');
export type RecoveryBudget = z.infer<typeof RecoveryBudgetSchema>;

export const KubeHealthSchema = z
  .object({
    state: z.enum(['healthy', 'transitional', 'degraded', 'failed']),
    code: z.string().describe('Stable code to branch on (e.g. CrashLoopBackOff, unschedulable).'),
    reason: z.string().describe('For people.'),
  })
  .describe('One verdict: healthy, transitional (getting there), degraded (needs a look), failed (needs someone).');

export const ConditionSchema = z.object({
  type: z.string(),
  status: z.enum(['True', 'False', 'Unknown']),
  reason: z.string().optional(),
  message: z.string().optional(),
  lastTransitionTime: z.string().optional(),
});

export const RankViewSchema = z
  .object({
    rank: z
      .number()
      .int()
      .describe(
        'Global rank of the pod (node rank): its replica index counted across replica specs in order; Ray: ' +
          "head 0, workers after, then the submitter (role submitter: the driver's output, where a RayJob's " +
          'step lines are).',
      ),
    pod: z.string().describe('Pod name.'),
    role: z
      .string()
      .optional()
      .describe('Replica spec name (HyperPodPyTorchJob) or head / worker group / submitter (RayJob).'),
    node: z
      .string()
      .optional()
      .describe('Kubernetes node the pod runs on (hyperpod-i-<instance id>); absent while unscheduled.'),
    instanceId: z.string().optional().describe('EC2 instance id of the node, for the node view.'),
    phase: z.string().describe('Pod phase: Pending, Running, Succeeded, Failed, Unknown.'),
    restarts: z
      .number()
      .int()
      .describe('Container restarts of the pod (process restarts inside it are counted in the recovery budget).'),
    health: KubeHealthSchema,
  })
  .describe('One pod of the job.');
export type RankView = z.infer<typeof RankViewSchema>;

export const JobEventSchema = z
  .object({
    time: z.string().optional().describe('ISO-8601 time it last happened.'),
    type: z.string().describe('Normal or Warning.'),
    reason: z.string().describe('e.g. NodeFault, Running, LogStateHanging_JobStart, FailedScheduling.'),
    message: z.string(),
    object: z.string().describe('What it is about: Kind/name (the job or one of its pods).'),
    count: z.number().int().optional(),
  })
  .describe('A Kubernetes event about the job or its pods.');

export const TrainingJobViewSchema = z
  .object({
    name: z.string(),
    namespace: z.string(),
    kind: TrainingKindSchema,
    recipe: z
      .string()
      .optional()
      .describe('Recipe id it was submitted from; absent for custom containers and jobs InstantStart did not submit.'),
    instanceGroup: z.string().optional().describe('The instance group its pods are placed on.'),
    nodes: z.number().int().describe('Nodes (pods) the job asks for now.'),
    image: z.string().optional(),
    phase: TrainingPhaseSchema,
    reason: z
      .string()
      .optional()
      .describe("Why, in the operator's words (e.g. LogStateHanging_JobHangingDetection, DeadlineExceeded)."),
    message: z.string().optional(),
    recovery: RecoveryBudgetSchema,
    health: KubeHealthSchema,
    ranks: z
      .array(RankViewSchema)
      .describe("The job's pods, by rank (list answers leave them empty; get_job fills them)."),
    conditions: z.array(ConditionSchema),
    events: z
      .array(JobEventSchema)
      .optional()
      .describe('Recent events of the job and its pods, newest first (get only).'),
    pending: z
      .string()
      .optional()
      .describe(
        'Why pods of the job wait for a node, read from the cluster (get only): a GPU/EFA/Neuron resource no ' +
          "node advertises (its device plugin is not running), or the scheduler's reason.",
      ),
    createdAt: z.string().optional(),
    startedAt: z.string().optional(),
    finishedAt: z.string().optional(),
    elastic: z
      .object({
        minReplicas: z.number().int(),
        maxReplicas: z.number().int(),
        targetReplicas: z.number().int().optional(),
      })
      .optional()
      .describe('Elastic range, and the size the operator is scaling to.'),
    rayCluster: z
      .object({
        name: z.string(),
        state: z.string().optional(),
        availableWorkers: z.number().int().optional(),
        desiredWorkers: z.number().int().optional(),
        dashboardURL: z.string().optional(),
      })
      .optional()
      .describe('RayJob: the Ray cluster it runs on.'),
    storage: z.string().optional().describe('The claim mounted at /data.'),
    paths: z.object({ checkpoints: z.string(), outputs: z.string() }).describe('Where the job writes, under /data.'),
    mlflow: z.object({ trackingServerArn: z.string(), experimentName: z.string(), runName: z.string() }).optional(),
  })
  .describe('A training job as Kubernetes reports it now.');
export type TrainingJobView = z.infer<typeof TrainingJobViewSchema>;

export const TrainingJobListSchema = z
  .object({
    cluster: z.string(),
    region: z.string(),
    jobs: z.array(TrainingJobViewSchema).describe('Newest first.'),
    notServed: z
      .array(z.object({ kind: TrainingKindSchema, installedBy: z.string() }))
      .describe('Kinds the cluster does not serve yet (their operator is off), so none of them are listed.'),
  })
  .describe('The training jobs of a cluster.');
export type TrainingJobList = z.infer<typeof TrainingJobListSchema>;
