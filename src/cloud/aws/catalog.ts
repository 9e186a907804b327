import { DescribeAvailabilityZonesCommand, DescribeRegionsCommand } from '@aws-sdk/client-ec2';
import { DescribeClusterCommand as DescribeEksClusterCommand } from '@aws-sdk/client-eks';
import type { AvailabilityZoneView, RegionView } from '../../domain/preflight.js';
import type { HyperPodQuotaFacts, HyperPodUsage, QuotaFact, TrainingPlanFacts } from '../../domain/preflight-facts.js';
import {
  clusterUsageQuotaName,
  HYPERPOD_QUOTA_NAMES,
  HYPERPOD_QUOTA_SERVICE_CODE,
} from '../../domain/preflight-quotas.js';
import { trainingPlanView } from '../../domain/preflight-training-plan.js';
import type { EksKubernetesVersion } from '../../domain/kubernetes-versions.js';
import type { InstanceTypeView, TrainingPlanView } from '../../domain/schemas/preflight.js';
import type { AwsClients } from './clients.js';
import { awsCall, hasCode } from './errors.js';
import { TtlCache, type CatalogCache } from './catalog/cache.js';
import { listHyperPodClusters, loadHyperPodUsage } from './catalog/hyperpod-usage.js';
import { loadHyperPodInstanceTypes } from './catalog/instance-types.js';
import { loadEksKubernetesVersions } from './catalog/kubernetes-versions.js';
import { currentQuota, loadQuotaIndex, type QuotaIndex } from './catalog/quotas.js';
import { describeTrainingPlanFacts, listTrainingPlanFacts } from './catalog/training-plans.js';

export { NO_CACHE, TtlCache, type CatalogCache } from './catalog/cache.js';

export interface AwsCatalogOptions {
  /** Where catalogue answers are kept; default: a fresh 5-minute TtlCache. Pass NO_CACHE to always ask AWS. */
  cache?: CatalogCache;
}

/**
 * What AWS says about where HyperPod capacity exists and whether this account may use it: Regions,
 * zones, HyperPod instance types with their specs and zones, Service Quotas, training plans, and what
 * existing clusters already hold. Nothing here is a hard-coded list: every answer comes from an API.
 *
 * Slow-changing catalogue data (Regions, zones, instance types and their offerings, the quota
 * listing) is cached per Region; anything a decision rests on (a quota's current value, usage,
 * training plans, existing names) is read fresh.
 *
 * @example
 * const catalog = new AwsCatalog(new AwsClients({ defaultRegion: 'us-west-2' }));
 * const types = await catalog.listHyperPodInstanceTypes('us-west-2', 'us-west-2b');
 */
export class AwsCatalog {
  private readonly cache: CatalogCache;

  constructor(
    private readonly clients: AwsClients,
    { cache = new TtlCache() }: AwsCatalogOptions = {},
  ) {
    this.cache = cache;
  }

  /** Forgets cached answers, of one Region or of all (e.g. after the user raised a quota). */
  clearCache(region?: string): void {
    this.cache.clear(region === undefined ? undefined : `${region}:`);
  }

  /** Regions enabled for the account (EC2 DescribeRegions), sorted by name. */
  listRegions(): Promise<RegionView[]> {
    return this.cache.get('regions', async () => {
      const r = await awsCall('ec2', 'DescribeRegions', () => this.clients.ec2().send(new DescribeRegionsCommand({})));
      return (r.Regions ?? [])
        .filter((x) => x.RegionName)
        .map((x) => ({ name: x.RegionName!, ...(x.OptInStatus ? { optInStatus: x.OptInStatus } : {}) }))
        .sort((a, b) => a.name.localeCompare(b.name));
    });
  }

  /** The Region's available Availability Zones (not Local or Wavelength Zones), sorted by name. */
  listAvailabilityZones(region: string): Promise<AvailabilityZoneView[]> {
    return this.cache.get(`${region}:zones`, async () => {
      const r = await awsCall('ec2', 'DescribeAvailabilityZones', () =>
        this.clients
          .ec2(region)
          .send(
            new DescribeAvailabilityZonesCommand({ Filters: [{ Name: 'zone-type', Values: ['availability-zone'] }] }),
          ),
      );
      return (r.AvailabilityZones ?? [])
        .filter(
          (z) => z.ZoneName && z.State === 'available' && (z.ZoneType ?? 'availability-zone') === 'availability-zone',
        )
        .map((z) => ({ name: z.ZoneName!, zoneId: z.ZoneId ?? '', state: z.State! }))
        .sort((a, b) => a.name.localeCompare(b.name));
    });
  }

  /**
   * HyperPod instance types of the Region (those with a `<type> for cluster usage` quota that EC2
   * offers in some zone), with specs, zones and the account's quota; only those offered in `zone`
   * when one is given. Sorted by name.
   */
  async listHyperPodInstanceTypes(region: string, zone?: string): Promise<InstanceTypeView[]> {
    const all = await this.cache.get(`${region}:instance-types`, async () =>
      loadHyperPodInstanceTypes(this.clients, region, await this.quotaIndex(region, HYPERPOD_QUOTA_SERVICE_CODE)),
    );
    return zone === undefined ? all : all.filter((t) => t.availabilityZones.includes(zone));
  }

  /**
   * The Kubernetes versions EKS offers for new clusters in the Region, its default marked
   * (DescribeClusterVersions). Cached: EKS adds a version a few times a year.
   */
  listKubernetesVersions(region: string): Promise<EksKubernetesVersion[]> {
    return this.cache.get(`${region}:kubernetes-versions`, () => loadEksKubernetesVersions(this.clients, region));
  }

  /** Training plans of the account in the Region (SageMaker ListTrainingPlans, every page). */
  async listTrainingPlans(region: string): Promise<TrainingPlanView[]> {
    return (await listTrainingPlanFacts(this.clients, region)).map(trainingPlanView);
  }

  /** One training plan with its reserved capacities, or undefined when it does not exist in the Region. */
  getTrainingPlan(region: string, arn: string): Promise<TrainingPlanFacts | undefined> {
    return describeTrainingPlanFacts(this.clients, region, arn);
  }

  /**
   * A quota's current value, found by name in the service's quota listing; undefined when the
   * account has no such quota in the Region.
   *
   * @example
   * await catalog.getQuota('us-west-2', 'sagemaker', 'ml.p5.48xlarge for cluster usage'); // { quotaCode: 'L-…', value:
   * 0, … }
   */
  async getQuota(region: string, serviceCode: string, quotaName: string): Promise<QuotaFact | undefined> {
    const entry = (await this.quotaIndex(region, serviceCode)).get(quotaName);
    return entry ? currentQuota(this.clients, region, entry) : undefined;
  }

  /** The three HyperPod quotas a request for `instanceType` must fit: per type, across clusters, per cluster. */
  async hyperPodQuotas(region: string, instanceType: string): Promise<HyperPodQuotaFacts> {
    const [clusterUsage, totalInstances, instancesPerCluster] = await Promise.all([
      this.getQuota(region, HYPERPOD_QUOTA_SERVICE_CODE, clusterUsageQuotaName(instanceType)),
      this.getQuota(region, HYPERPOD_QUOTA_SERVICE_CODE, HYPERPOD_QUOTA_NAMES.totalInstances),
      this.getQuota(region, HYPERPOD_QUOTA_SERVICE_CODE, HYPERPOD_QUOTA_NAMES.instancesPerCluster),
    ]);
    return {
      ...(clusterUsage ? { clusterUsage } : {}),
      ...(totalInstances ? { totalInstances } : {}),
      ...(instancesPerCluster ? { instancesPerCluster } : {}),
    };
  }

  /** Instances existing HyperPod clusters of the Region hold, per `ml.*` type and in all. */
  hyperPodUsage(region: string): Promise<HyperPodUsage> {
    return loadHyperPodUsage(this.clients, region);
  }

  /** Names of every HyperPod cluster of the Region, whatever its status. */
  async listHyperPodClusterNames(region: string): Promise<string[]> {
    return (await listHyperPodClusters(this.clients, region))
      .map((c) => c.ClusterName)
      .filter((n): n is string => n !== undefined);
  }

  /** Whether an EKS cluster of that name exists in the Region (in any status). */
  async eksClusterExists(region: string, name: string): Promise<boolean> {
    try {
      await awsCall('eks', 'DescribeCluster', () =>
        this.clients.eks(region).send(new DescribeEksClusterCommand({ name })),
      );
      return true;
    } catch (err) {
      if (hasCode(err, 'ResourceNotFoundException')) return false;
      throw err;
    }
  }

  private quotaIndex(region: string, serviceCode: string): Promise<QuotaIndex> {
    return this.cache.get(`${region}:quotas:${serviceCode}`, () => loadQuotaIndex(this.clients, region, serviceCode));
  }
}
