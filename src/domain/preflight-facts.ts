import type { EksKubernetesVersion } from './kubernetes-versions.js';
import type { TrainingPlanView } from './schemas/preflight.js';

// What the preflight rules decide on (preflight.ts): the request, and the facts AWS told us about it. A file of
// its own because the rules of each subject (quotas, Kubernetes versions, training plans) read them too.

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
