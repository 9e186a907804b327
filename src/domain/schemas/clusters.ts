import { z } from 'zod';
import { ClusterHealthSchema } from '../cluster-health.js';
import { hyperPodKubernetesRange } from '../kubernetes-versions.js';
import {
  AvailabilityZoneSchema,
  CapacityTypeSchema,
  ClusterNameSchema,
  ClusterRefSchema,
  InstanceTypeSchema,
  RegionSchema,
  TrainingPlanArnSchema,
} from './common.js';

/**
 * Create-cluster input asks only the decision-relevant questions (SPEC: zone, instance type,
 * capacity type, count, storage). CIDRs, routes, security groups and roles are ours.
 */
export const StorageRequestSchema = z
  .object({
    s3: z
      .boolean()
      .default(true)
      .describe(
        'Create a shared S3 bucket mounted in pods through the Mountpoint for Amazon S3 CSI driver (PV + PVC).',
      ),
    fsxLustre: z
      .object({
        storageCapacityGiB: z
          .number()
          .int()
          .min(1200, 'must be at least 1200 GiB')
          .max(100800)
          .refine(
            (n) => n === 1200 || n % 2400 === 0,
            'must be 1200 GiB or a multiple of 2400 GiB (FSx for Lustre SSD sizes)',
          )
          .default(1200)
          .describe('FSx for Lustre capacity in GiB: 1200, 2400, 4800, … (1200 or multiples of 2400).'),
      })
      .strict()
      .optional()
      .describe('Also create an FSx for Lustre file system in the compute zone, mounted through the FSx CSI driver.'),
  })
  .strict()
  .describe('Shared storage for the cluster.');

/**
 * The rules across fields of a create (cluster or instance group): a training plan goes with capacity
 * type training-plan and only with it, and the zone lies in the Region. Exported so that a schema
 * spelling the same request with other field names (the MCP tools' `cluster`/`group`) applies them too.
 */
export function checkCapacityAndPlacement(
  req: {
    capacityType: string;
    trainingPlanArn?: string | undefined;
    region?: string | undefined;
    availabilityZone: string;
  },
  ctx: z.RefinementCtx,
): void {
  if (req.capacityType === 'training-plan' && !req.trainingPlanArn) {
    ctx.addIssue({
      code: 'custom',
      path: ['trainingPlanArn'],
      message: 'is required when capacityType is training-plan',
    });
  }
  if (req.capacityType !== 'training-plan' && req.trainingPlanArn) {
    ctx.addIssue({
      code: 'custom',
      path: ['trainingPlanArn'],
      message: 'is only allowed when capacityType is training-plan',
    });
  }
  if (req.region && !req.availabilityZone.startsWith(req.region)) {
    ctx.addIssue({ code: 'custom', path: ['availabilityZone'], message: `is not in region ${req.region}` });
  }
}

/**
 * The EKS control plane's Kubernetes version, as a request spells it. Whether SageMaker HyperPod
 * supports it is a fact about HyperPod, not the request's form: the service checks it before any AWS
 * call (422 naming this field, `kubernetesVersionRangeProblem`), the preflight whether EKS offers it.
 */
export const KubernetesVersionSchema = z
  .string()
  .regex(/^\d+\.\d+$/, 'must look like 1.32')
  .describe(
    `Only when the user asks for a version (list_kubernetes_versions). One SageMaker HyperPod supports (${hyperPodKubernetesRange()}) and EKS offers in the Region ` +
      "(GET /api/v1/kubernetes-versions). Leave it out for the default: EKS's default version when HyperPod supports it, " +
      'else the newest version both support.',
  );

export const CreateClusterRequestSchema = z
  .object({
    name: ClusterNameSchema,
    region: RegionSchema.optional(),
    availabilityZone: AvailabilityZoneSchema,
    instanceType: InstanceTypeSchema,
    capacityType: CapacityTypeSchema.default('on-demand'),
    trainingPlanArn: TrainingPlanArnSchema.optional(),
    instanceCount: z.number().int().min(1, 'must be at least 1').max(1000).describe('Instances in the first group.'),
    networkInterface: z
      .enum(['efa', 'efa-only'])
      .optional()
      .describe(
        "EFA for the first group: efa (with ENA) or efa-only. EFA-capable types only; left out: ENA only; fixed for the group's lifetime.",
      ),
    deepHealthChecks: z
      .boolean()
      .default(false)
      .describe(
        'Deep health checks on new nodes. They run before the nodes take work: GPU stress and EFA connectivity; adds time to node start.',
      ),
    kubernetesVersion: KubernetesVersionSchema.optional(),
    storage: StorageRequestSchema.default({ s3: true }),
  })
  .strict()
  .superRefine(checkCapacityAndPlacement)
  .describe(
    'Create a SageMaker HyperPod cluster on a new Amazon EKS cluster, with its network, roles, dependencies and storage.',
  );
export type CreateClusterRequest = z.output<typeof CreateClusterRequestSchema>;

export const DeleteClusterQuerySchema = z
  .object({
    region: RegionSchema.optional(),
    confirm: z
      .literal('true', 'must be true: deleting a cluster removes its nodes, EKS cluster, network and storage')
      .describe(
        'Must be "true" — deletion removes the nodes, the EKS cluster, the network and (unless keepStorage) the storage.',
      ),
    keepStorage: z
      .enum(['true', 'false'])
      .default('false')
      .describe('"true" keeps the S3 bucket and FSx file system (their data).'),
  })
  .strict();
export type DeleteClusterQuery = z.output<typeof DeleteClusterQuerySchema>;

/** The create-cluster operation's input (what the journal stores): the request with its Region resolved. */
export const CreateClusterInputSchema = CreateClusterRequestSchema.safeExtend({ region: RegionSchema });
export type CreateClusterInput = z.output<typeof CreateClusterInputSchema>;

export const DeletePlanQuerySchema = z
  .object({
    region: RegionSchema.optional(),
    keepStorage: z
      .enum(['true', 'false'])
      .default('false')
      .describe('"true": plan a delete that keeps the cluster\'s buckets and file systems (their data).'),
  })
  .strict();

export const DeletePlanItemSchema = z.object({
  kind: z
    .string()
    .describe(
      'What it is: HyperPod cluster, EKS cluster, S3 bucket, FSx file system, MLflow tracking server, IAM role, VPC, subnet, …',
    ),
  name: z.string().describe('Its name or id, as AWS names it.'),
  reason: z.string().optional().describe('Why it is kept (kept items only).'),
});
export type DeletePlanItem = z.infer<typeof DeletePlanItemSchema>;

export const DeletePlanSchema = z
  .object({
    cluster: z.string(),
    region: z.string(),
    keepStorage: z.boolean(),
    deletes: z
      .array(DeletePlanItemSchema)
      .describe(
        'What the delete removes: the load balancers its Kubernetes Services and Ingresses hold (first, through those objects), the HyperPod and EKS clusters, and every resource tagged instantstart.io/cluster=<name> in S3, SageMaker (MLflow tracking servers), IAM, EC2 and FSx.',
      ),
    keeps: z
      .array(DeletePlanItemSchema)
      .describe(
        'What stays, each with why: storage the user chose to keep (a storage removed keeping its data, or keepStorage), and buckets or file systems the cluster mounts that InstantStart never made.',
      ),
  })
  .describe('What deleting the cluster removes and what it keeps, by name — read before confirming a delete.');
export type DeletePlan = z.infer<typeof DeletePlanSchema>;

/** The delete-cluster operation's input. */
export const DeleteClusterInputSchema = z
  .object({
    name: ClusterRefSchema,
    region: RegionSchema,
    keepStorage: z.boolean().describe('Keep the S3 bucket and FSx file system (their data).'),
    /** What the delete said it removes when it was asked (its plan; absent in operations journaled before plans). */
    deletes: z.array(DeletePlanItemSchema).optional(),
    /** What the delete said it keeps when it was asked: those stay, and verify allows them. */
    keeps: z.array(DeletePlanItemSchema).optional(),
  })
  .strict();
export type DeleteClusterInput = z.output<typeof DeleteClusterInputSchema>;

export const InstanceGroupSummarySchema = z.object({
  name: z.string(),
  instanceType: z.string(),
  currentCount: z.number().int(),
  targetCount: z.number().int(),
  status: z.string().describe('HyperPod instance group status, e.g. InService, Creating, Updating, Failed.'),
  capacityType: CapacityTypeSchema,
  trainingPlanArn: z.string().optional(),
});

export const ClusterSummarySchema = z.object({
  name: z.string(),
  region: z.string(),
  status: z
    .string()
    .describe(
      'HyperPod ClusterStatus (Creating, InService, Updating, Deleting, Failed, RollingBack, SystemUpdating); for a cluster not (or no longer) in HyperPod: Creating/Deleting while an operation works on it, Failed when its create or delete stopped part-way and left resources behind (see failedOperation) — it stays listed until it is deleted.',
    ),
  clusterArn: z.string().optional(),
  eksClusterName: z.string().optional(),
  createdAt: z
    .string()
    .optional()
    .describe(
      "When HyperPod created the cluster, on the cloud's clock (see `cloudTime` of GET /api/v1/config); absent until HyperPod has it.",
    ),
  failureMessage: z.string().optional(),
  managedByInstantStart: z
    .boolean()
    .describe('True when this server created the cluster (its resources carry our tags).'),
  activeOperation: z
    .object({
      id: z.string(),
      kind: z.string(),
      status: z.string(),
      currentPhase: z.string().optional(),
      runningPhases: z
        .array(z.string())
        .optional()
        .describe('The phases working now, side by side (absent when none is).'),
    })
    .optional()
    .describe('The operation now working on this cluster, if any.'),
  failedOperation: z
    .object({
      id: z.string(),
      kind: z.string().describe('create-cluster or delete-cluster.'),
      status: z.string().describe('failed or cancelled.'),
      phase: z.string().optional().describe('The phase it stopped in.'),
      code: z.string().optional(),
      message: z.string().optional(),
      remedy: z.string().describe('What to do: delete the cluster to remove what was made, or retry the failed phase.'),
    })
    .optional()
    .describe(
      'The last create or delete of this cluster, when it failed or was cancelled part-way: what it made is still there (and may cost money) until the cluster is deleted.',
    ),
  health: ClusterHealthSchema.optional().describe(
    'The health of its nodes and instance groups rolled up (failed or degraded nodes, groups short of their target and why) — for a cluster whose nodes can be read (InService, Updating, SystemUpdating, RollingBack); absent otherwise or when they could not be read.',
  ),
});
export type ClusterSummary = z.infer<typeof ClusterSummarySchema>;

/** One shared-storage claim of a cluster, as Kubernetes reports it now. */
export const StorageClaimSchema = z.object({
  claim: z.string().describe('namespace/name of the PersistentVolumeClaim, e.g. default/shared-s3.'),
  store: z.enum(['s3', 'fsx']).describe('What the claim mounts: the S3 bucket (Mountpoint CSI) or FSx for Lustre.'),
  phase: z
    .string()
    .describe(
      "The claim's phase: Bound (pods can mount it), Pending (waiting for its volume), Lost; Missing when the claim does not exist; Unknown when the cluster's Kubernetes API cannot be read.",
    ),
  volumeName: z.string().optional().describe('The PersistentVolume it binds.'),
});
export type StorageClaim = z.infer<typeof StorageClaimSchema>;

export const ClusterDetailSchema = ClusterSummarySchema.extend({
  eks: z
    .object({
      name: z.string(),
      arn: z.string(),
      status: z.string(),
      version: z.string().optional(),
      endpoint: z.string().optional(),
      vpcId: z.string().optional(),
      subnetIds: z.array(z.string()),
    })
    .optional(),
  nodeRecovery: z.string().optional(),
  nodeProvisioningMode: z.string().optional(),
  instanceGroups: z.array(InstanceGroupSummarySchema),
  storage: z
    .object({
      s3Bucket: z.string().optional(),
      persistentVolumeClaim: z.string().optional(),
      fsxFileSystemId: z.string().optional(),
      claims: z
        .array(StorageClaimSchema)
        .optional()
        .describe('The PersistentVolumeClaims jobs mount, one per store, each with its phase read from Kubernetes.'),
    })
    .optional(),
  isActive: z
    .boolean()
    .describe(
      'Whether this is the active cluster: the one the user selected or created last (no call defaults to it).',
    ),
});
export type ClusterDetail = z.infer<typeof ClusterDetailSchema>;

export const ActiveClusterSchema = z.object({
  name: z.string().nullable().describe('The active cluster, or null when none is selected.'),
  region: z.string().nullable(),
});
export const SetActiveClusterRequestSchema = z
  .object({ name: ClusterRefSchema, region: RegionSchema.optional() })
  .strict()
  .describe('Select the cluster the user works with (the web UI and agents read it; no call defaults to it).');
