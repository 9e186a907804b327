import { mapLimited } from '../../cloud/aws/catalog/paginate.js';
import type { PolicySimulation, SimulatedDecision } from '../../cloud/ports.js';
import type { FeaturesAnswer } from '../../domain/schemas/features.js';
import type { KubernetesVersions, QuotaCheckRequest, QuotaCheckResult } from '../../domain/schemas/preflight.js';
import type { ServiceDeps } from '../capability.js';
import { catalog } from '../catalog/index.js';
import { features } from '../features/index.js';

/**
 * Everything `instantstart doctor` may read, and nothing else: each member asks who, simulates, describes or lists.
 * The doctor service is built from this port alone (index.ts), so no code under this folder holds the cloud or the
 * operation engine — a readiness check cannot reach a mutating call (test/e2e/doctor.test.ts counts them: zero).
 */
export interface DoctorReadPort {
  /** STS GetCallerIdentity, asked now. */
  caller(): Promise<{ accountId: string; arn: string }>;
  /**
   * IAM SimulatePrincipalPolicy for each question (every page of each), a few in flight at once: IAM throttles the
   * simulator per account. Rejects with the first failure (the caller may not simulate, no such principal).
   */
  simulate(questions: readonly PolicySimulation[]): Promise<SimulatedDecision[][]>;
  /** EC2 DescribeAccountAttributes `vpc-max-elastic-ips` and DescribeAddresses' count. */
  elasticIps(region: string): Promise<{ limit?: number; inUse: number }>;
  /** The catalog's quota check (Service Quotas and HyperPod's usage): would the request fit? */
  quotas(request: QuotaCheckRequest): Promise<QuotaCheckResult>;
  /** The catalog's Kubernetes versions: EKS's offer in the Region, HyperPod's support, the default. */
  kubernetesVersions(region: string): Promise<KubernetesVersions>;
  /** The features capability's answer for an existing cluster: each managed feature's state, health, needs, roles. */
  clusterFeatures(region: string, cluster: string): Promise<FeaturesAnswer>;
}

/** Questions to IAM in flight at once (SimulatePrincipalPolicy is throttled per account: IAM quotas). */
const SIMULATIONS_IN_FLIGHT = 4;

export type { PolicySimulation, SimulatedDecision };

/** The read port of one workspace, from the services' deps: only read functions are taken out of them. */
export function readPortOf(deps: ServiceDeps): DoctorReadPort {
  const { cloud } = deps;
  return {
    caller: () => cloud.caller(),
    simulate: (questions) => mapLimited(questions, SIMULATIONS_IN_FLIGHT, (q) => cloud.iam.simulate(q)),
    elasticIps: (region) => cloud.network.elasticIps(region),
    quotas: (request) => deps.service(catalog).checkQuotas(request),
    kubernetesVersions: (region) => deps.service(catalog).kubernetesVersions(region),
    clusterFeatures: (region, cluster) => deps.service(features).get(region, cluster),
  };
}
