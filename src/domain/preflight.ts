import type { z } from 'zod';
import {
  chooseKubernetesVersion,
  compareKubernetesVersions,
  HYPERPOD_KUBERNETES_SUPPORT,
  hyperPodKubernetesRange,
  hyperPodSupportsKubernetes,
  usableKubernetesVersions,
  type EksKubernetesVersion,
} from './kubernetes-versions.js';
import type {
  AvailabilityZoneViewSchema,
  PreflightProblem,
  QuotaCheckResult,
  RegionViewSchema,
  TrainingPlanView,
} from './schemas/preflight.js';

/**
 * "Check before create", as pure rules: given a request and the facts AWS told us (zones, where the
 * instance type is offered, quota values, what existing HyperPod clusters use, the training plan),
 * list every reason the create would fail — each naming the field, an AWS-like code, the numbers and
 * the fix. No I/O here: src/workflows/preflight.ts gathers the facts, this decides.
 */

type QuotaFinding = QuotaCheckResult['quotas'][number];
/** A Region as the REST API and MCP tools show it. */
export type RegionView = z.infer<typeof RegionViewSchema>;
/** An Availability Zone as the REST API and MCP tools show it. */
export type AvailabilityZoneView = z.infer<typeof AvailabilityZoneViewSchema>;

/** Service Quotas' service code of SageMaker, which holds the HyperPod quotas. */
export const HYPERPOD_QUOTA_SERVICE_CODE = 'sagemaker';

/**
 * The names of the account-level quotas SageMaker HyperPod enforces. These are names to look up in
 * Service Quotas (values and codes always come from the API), not a list of what AWS offers.
 */
export const HYPERPOD_QUOTA_NAMES = {
  totalInstances: 'Total number of instances allowed across SageMaker HyperPod clusters',
  instancesPerCluster: 'Maximum number of instances allowed per SageMaker HyperPod cluster',
} as const;

const CLUSTER_USAGE = / for cluster usage$/;

/** `ml.p5.48xlarge` → `ml.p5.48xlarge for cluster usage`, the per-type HyperPod quota. */
export function clusterUsageQuotaName(instanceType: string): string {
  return `${instanceType} for cluster usage`;
}

/** The HyperPod instance type a quota name is about, or undefined when it is not a cluster-usage quota. */
export function instanceTypeFromClusterUsageQuota(quotaName: string): string | undefined {
  const type = quotaName.replace(CLUSTER_USAGE, '');
  return type !== quotaName && /^ml\.[a-z0-9-]+\.[a-z0-9]+$/.test(type) ? type : undefined;
}

/** The managed cluster `<name>` runs its control plane on the EKS cluster `<name>-eks` (naming.ts decides). */
export { eksClusterNameFor as managedEksClusterName } from './naming.js';

/** One quota as Service Quotas reports it in a Region. */
export interface QuotaFact {
  serviceCode: string;
  quotaName: string;
  quotaCode?: string;
  value: number;
}

/** The HyperPod quotas relevant to a request; a missing one is not enforced (the account does not have it). */
export interface HyperPodQuotaFacts {
  clusterUsage?: QuotaFact;
  totalInstances?: QuotaFact;
  instancesPerCluster?: QuotaFact;
}

/** Instances existing HyperPod clusters of the Region hold, per `ml.*` type and in all. */
export interface HyperPodUsage {
  byType: Record<string, number>;
  total: number;
}

/** One reserved capacity of a training plan. */
export interface ReservedCapacityFact {
  instanceType: string;
  instanceCount: number;
  availabilityZone?: string;
  status?: string;
}

/** A training plan with each of its reserved capacities (the view shows only the common type and zone). */
export interface TrainingPlanFacts extends TrainingPlanView {
  reservedCapacities: ReservedCapacityFact[];
}

/** The decision-relevant part of a quota check or a create-cluster request. */
export interface PreflightRequest {
  region: string;
  instanceType: string;
  instanceCount: number;
  capacityType: 'on-demand' | 'spot' | 'training-plan';
  trainingPlanArn?: string;
  availabilityZone?: string;
  /** Set for a create-cluster check: the cluster name must be free. */
  name?: string;
  /**
   * Instances the cluster already holds, for a change of an existing cluster (a scale); `instanceCount`
   * is then what the change adds. A new cluster starts empty (0).
   */
  clusterInUse?: number;
  /** For a create-cluster check: the Kubernetes version asked for (absent: the default is chosen). */
  kubernetesVersion?: string;
  /** EFA interfaces for the group (EFA-capable types only). */
  networkInterface?: 'efa' | 'efa-only';
}

/** What AWS says about the requested type in the Region; absent when HyperPod does not offer it there. */
export interface InstanceTypeFacts {
  availabilityZones: string[];
  spotSupported: boolean;
  /** Whether EC2 says the type supports EFA; absent = not known (not checked). */
  efaSupported?: boolean;
}

export interface PreflightFacts {
  /** Zone names of the Region (EC2 DescribeAvailabilityZones); absent = not checked. */
  zones?: string[];
  instanceType?: InstanceTypeFacts;
  quotas: HyperPodQuotaFacts;
  usage: HyperPodUsage;
  /** The training plan the request names; absent when none is named or it does not exist. */
  trainingPlan?: TrainingPlanFacts;
  /** Names already taken, for a create-cluster check. */
  existing?: { hyperPodCluster: boolean; eksCluster?: string };
  /** The Kubernetes versions EKS offers in the Region, for a create-cluster check; absent = not checked. */
  kubernetesVersions?: EksKubernetesVersion[];
}

/**
 * Evaluates a request against gathered facts: ok only when nothing would make the create fail.
 *
 * @example
 * const result = evaluatePreflight(
 *   { region: 'us-west-2', instanceType: 'ml.p5.48xlarge', instanceCount: 4, capacityType: 'on-demand',
 * availabilityZone: 'us-west-2b' },
 *   { zones: ['us-west-2a', 'us-west-2b'], instanceType: { availabilityZones: ['us-west-2b'], spotSupported: false },
 *     quotas: { clusterUsage: { serviceCode: 'sagemaker', quotaName: 'ml.p5.48xlarge for cluster usage', quotaCode:
 * 'L-1', value: 0 } },
 *     usage: { byType: {}, total: 0 } },
 * );
 * // result.ok === false; result.problems[0].code === 'QuotaExceeded', with the increase command as remedy
 */
export function evaluatePreflight(req: PreflightRequest, facts: PreflightFacts): QuotaCheckResult {
  const quotas = [
    quotaFinding(req, facts.quotas.clusterUsage, facts.usage.byType[req.instanceType] ?? 0),
    quotaFinding(req, facts.quotas.totalInstances, facts.usage.total),
    // A new cluster starts empty, so there the per-cluster limit only has to hold the request itself.
    quotaFinding(req, facts.quotas.instancesPerCluster, req.clusterInUse ?? 0),
  ].filter((q): q is QuotaFinding => q !== undefined);
  const problems: PreflightProblem[] = [
    ...nameProblems(req, facts),
    ...zoneProblems(req, facts),
    ...instanceTypeProblems(req, facts),
    ...trainingPlanProblems(req, facts.trainingPlan),
    ...quotas.filter((q) => !q.ok).map((q) => quotaProblem(req, q)),
    ...kubernetesVersionProblems(req, facts.kubernetesVersions),
  ];
  const version = facts.kubernetesVersions
    ? (req.kubernetesVersion ?? chooseKubernetesVersion(facts.kubernetesVersions))
    : undefined;
  return {
    ok: problems.length === 0,
    quotas,
    problems,
    ...(version && problems.every((p) => p.field !== 'kubernetesVersion') ? { kubernetesVersion: version } : {}),
  };
}

/**
 * The version asked for must be one EKS offers in the Region (HyperPod's range the request schema
 * checked already, before any AWS call); with none asked, EKS must offer one HyperPod supports.
 */
function kubernetesVersionProblems(
  req: PreflightRequest,
  offered: EksKubernetesVersion[] | undefined,
): PreflightProblem[] {
  if (!offered) return [];
  const usable = usableKubernetesVersions(offered).map((v) => v.version);
  const listing = `list_kubernetes_versions / GET /api/v1/kubernetes-versions?region=${req.region}`;
  const eksOffers = offered
    .filter((v) => v.status !== 'UNSUPPORTED')
    .map((v) => v.version)
    .sort(compareKubernetesVersions);
  if (req.kubernetesVersion === undefined) {
    if (usable.length > 0) return [];
    return [
      {
        field: 'region',
        code: 'NoSupportedKubernetesVersion',
        message: `EKS offers Kubernetes ${eksOffers.join(', ') || 'no version'} in ${req.region}; SageMaker HyperPod supports ${hyperPodKubernetesRange()}: no version fits both.`,
        remedy: `Create the cluster in another Region (${listing}).`,
      },
    ];
  }
  if (usable.includes(req.kubernetesVersion)) return [];
  const outOfRange = kubernetesVersionRangeProblem(req);
  if (outOfRange) return [outOfRange];
  return [
    {
      field: 'kubernetesVersion',
      code: 'KubernetesVersionNotOffered',
      message: `EKS does not offer Kubernetes ${req.kubernetesVersion} for new clusters in ${req.region} (it offers ${eksOffers.join(', ') || 'none'}).`,
      remedy: usable.length
        ? `Use one both support (${usable.join(', ')}), or leave kubernetesVersion out for ${chooseKubernetesVersion(offered)} (${listing}).`
        : `No version fits both in ${req.region}; create the cluster in another Region (${listing}).`,
    },
  ];
}

/**
 * A version SageMaker HyperPod does not support, decided from HyperPod's documented range alone — no
 * AWS call needed, so a create refuses it before anything else (ClusterService.create).
 *
 * @example
 * kubernetesVersionRangeProblem({ kubernetesVersion: '1.35' })?.message
 * // "SageMaker HyperPod does not support Kubernetes 1.35; it supports 1.28 to 1.34 (1.28, …, 1.34)."
 */
export function kubernetesVersionRangeProblem(req: {
  kubernetesVersion?: string | undefined;
}): PreflightProblem | undefined {
  if (req.kubernetesVersion === undefined || hyperPodSupportsKubernetes(req.kubernetesVersion)) return undefined;
  return {
    field: 'kubernetesVersion',
    code: 'KubernetesVersionNotSupported',
    message:
      `SageMaker HyperPod does not support Kubernetes ${req.kubernetesVersion}; it supports ${hyperPodKubernetesRange()} ` +
      `(${HYPERPOD_KUBERNETES_SUPPORT.versions.join(', ')}, as AWS documents it: ${HYPERPOD_KUBERNETES_SUPPORT.sources[0]}).`,
    remedy:
      'Use one of those that EKS offers in the Region (list_kubernetes_versions / GET /api/v1/kubernetes-versions), or leave kubernetesVersion out for the default.',
  };
}

/**
 * How to raise a quota, as a sentence and the CLI command that does it.
 *
 * @example
 * quotaIncreaseRemedy({ serviceCode: 'sagemaker', quotaName: 'ml.p5.48xlarge for cluster usage', quotaCode: 'L-1',
 * value: 0 }, 6, 'us-west-2')
 * // "Request an increase of 'ml.p5.48xlarge for cluster usage' (L-1) to at least 6 in Service Quotas: aws
 * service-quotas …"
 */
export function quotaIncreaseRemedy(quota: QuotaFact, desired: number, region: string): string {
  const where = `Request an increase of '${quota.quotaName}'${quota.quotaCode ? ` (${quota.quotaCode})` : ''} to at least ${desired} in Service Quotas`;
  if (!quota.quotaCode) return `${where} (console: Service Quotas → ${quota.serviceCode}, Region ${region}).`;
  return (
    `${where}: aws service-quotas request-service-quota-increase --service-code ${quota.serviceCode} ` +
    `--quota-code ${quota.quotaCode} --desired-value ${desired} --region ${region}`
  );
}

function quotaFinding(req: PreflightRequest, quota: QuotaFact | undefined, inUse: number): QuotaFinding | undefined {
  if (!quota) return undefined;
  const requested = req.instanceCount;
  const ok = inUse + requested <= quota.value;
  return {
    quotaName: quota.quotaName,
    ...(quota.quotaCode ? { quotaCode: quota.quotaCode } : {}),
    serviceCode: quota.serviceCode,
    value: quota.value,
    inUse,
    requested,
    ok,
    ...(ok ? {} : { remedy: quotaIncreaseRemedy(quota, inUse + requested, req.region) }),
  };
}

function quotaProblem(req: PreflightRequest, q: QuotaFinding): PreflightProblem {
  return {
    field: 'instanceCount',
    code: 'QuotaExceeded',
    message:
      `The quota '${q.quotaName}' is ${q.value} in ${req.region}; existing HyperPod clusters use ${q.inUse} and this request adds ${q.requested}, ` +
      `${q.inUse + q.requested} in all.`,
    ...(q.remedy ? { remedy: `${q.remedy} (or ask for fewer instances).` } : {}),
  };
}

function nameProblems(req: PreflightRequest, facts: PreflightFacts): PreflightProblem[] {
  if (!req.name || !facts.existing) return [];
  const remedy = `Choose another name, or work with the existing cluster (list_clusters / GET /api/v1/clusters).`;
  const out: PreflightProblem[] = [];
  if (facts.existing.hyperPodCluster) {
    out.push({
      field: 'name',
      code: 'ClusterExists',
      message: `A SageMaker HyperPod cluster named '${req.name}' already exists in ${req.region}.`,
      remedy,
    });
  }
  if (facts.existing.eksCluster) {
    out.push({
      field: 'name',
      code: 'ClusterExists',
      message: `An EKS cluster named '${facts.existing.eksCluster}' already exists in ${req.region}; cluster '${req.name}' needs that name for its EKS control plane.`,
      remedy,
    });
  }
  return out;
}

function zoneProblems(req: PreflightRequest, facts: PreflightFacts): PreflightProblem[] {
  if (!req.availabilityZone || !facts.zones || facts.zones.includes(req.availabilityZone)) return [];
  return [
    {
      field: 'availabilityZone',
      code: 'InvalidAvailabilityZone',
      message: `${req.availabilityZone} is not an available Availability Zone of ${req.region}.`,
      remedy: `Choose one of ${facts.zones.join(', ')} (list_availability_zones / GET /api/v1/availability-zones?region=${req.region}).`,
    },
  ];
}

function instanceTypeProblems(req: PreflightRequest, facts: PreflightFacts): PreflightProblem[] {
  const t = facts.instanceType;
  const listing = `list_instance_types / GET /api/v1/instance-types?region=${req.region}`;
  if (!t || t.availabilityZones.length === 0) {
    return [
      {
        field: 'instanceType',
        code: 'InstanceTypeNotOffered',
        message: `${req.instanceType} is not offered for SageMaker HyperPod in ${req.region}.`,
        remedy: `Choose an instance type offered in ${req.region} (${listing}), or another Region.`,
      },
    ];
  }
  const out: PreflightProblem[] = [];
  // A zone that does not exist is reported once, as a zone problem, not again as "type not offered there".
  const zoneExists = !facts.zones || (req.availabilityZone !== undefined && facts.zones.includes(req.availabilityZone));
  if (req.availabilityZone && zoneExists && !t.availabilityZones.includes(req.availabilityZone)) {
    out.push({
      field: 'instanceType',
      code: 'InstanceTypeNotOffered',
      message: `${req.instanceType} is not offered in ${req.availabilityZone}; in ${req.region} it is offered in ${t.availabilityZones.join(', ')}.`,
      remedy: `Use availabilityZone ${t.availabilityZones.join(' or ')}, or an instance type offered in ${req.availabilityZone} (${listing}&availabilityZone=${req.availabilityZone}).`,
    });
  }
  if (req.capacityType === 'spot' && !t.spotSupported) {
    out.push({
      field: 'capacityType',
      code: 'SpotNotSupported',
      message: `${req.instanceType} cannot run on spot capacity (EC2 does not list 'spot' among its supported usage classes).`,
      remedy: `Use capacityType on-demand or training-plan for ${req.instanceType}, or a type whose spotSupported is true (${listing}).`,
    });
  }
  if (req.networkInterface && t.efaSupported === false) {
    out.push({
      field: 'networkInterface',
      code: 'EfaNotSupported',
      message: `${req.instanceType} does not support EFA, so networkInterface '${req.networkInterface}' is not available.`,
      remedy: `Leave networkInterface out (ENA only), or choose a type whose efaSupported is true (${listing}).`,
    });
  }
  return out;
}

/** `arn:aws:sagemaker:us-west-2:123456789012:training-plan/h100-week` → its Region and name. */
export function parseTrainingPlanArn(arn: string): { region: string; name: string } | undefined {
  const m = /^arn:aws[a-z-]*:sagemaker:([a-z0-9-]+):\d{12}:training-plan\/(.+)$/.exec(arn);
  return m ? { region: m[1]!, name: m[2]! } : undefined;
}

/** Plans HyperPod can place instances on: paid for and not yet over. */
const USABLE_PLAN_STATUSES = ['Scheduled', 'Active'];

function trainingPlanProblems(req: PreflightRequest, plan: TrainingPlanFacts | undefined): PreflightProblem[] {
  const field = 'trainingPlanArn';
  const plans = `list_training_plans / GET /api/v1/training-plans?region=${req.region}`;
  if (req.capacityType !== 'training-plan') {
    return req.trainingPlanArn
      ? [
          {
            field,
            code: 'InvalidParameterCombination',
            message: `A training plan is only used with capacityType training-plan (got ${req.capacityType}).`,
            remedy: 'Set capacityType to training-plan, or leave trainingPlanArn out.',
          },
        ]
      : [];
  }
  if (!req.trainingPlanArn) {
    return [
      {
        field,
        code: 'MissingParameter',
        message: 'capacityType training-plan needs the ARN of the training plan to use.',
        remedy: `Pick a plan from ${plans}.`,
      },
    ];
  }
  const planRegion = parseTrainingPlanArn(req.trainingPlanArn)?.region;
  if (planRegion && planRegion !== req.region) {
    return [
      {
        field,
        code: 'TrainingPlanMismatch',
        message: `The training plan ${req.trainingPlanArn} is in ${planRegion}; a cluster in ${req.region} can only use plans of ${req.region}.`,
        remedy: `Create the cluster in ${planRegion}, or use a plan of ${req.region} (${plans}).`,
      },
    ];
  }
  if (!plan) {
    return [
      {
        field,
        code: 'TrainingPlanNotFound',
        message: `The training plan ${req.trainingPlanArn} does not exist in ${req.region}.`,
        remedy: `Pick a plan from ${plans}.`,
      },
    ];
  }
  const out: PreflightProblem[] = [];
  const mismatch = (message: string, remedy: string) =>
    out.push({ field, code: 'TrainingPlanMismatch', message: `Training plan '${plan.name}' ${message}`, remedy });
  if (!USABLE_PLAN_STATUSES.includes(plan.status)) {
    out.push({
      field,
      code: 'TrainingPlanNotUsable',
      message: `Training plan '${plan.name}' is ${plan.status}; HyperPod can only use a plan that is ${USABLE_PLAN_STATUSES.join(' or ')}.`,
      remedy:
        plan.status === 'Pending'
          ? 'Wait until the plan is Scheduled (payment takes a few minutes), then check again.'
          : `Buy a new plan (SearchTrainingPlanOfferings, CreateTrainingPlan) or use on-demand capacity.`,
    });
  }
  if (!plan.targetResources.includes('hyperpod-cluster')) {
    mismatch(
      `reserves capacity for ${plan.targetResources.join(', ') || 'no target'}, not for hyperpod-cluster.`,
      'Use a plan bought with TargetResources hyperpod-cluster.',
    );
  }
  const ofType = plan.reservedCapacities.filter((c) => c.instanceType === req.instanceType);
  if (ofType.length === 0) {
    const types = [...new Set(plan.reservedCapacities.map((c) => c.instanceType))];
    mismatch(
      `reserves ${types.join(', ') || 'no instances'}, not ${req.instanceType}.`,
      `Use instanceType ${types.join(' or ')} with this plan, or a plan that reserves ${req.instanceType}.`,
    );
  } else {
    const zones = [...new Set(ofType.map((c) => c.availabilityZone).filter((z): z is string => z !== undefined))];
    if (req.availabilityZone && zones.length > 0 && !zones.includes(req.availabilityZone)) {
      mismatch(
        `reserves ${req.instanceType} in ${zones.join(', ')}, not in ${req.availabilityZone}.`,
        `Use availabilityZone ${zones.join(' or ')}.`,
      );
    }
  }
  const available = plan.availableInstanceCount ?? 0;
  // An Expired or Failed plan has nothing left to give; its status problem already says so.
  if (!['Expired', 'Failed'].includes(plan.status) && available < req.instanceCount) {
    out.push({
      field: 'instanceCount',
      code: 'TrainingPlanCapacityExceeded',
      message: `Training plan '${plan.name}' has ${available} of ${plan.totalInstanceCount ?? available} instances available (${plan.inUseInstanceCount ?? 0} in use); this request needs ${req.instanceCount}.`,
      remedy: `Ask for at most ${available} instances, or buy more reserved capacity (${plans}).`,
    });
  }
  return out;
}

/** The TrainingPlanView subset of a plan's facts (what the REST API and MCP tools show). */
export function trainingPlanView(plan: TrainingPlanFacts): TrainingPlanView {
  const { reservedCapacities: _omit, ...view } = plan;
  return view;
}
