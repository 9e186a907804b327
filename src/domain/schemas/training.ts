import { z } from 'zod';
import { ClusterRefSchema, RegionSchema } from './common.js';
import { InstanceGroupNameSchema } from './instance-groups.js';
import { MlflowTrackingServerArnSchema } from './mlflow.js';
import { StorageNameSchema, StorageNamespaceSchema } from './storage.js';
import { ElasticSchema, FaultToleranceSchema } from './training-policies.js';

/**
 * Training jobs (docs/TRAINING.md): a recipe or a custom container submitted as a HyperPodPyTorchJob
 * or a RayJob, read back live from Kubernetes as a job view. Validation lives here once: REST,
 * OpenAPI, the MCP tools and the UI's generated forms derive from these schemas, so every field
 * carries a description. Fault tolerance and elastic settings are in training-policies.ts, MLflow
 * tracking servers in mlflow.ts.
 */

export const TRAINING_KINDS = ['HyperPodPyTorchJob', 'RayJob'] as const;
export const TrainingKindSchema = z
  .enum(TRAINING_KINDS)
  .describe(
    'HyperPodPyTorchJob: the HyperPod training operator (process-level restarts, log monitoring, elastic). RayJob: KubeRay (a Ray cluster per job).',
  );
export type TrainingKind = z.infer<typeof TrainingKindSchema>;

const DNS_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/**
 * Job names become pod names (`<job>-pod-<index>`), the RayCluster KubeRay derives
 * (`<job>-<5 chars>`) and its head Service (`…-head-svc`), each at most 63 characters: 40 leaves room.
 */
export const TrainingJobNameSchema = z
  .string('must be a job name')
  .min(1, 'must not be empty')
  .max(40, 'must be at most 40 characters (pod and Service names derive from it and must stay within 63)')
  .regex(
    DNS_LABEL,
    'must be a Kubernetes name: lower-case letters, digits and hyphens, starting with a letter and ending with a letter or digit',
  )
  .describe(
    'Job name, unique in its namespace across both kinds: 1–40 lower-case letters, digits and hyphens. Names its pods, checkpoints (/data/checkpoints/<name>) and outputs (/data/outputs/<name>).',
  );

export const RecipeIdSchema = z
  .string('must be a recipe id')
  .regex(
    /^[a-z][a-z0-9-]{0,62}$/,
    'must be a recipe id such as pytorch-script (list them with list_recipes / GET /api/v1/training/recipes)',
  )
  .describe(
    'Recipe id, e.g. pytorch-script, llama-factory-sft, ms-swift-sft, ms-swift-megatron-rlhf, verl-rl. List them with list_recipes.',
  );

/** Values that are secrets must come from a Secret, never a literal in a manifest anyone can read. */
const SECRET_LIKE = /(SECRET|PASSWORD|PASSWD|TOKEN|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL)/i;

export const EnvVarSchema = z
  .object({
    name: z
      .string()
      .regex(
        /^[A-Za-z_][A-Za-z0-9_]{0,127}$/,
        'must be an environment variable name: letters, digits and _, not starting with a digit',
      )
      .refine(
        (n) => !SECRET_LIKE.test(n),
        'looks like a secret: literal values are visible to anyone who can read the job; keep secrets in a Kubernetes Secret',
      )
      .describe('Variable name.'),
    value: z
      .string()
      .max(4096, 'must be at most 4096 characters')
      .describe("Literal value (no secrets: it is stored in the job's manifest)."),
  })
  .strict()
  .describe('One environment variable for every training container.');
export type EnvVarRequest = z.infer<typeof EnvVarSchema>;

const EnvListSchema = z
  .array(EnvVarSchema)
  .max(64)
  .describe(
    'Extra environment variables for every training container; they cannot replace the ones InstantStart sets (data contract, MLflow, NCCL).',
  );

export const ImageSchema = z
  .string()
  .min(1)
  .max(512)
  .regex(/^[a-z0-9][a-z0-9._\-/:@]*$/i, 'must be a container image reference such as registry/repository:tag')
  .describe('Container image, e.g. 123456789012.dkr.ecr.us-west-2.amazonaws.com/my-trainer:1.2.');

/** `python`, `python3`, `python3.12`: an interpreter the training script may be given after. */
const PYTHON = /^python(3(\.\d+)?)?$/;
const baseName = (program: string) => program.slice(program.lastIndexOf('/') + 1);

/**
 * The training script of a custom command, when the command is one: `/data/code/train.py …` or
 * `python3 /data/code/train.py …` (the script and what follows it), else undefined.
 */
export function customScriptOf(command: readonly string[]): { script: string; args: string[] } | undefined {
  const [first, second] = command;
  if (first !== undefined && first.endsWith('.py')) return { script: first, args: command.slice(1) };
  if (first !== undefined && PYTHON.test(baseName(first)) && second?.endsWith('.py'))
    return { script: second, args: command.slice(2) };
  return undefined;
}

/** Whether a custom command starts the HyperPod elastic agent itself. */
export const startsHyperpodrun = (command: readonly string[]): boolean =>
  command[0] !== undefined && baseName(command[0]) === 'hyperpodrun';

export const CustomLaunchSchema = z
  .enum(['hyperpodrun', 'as-is'])
  .describe(
    "hyperpodrun (default): command is your Python training script (a .py path, optionally after python3) and InstantStart starts it on every node through the HyperPod elastic agent — hyperpodrun --nnodes=<nodes> --nproc-per-node=<GPUs> --server-port=8080 --tee=3 --log_dir=/tmp/hyperpod <script> <args> (one process per GPU or NeuronCore); a command that starts with hyperpodrun itself is kept as written. as-is: command runs exactly as written; it (or your entrypoint script) must exec hyperpodrun, or the training operator's process restarts and log-monitoring rules do nothing.",
  );

export const CustomContainerSchema = z
  .object({
    image: ImageSchema.describe(
      "Container image, e.g. 123456789012.dkr.ecr.us-west-2.amazonaws.com/my-trainer:1.2. It must contain the HyperPod elastic agent (pip install hyperpod-elastic-agent: the hyperpodrun command): the training operator's process restarts and log-monitoring rules work only through it; without it a hang goes unnoticed and a crash recreates every pod.",
    ),
    command: z
      .array(z.string().max(4096))
      .min(1)
      .max(64)
      .describe(
        'Your training script and its arguments, e.g. ["/data/code/train.py", "--epochs", "3"] (or ["python3", "/data/code/train.py"]), started through hyperpodrun; or ["hyperpodrun", …] as you want it; or, with launch as-is, any program (which must exec hyperpodrun itself).',
      ),
    args: z.array(z.string().max(4096)).max(256).default([]).describe('More arguments after command.'),
    launch: CustomLaunchSchema.default('hyperpodrun'),
    env: EnvListSchema.default([]),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.launch !== 'hyperpodrun' || startsHyperpodrun(c.command) || customScriptOf(c.command)) return;
    const program = baseName(c.command[0] ?? '');
    const torchrun = program === 'torchrun' || (PYTHON.test(program) && c.command.includes('torch.distributed.run'));
    ctx.addIssue({
      code: 'custom',
      path: ['command'],
      message: torchrun
        ? 'starts torchrun, which has no HyperPod elastic agent: give your training script instead (e.g. ["/data/code/train.py", …]) and it is started through hyperpodrun, the torchrun-compatible launcher the training operator needs — or start hyperpodrun yourself'
        : 'must be your Python training script (a .py path, optionally after python3), started on every node through hyperpodrun, or start with hyperpodrun; to run another program set launch to as-is (it must then exec hyperpodrun itself, or restarts and log rules do nothing)',
    });
  })
  .describe(
    "Your own container, run as a HyperPodPyTorchJob with the same placement, storage and fault tolerance as a recipe. Its image must contain the HyperPod elastic agent (pip package hyperpod-elastic-agent, the hyperpodrun launcher): without it the training operator's restarts and log rules do nothing.",
  );
export type CustomContainer = z.output<typeof CustomContainerSchema>;

export const MlflowLinkSchema = z
  .object({
    trackingServerArn: MlflowTrackingServerArnSchema,
    experimentName: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .describe('MLflow experiment (MLFLOW_EXPERIMENT_NAME); default: the job name.'),
  })
  .strict()
  .describe(
    'Report metrics to a SageMaker managed MLflow tracking server: MLFLOW_TRACKING_URI is its ARN, the run is named after the job. The image needs mlflow and sagemaker-mlflow; the pods need permission to log (docs/TRAINING.md → MLflow).',
  );

export const TemplateNameSchema = z
  .string('must be a template name')
  .min(1)
  .max(63)
  .regex(DNS_LABEL, 'must be lower-case letters, digits and hyphens, starting with a letter')
  .describe('Template name, unique per cluster.');

export const SubmitTrainingJobShape = z
  .object({
    region: RegionSchema.optional().describe("AWS Region of the cluster; defaults to the server's region."),
    name: TrainingJobNameSchema,
    namespace: StorageNamespaceSchema.default('default').describe(
      "Namespace the job runs in; the storage's claim must be in it. Default: default.",
    ),
    recipe: RecipeIdSchema.optional().describe('The recipe to run (give params); or give custom instead.'),
    params: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        "The recipe's parameters, as its schema in list_recipes describes them (model path, dataset, epochs, learning rate, …).",
      ),
    custom: CustomContainerSchema.optional(),
    image: ImageSchema.optional().describe("Replace the recipe's pinned image (same framework, your build or mirror)."),
    instanceGroup: InstanceGroupNameSchema.describe(
      'The instance group the pods run on; GPUs, Neuron devices and EFA per pod follow from its instance type.',
    ),
    nodes: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(1)
      .describe(
        'Nodes (one pod each) the job starts on. With elastic: the starting size, within minReplicas..maxReplicas.',
      ),
    storage: StorageNameSchema.describe(
      'The storage mounted at /data in every pod (its claim in namespace): datasets, models, checkpoints and outputs live there.',
    ),
    faultTolerance: FaultToleranceSchema.optional().describe(
      'Recovery budget, restart escalation and log-monitoring rules. Default: 10 restarts, 3 process restarts before a full-job restart, 1 full-job restart per 6 h, no log rules.',
    ),
    elastic: ElasticSchema.optional(),
    checkpointless: z
      .boolean()
      .default(false)
      .describe(
        "HyperPod checkpointless training (recovery from peers' memory; needs a checkpointless-ready image). Not with elastic or managed tiered checkpointing.",
      ),
    mlflow: MlflowLinkSchema.optional(),
    env: EnvListSchema.default([]),
    saveAsTemplate: z
      .object({
        name: TemplateNameSchema,
        description: z.string().max(1024).optional().describe('What the template is for.'),
      })
      .strict()
      .optional()
      .describe('Also save this request as a template of the cluster (re-submit it later with another name).'),
  })
  .strict();

type SubmitChecked = Pick<
  z.output<typeof SubmitTrainingJobShape>,
  'recipe' | 'params' | 'custom' | 'image' | 'elastic' | 'nodes'
>;

/** The rules across fields of a submit request (and of a template's request). */
function checkSubmit(r: SubmitChecked, ctx: z.RefinementCtx): void {
  if ((r.recipe === undefined) === (r.custom === undefined))
    ctx.addIssue({
      code: 'custom',
      path: [r.recipe === undefined ? 'recipe' : 'custom'],
      message: 'give either recipe (with params) or custom, not both and not neither',
    });
  if (r.custom && r.params !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['params'],
      message: 'params belong to a recipe; a custom container takes command, args and env',
    });
  if (r.custom && r.image !== undefined)
    ctx.addIssue({ code: 'custom', path: ['image'], message: 'a custom container names its image in custom.image' });
  if (r.elastic && (r.nodes < r.elastic.minReplicas || r.nodes > r.elastic.maxReplicas))
    ctx.addIssue({
      code: 'custom',
      path: ['nodes'],
      message: `must be within elastic.minReplicas..maxReplicas (${r.elastic.minReplicas}..${r.elastic.maxReplicas})`,
    });
}

export const SubmitTrainingJobRequestSchema = SubmitTrainingJobShape.superRefine(checkSubmit).describe(
  'Submit a training job: a recipe with its parameters, or a custom container, on one instance group, with the storage at /data. Created at once; follow it with get_job and get_job_logs.',
);
export type SubmitTrainingJobRequest = z.output<typeof SubmitTrainingJobRequestSchema>;

// ── job view ─────────────────────────────────────────────────────────────────────────────────────
export const TrainingPhaseSchema = z
  .enum(['Pending', 'Running', 'Restarting', 'Hanging', 'Slow', 'Suspended', 'Succeeded', 'Failed'])
  .describe(
    'Pending: waiting for pods or the Ray cluster. Running. Restarting: recovering from a fault. Hanging / Slow: a log-monitoring rule fired (reason LogStateHanging_<rule> / LogStateSlow_<rule>). Suspended. Succeeded. Failed (reason says why, e.g. the recovery budget ran out).',
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
        "Global rank of the pod (node rank): its replica index counted across replica specs in order; Ray: head 0, workers after, then the submitter (role submitter: the driver's output, where a RayJob's step lines are).",
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
        "Why pods of the job wait for a node, read from the cluster (get only): a GPU/EFA/Neuron resource no node advertises (its device plugin is not running), or the scheduler's reason.",
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

export const TrainingJobListQuerySchema = z
  .object({
    region: RegionSchema.optional(),
    namespace: StorageNamespaceSchema.optional().describe('Only jobs of this namespace; default all.'),
  })
  .strict();

/** The path parameters of one job. */
export const TrainingJobParamsSchema = z
  .object({ name: ClusterRefSchema, namespace: StorageNamespaceSchema, job: TrainingJobNameSchema })
  .strict();

export const SubmitTrainingJobAnswerSchema = z
  .object({
    job: TrainingJobViewSchema,
    template: z.string().optional().describe('The template saved, when saveAsTemplate was given.'),
  })
  .describe('The job as created.');

// ── logs ─────────────────────────────────────────────────────────────────────────────────────────
export const LogRankSchema = z
  .union([z.literal('all'), z.coerce.number().int().min(0).max(100_000)])
  .default('all')
  .describe('One rank (its number), or all for every rank merged line by line with [rank N] prefixes.');

const logQueryFields = {
  region: RegionSchema.optional(),
  rank: LogRankSchema,
  tailLines: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .optional()
    .describe(
      "Last lines per rank (at most 10 000; default 500; the follow stream continues from there). With grep: the last matching lines, searched in each rank's last 100 000 lines. The download (format=text) is the whole log unless given.",
    ),
  sinceSeconds: z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 86_400)
    .optional()
    .describe('Only lines of the last this many seconds.'),
  limitBytes: z.coerce
    .number()
    .int()
    .min(1024)
    .max(10 * 1024 * 1024)
    .optional()
    .describe(
      "Cap in bytes (default 1 MiB) on each rank's lines and on the whole answer as `[rank N] …` text, all ranks merged; the oldest lines go first. Not with format=text (the download streams every line).",
    ),
  grep: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Only lines containing this text (plain, case-sensitive; not a regular expression).'),
  previous: z
    .enum(['true', 'false'])
    .default('false')
    .describe('true: the previous container run of each pod (what a crashed rank printed before its restart).'),
};

export const TrainingLogsQuerySchema = z
  .object({
    ...logQueryFields,
    format: z
      .enum(['json', 'text'])
      .default('json')
      .describe(
        "json: the capped tail as lines; text: a download (text/plain attachment) of every rank's lines merged by time, each `[rank N] …`, streamed.",
      ),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.format === 'text' && q.limitBytes !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['limitBytes'],
        message:
          'does not go with format=text: the download streams every line; bound it with tailLines or sinceSeconds',
      });
  });
export type TrainingLogsQuery = z.output<typeof TrainingLogsQuerySchema>;

/** The follow WebSocket's query: the tail's options (no download, no previous run: that one is over) and the browser's token. */
export const TrainingLogsFollowQuerySchema = z
  .object({
    ...logQueryFields,
    previous: z
      .literal('false', 'must be false: the previous run is over; read it with GET …/logs?previous=true')
      .default('false')
      .describe('Always false for a follow.'),
    token: z
      .string()
      .max(1024)
      .optional()
      .describe("The API token, for browsers (they cannot set a WebSocket's headers)."),
  })
  .strict();
export type TrainingLogsFollowQuery = z.output<typeof TrainingLogsFollowQuerySchema>;

export const LogLineSchema = z
  .object({
    rank: z.number().int(),
    pod: z.string(),
    time: z.string().optional().describe('RFC 3339 time Kubernetes recorded for the line.'),
    text: z.string(),
  })
  .describe('One log line of one rank.');
export type LogLine = z.infer<typeof LogLineSchema>;

export const TrainingLogsAnswerSchema = z
  .object({
    job: z.string(),
    lines: z.array(LogLineSchema).describe('Oldest first; all ranks merged by time.'),
    truncated: z.boolean().describe('True when tailLines or limitBytes cut older lines off.'),
    ranks: z
      .array(z.object({ rank: z.number().int(), pod: z.string(), error: z.string().optional() }))
      .describe('The ranks read, with why one could not be (e.g. not started yet).'),
  })
  .describe("The tail of a job's logs. Follow live over the WebSocket at the logsFollow path.");
export type TrainingLogsAnswer = z.infer<typeof TrainingLogsAnswerSchema>;

/**
 * What the follow WebSocket sends, one JSON message each: the capped tail first (`line`s), then
 * `tail-end`, then new lines as they come. A client that does not keep up is sent `dropped` and
 * closed (the server never buffers without bound); reconnect with sinceSeconds to resume.
 */
export const LogStreamMessageSchema = z.discriminatedUnion('type', [
  LogLineSchema.extend({ type: z.literal('line') }),
  z.object({ type: z.literal('tail-end'), ranks: z.array(z.object({ rank: z.number().int(), pod: z.string() })) }),
  z.object({ type: z.literal('rank-ended'), rank: z.number().int(), pod: z.string(), reason: z.string() }),
  z.object({ type: z.literal('rank-started'), rank: z.number().int(), pod: z.string() }),
  z.object({ type: z.literal('dropped'), reason: z.string() }),
  z.object({ type: z.literal('error'), message: z.string() }),
]);
export type LogStreamMessage = z.infer<typeof LogStreamMessageSchema>;

// ── metrics ──────────────────────────────────────────────────────────────────────────────────────
export const TrainingMetricsQuerySchema = z
  .object({
    region: RegionSchema.optional(),
    metrics: z
      .string()
      .regex(/^[A-Za-z0-9_./\- ]+(,[A-Za-z0-9_./\- ]+)*$/, 'must be metric names separated by commas')
      .optional()
      .describe(
        'Comma-separated metric names; default loss, throughput, learning_rate (what the recipes report to MLflow).',
      ),
    maxPoints: z.coerce
      .number()
      .int()
      .min(10)
      .max(100_000)
      .default(5000)
      .describe('At most this many points per series (evenly thinned, last point kept).'),
  })
  .strict();

export const MetricPointSchema = z.object({
  step: z.number().int(),
  value: z.number(),
  timestamp: z.number().int().describe('Milliseconds since the epoch, as MLflow records it.'),
});

export const TrainingMetricsAnswerSchema = z
  .object({
    job: z.string(),
    source: z
      .enum(['mlflow', 'none'])
      .describe("mlflow: read from the job's MLflow run; none: the job reports to no tracking server."),
    trackingServerArn: z.string().optional(),
    runId: z.string().optional().describe('The MLflow run (named after the job).'),
    series: z
      .array(z.object({ metric: z.string(), points: z.array(MetricPointSchema).describe('By step.') }))
      .describe('One series per metric.'),
  })
  .describe("A job's metric history: throughput, loss, learning rate per step.");
export type TrainingMetricsAnswer = z.infer<typeof TrainingMetricsAnswerSchema>;

// ── recipes and templates ────────────────────────────────────────────────────────────────────────
export const RecipeViewSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    kind: TrainingKindSchema,
    image: z.object({ default: z.string(), source: z.string().describe('Where the pinned image comes from.') }),
    parameters: z
      .record(z.string(), z.unknown())
      .describe('JSON Schema of params (each field described, defaults given): what a form is generated from.'),
  })
  .describe('A recipe of the catalogue.');
export type RecipeView = z.infer<typeof RecipeViewSchema>;

export const RecipeListSchema = z.object({ recipes: z.array(RecipeViewSchema) });

export const TrainingTemplateRequestSchema = SubmitTrainingJobShape.omit({
  name: true,
  region: true,
  saveAsTemplate: true,
})
  .superRefine(checkSubmit)
  .describe('The submit request the template stands for, without the job name.');

export const SaveTrainingTemplateRequestSchema = z
  .object({
    region: RegionSchema.optional(),
    description: z.string().max(1024).optional().describe('What the template is for.'),
    request: TrainingTemplateRequestSchema,
  })
  .strict();

export const TrainingTemplateSchema = z
  .object({
    name: TemplateNameSchema,
    cluster: z.string(),
    description: z.string().optional(),
    request: TrainingTemplateRequestSchema.describe(
      'The saved submit request without name (re-submit it with a new name).',
    ),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .describe('A saved job request of one cluster.');
export type TrainingTemplate = z.infer<typeof TrainingTemplateSchema>;

export const TrainingTemplateListSchema = z.object({ cluster: z.string(), templates: z.array(TrainingTemplateSchema) });

// ── re-submit, delete, a cluster's MLflow default ─────────────────────────────────────────────────
export const ResubmitTrainingJobRequestSchema = z
  .object({
    region: RegionSchema.optional(),
    name: TrainingJobNameSchema.describe("The new job's name (the old job keeps its own)."),
  })
  .strict()
  .describe(
    'Run a job again under a new name, from the request it was submitted with (the same recipe, parameters, group, storage, fault tolerance and MLflow).',
  );

export const DeleteTrainingJobQuerySchema = z
  .object({
    region: RegionSchema.optional(),
    confirm: z
      .literal('true', 'must be true: deleting a job stops its pods (its checkpoints and outputs under /data stay)')
      .describe(
        'Must be "true": the job and its pods are deleted (a RayJob\'s Ray cluster too); /data/checkpoints/<job> and /data/outputs/<job> stay.',
      ),
  })
  .strict();

export const DeleteTrainingJobAnswerSchema = z
  .object({
    job: z.string(),
    namespace: z.string(),
    kind: TrainingKindSchema,
    deleted: z.boolean().describe('False when it was already gone.'),
  })
  .describe('The job deleted.');

export const ClusterMlflowSchema = z
  .object({
    cluster: z.string(),
    region: z.string(),
    trackingServerArn: z
      .string()
      .nullable()
      .describe("The tracking server the cluster's jobs report to when a submit names none; null: none."),
  })
  .describe("A cluster's default MLflow tracking server.");
