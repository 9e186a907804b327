import type { z } from 'zod';
import { chooseKubernetesVersion } from './kubernetes-versions.js';
import type { PreflightFacts, PreflightRequest } from './preflight-facts.js';
import { kubernetesVersionProblems } from './preflight-kubernetes.js';
import { quotaFinding, quotaProblem, type QuotaFinding } from './preflight-quotas.js';
import { trainingPlanProblems } from './preflight-training-plan.js';
import type {
  AvailabilityZoneViewSchema,
  PreflightProblem,
  QuotaCheckResult,
  RegionViewSchema,
} from './schemas/preflight.js';

/**
 * "Check before create", as pure rules: given a request and the facts AWS told us (zones, where the
 * instance type is offered, quota values, what existing HyperPod clusters use, the training plan),
 * list every reason the create would fail — each naming the field, an AWS-like code, the numbers and
 * the fix. No I/O here: src/capabilities/catalog/service.ts gathers the facts, this decides.
 *
 * The rules of the name, the zone and the instance type are here; those of quotas, Kubernetes versions
 * and training plans are in preflight-quotas.ts, preflight-kubernetes.ts and preflight-training-plan.ts,
 * and the request and facts they all read in preflight-facts.ts.
 */

/** A Region as the REST API and MCP tools show it. */
export type RegionView = z.infer<typeof RegionViewSchema>;
/** An Availability Zone as the REST API and MCP tools show it. */
export type AvailabilityZoneView = z.infer<typeof AvailabilityZoneViewSchema>;

/** The managed cluster `<name>` runs its control plane on the EKS cluster `<name>-eks` (naming.ts decides). */
export { eksClusterNameFor as managedEksClusterName } from './naming.js';

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
