import type { EksKubernetesVersion } from '../../domain/kubernetes-versions.js';
import type { AvailabilityZoneView, RegionView } from '../../domain/preflight.js';
import type { HyperPodQuotaFacts, HyperPodUsage, TrainingPlanFacts } from '../../domain/preflight-facts.js';
import type { InstanceTypeView, TrainingPlanView } from '../../domain/schemas/preflight.js';

/**
 * What AWS offers and allows, as the checks read it: the catalogue calls (src/cloud/aws/catalog.ts answers them, cached;
 * a test may hand in its own). Other capabilities that read the catalogue name this port in theirs.
 */
export interface CatalogPort {
  /** Regions enabled for the account, sorted by name. */
  listRegions(): Promise<RegionView[]>;
  /** The Region's available Availability Zones, sorted by name. */
  listAvailabilityZones(region: string): Promise<AvailabilityZoneView[]>;
  /** HyperPod instance types offered in the Region, or in one of its zones, with their accelerators and EFA. */
  listHyperPodInstanceTypes(region: string, zone?: string): Promise<InstanceTypeView[]>;
  /** The Kubernetes versions EKS offers in the Region. */
  listKubernetesVersions(region: string): Promise<EksKubernetesVersion[]>;
  /** Training plans of the account in the Region. */
  listTrainingPlans(region: string): Promise<TrainingPlanView[]>;
  /** One training plan with its reserved capacities; undefined when it does not exist in the Region. */
  getTrainingPlan(region: string, arn: string): Promise<TrainingPlanFacts | undefined>;
  /** The HyperPod quotas a request for `instanceType` must fit. */
  hyperPodQuotas(region: string, instanceType: string): Promise<HyperPodQuotaFacts>;
  /** Instances existing HyperPod clusters of the Region hold. */
  hyperPodUsage(region: string): Promise<HyperPodUsage>;
  /** Names of every HyperPod cluster of the Region. */
  listHyperPodClusterNames(region: string): Promise<string[]>;
  /** Whether an EKS cluster of that name exists in the Region. */
  eksClusterExists(region: string, name: string): Promise<boolean>;
}

/** The catalog capability's own ports, supplied by the composition root. */
export interface CatalogPorts {
  catalog: CatalogPort;
}
