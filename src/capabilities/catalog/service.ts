import { InputError } from '../../domain/errors.js';
import type { CatalogPort } from './ports.js';
import {
  chooseKubernetesVersion,
  HYPERPOD_KUBERNETES_SUPPORT,
  kubernetesVersionOptions,
} from '../../domain/kubernetes-versions.js';
import { filterInstanceTypes, type InstanceTypeFilter } from '../../domain/instance-types.js';
import { healthAgentRegionProblem } from '../../domain/features/node-agents.js';
import {
  evaluatePreflight,
  managedEksClusterName,
  type AvailabilityZoneView,
  type RegionView,
} from '../../domain/preflight.js';
import type { PreflightFacts, PreflightRequest } from '../../domain/preflight-facts.js';
import type { CreateClusterRequest } from '../../domain/schemas/clusters.js';
import type {
  InstanceTypeView,
  KubernetesVersions,
  QuotaCheckRequest,
  QuotaCheckResult,
  TrainingPlanView,
} from '../../domain/schemas/preflight.js';

/**
 * Check before create. Gathers what AWS says (zones, where the type is offered, quotas, what
 * existing HyperPod clusters use, the training plan, names in use) and lets the pure rules in
 * src/domain/preflight.ts decide. Read-only: it never changes anything in the account.
 *
 * @example
 * const preflight = new PreflightService(new AwsCatalog(clients), 'us-west-2');
 * const result = await preflight.checkQuotas({ instanceType: 'ml.p5.48xlarge', instanceCount: 4, capacityType:
 * 'on-demand' });
 * if (!result.ok) console.log(result.problems.map((p) => `${p.field}: ${p.message} ${p.remedy}`));
 */
export class PreflightService {
  constructor(
    private readonly catalog: CatalogPort,
    private readonly defaultRegion: string,
  ) {}

  /** Regions enabled for the account. */
  regions(): Promise<RegionView[]> {
    return this.catalog.listRegions();
  }

  /** Available Availability Zones of a Region (default: the server's). */
  async availabilityZones(region = this.defaultRegion): Promise<AvailabilityZoneView[]> {
    await this.requireRegion(region);
    return this.catalog.listAvailabilityZones(region);
  }

  /**
   * HyperPod instance types offered in a Region, or in one of its zones, narrowed by `filter`
   * (accelerators only, one family) so that an agent reads the few types it asked about, not all of them.
   * An unknown zone is an InputError.
   */
  async instanceTypes(
    region = this.defaultRegion,
    zone?: string,
    filter: InstanceTypeFilter = {},
  ): Promise<InstanceTypeView[]> {
    await this.requireRegion(region);
    if (zone !== undefined) {
      const zones = (await this.catalog.listAvailabilityZones(region)).map((z) => z.name);
      if (!zones.includes(zone))
        throw InputError.field(
          'availabilityZone',
          `is not an available Availability Zone of ${region}; choose one of ${zones.join(', ')}`,
        );
    }
    return filterInstanceTypes(await this.catalog.listHyperPodInstanceTypes(region, zone), filter);
  }

  /**
   * The Kubernetes versions a new cluster may run in a Region: each version EKS offers or HyperPod
   * supports, which side supports it, and the one create uses by default.
   */
  async kubernetesVersions(region = this.defaultRegion): Promise<KubernetesVersions> {
    await this.requireRegion(region);
    const offered = await this.catalog.listKubernetesVersions(region);
    const { versions, sources, readOn } = HYPERPOD_KUBERNETES_SUPPORT;
    return {
      region,
      defaultVersion: chooseKubernetesVersion(offered) ?? null,
      versions: kubernetesVersionOptions(offered),
      hyperpodSupport: { versions: [...versions], sources: [...sources], readOn },
    };
  }

  /** Training plans of the account in a Region. */
  async trainingPlans(region = this.defaultRegion): Promise<TrainingPlanView[]> {
    await this.requireRegion(region);
    return this.catalog.listTrainingPlans(region);
  }

  /** Would `instanceCount` × `instanceType` fit the account's HyperPod quotas (and the training plan)? */
  checkQuotas(req: QuotaCheckRequest): Promise<QuotaCheckResult> {
    return this.check({
      region: req.region ?? this.defaultRegion,
      instanceType: req.instanceType,
      instanceCount: req.instanceCount,
      capacityType: req.capacityType,
      ...(req.trainingPlanArn ? { trainingPlanArn: req.trainingPlanArn } : {}),
      ...(req.availabilityZone ? { availabilityZone: req.availabilityZone } : {}),
    });
  }

  /**
   * Dry run of a create-cluster request: the name is free (no HyperPod cluster of that name and no
   * EKS cluster `<name>-eks`, which the managed cluster would need), the zone exists, the type is
   * offered there (and on spot, if asked), quotas suffice, the training plan covers the request and
   * EKS offers the Kubernetes version asked for (or, with none asked, one HyperPod supports).
   */
  async checkCreateCluster(req: CreateClusterRequest): Promise<QuotaCheckResult> {
    const region = req.region ?? this.defaultRegion;
    // Every cluster gets HyperPod's health-monitoring agent, whose image lives in a per-Region account
    // of its chart: a Region without one is refused here, before any AWS call.
    const noAgent = healthAgentRegionProblem(region);
    if (noAgent) {
      return {
        ok: false,
        quotas: [],
        problems: [
          {
            field: 'region',
            code: 'UnsupportedRegion',
            message: noAgent,
            remedy: 'Create the cluster in one of those Regions.',
          },
        ],
      };
    }
    return this.check({
      region,
      name: req.name,
      instanceType: req.instanceType,
      instanceCount: req.instanceCount,
      capacityType: req.capacityType,
      availabilityZone: req.availabilityZone,
      ...(req.trainingPlanArn ? { trainingPlanArn: req.trainingPlanArn } : {}),
      ...(req.kubernetesVersion ? { kubernetesVersion: req.kubernetesVersion } : {}),
      ...(req.networkInterface ? { networkInterface: req.networkInterface } : {}),
    });
  }

  /**
   * Would growing an existing cluster by `instanceCount` instances of a type fit? The same rules as a
   * create, with the instances the cluster already holds counted against the per-cluster quota (a scale
   * of an instance group; the instance groups service works out the growth).
   */
  checkClusterGrowth(req: QuotaCheckRequest & { clusterInUse: number }): Promise<QuotaCheckResult> {
    return this.check({
      region: req.region ?? this.defaultRegion,
      instanceType: req.instanceType,
      instanceCount: req.instanceCount,
      capacityType: req.capacityType,
      clusterInUse: req.clusterInUse,
      ...(req.trainingPlanArn ? { trainingPlanArn: req.trainingPlanArn } : {}),
      ...(req.availabilityZone ? { availabilityZone: req.availabilityZone } : {}),
    });
  }

  private async check(req: PreflightRequest): Promise<QuotaCheckResult> {
    const regions = (await this.catalog.listRegions()).map((r) => r.name);
    if (!regions.includes(req.region)) {
      // Nothing else can be asked of a Region the account cannot use.
      return { ok: false, quotas: [], problems: [regionProblem(req.region, regions)] };
    }
    return evaluatePreflight(req, await this.gather(req));
  }

  /** Every fact the rules need, asked in parallel (the slow-changing ones come from the catalogue cache). */
  private async gather(req: PreflightRequest): Promise<PreflightFacts> {
    const { region, name } = req;
    const plan =
      req.capacityType === 'training-plan' && req.trainingPlanArn
        ? this.catalog.getTrainingPlan(region, req.trainingPlanArn)
        : undefined;
    const eksName = name ? managedEksClusterName(name) : undefined;
    const [zones, types, quotas, usage, trainingPlan, hyperPodNames, eksTaken, kubernetesVersions] = await Promise.all([
      this.catalog.listAvailabilityZones(region),
      this.catalog.listHyperPodInstanceTypes(region),
      this.catalog.hyperPodQuotas(region, req.instanceType),
      this.catalog.hyperPodUsage(region),
      plan,
      name ? this.catalog.listHyperPodClusterNames(region) : undefined,
      eksName ? this.catalog.eksClusterExists(region, eksName) : undefined,
      // A create makes an EKS cluster: its Kubernetes version must be one EKS offers and HyperPod supports.
      name ? this.catalog.listKubernetesVersions(region) : undefined,
    ]);
    const type = types.find((t) => t.instanceType === req.instanceType);
    return {
      zones: zones.map((z) => z.name),
      ...(type
        ? {
            instanceType: {
              availabilityZones: type.availabilityZones,
              spotSupported: type.spotSupported,
              efaSupported: type.efaSupported,
            },
          }
        : {}),
      quotas,
      usage,
      ...(trainingPlan ? { trainingPlan } : {}),
      ...(name
        ? {
            existing: {
              hyperPodCluster: hyperPodNames?.includes(name) ?? false,
              ...(eksTaken ? { eksCluster: eksName } : {}),
            },
          }
        : {}),
      ...(kubernetesVersions ? { kubernetesVersions } : {}),
    };
  }

  private async requireRegion(region: string): Promise<void> {
    const regions = (await this.catalog.listRegions()).map((r) => r.name);
    if (!regions.includes(region))
      throw InputError.field('region', `is not a Region enabled for this account; use one of ${regions.join(', ')}`);
  }
}

function regionProblem(region: string, regions: string[]) {
  return {
    field: 'region',
    code: 'InvalidRegion',
    message: `${region} is not a Region enabled for this account.`,
    remedy: `Use one of ${regions.join(', ')} (list_regions / GET /api/v1/regions).`,
  };
}
