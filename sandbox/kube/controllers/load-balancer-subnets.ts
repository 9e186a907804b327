import type { SubnetView } from '../../services/ec2/public.js';

/**
 * Which subnets of the EKS cluster's VPC a load balancer gets, as its controller discovers them.
 *
 * The AWS Load Balancer Controller (kubernetes-sigs/aws-load-balancer-controller v2.13.2, the
 * version the inference add-on runs; pkg/networking/subnet_resolver.go `ResolveViaDiscovery`):
 * the candidates are the VPC's subnets tagged `kubernetes.io/role/elb` (internet-facing) or
 * `kubernetes.io/role/internal-elb` (internal) with the value `""` or `"1"`; when none is tagged,
 * the subnets whose reachability matches the scheme (a route to an internet gateway = public; the
 * feature gate SubnetDiscoveryByReachability, on by default). Candidates tagged
 * `kubernetes.io/cluster/<other>` only for other clusters (SubnetsClusterTagCheck, on by default)
 * or with fewer than 8 free addresses are dropped; one subnet per Availability Zone (a subnet
 * tagged for this cluster first, then the lowest id). None left: `unable to resolve at least one
 * subnet. Evaluated N subnets: …`; an ALB needs two (ALBSingleSubnet off): `subnets count less
 * than minimal required count: 1 < 2`.
 *
 * EKS's in-tree service controller (kubernetes/cloud-provider-aws pkg/providers/v1/aws.go
 * `findELBSubnets`): every subnet of the VPC tagged for this cluster or for no cluster; an
 * internet-facing load balancer skips private subnets; one per Availability Zone, preferring the
 * role tag, then this cluster's tag, then the lowest id. None: `could not find any suitable subnets
 * for creating the ELB`. Assumed: its fall-back to "the current instance's subnet" when no subnet
 * qualifies (there is no such instance in EKS's control plane) is not played.
 */

export type Scheme = 'internet-facing' | 'internal';

const ROLE_PUBLIC = 'kubernetes.io/role/elb';
const ROLE_INTERNAL = 'kubernetes.io/role/internal-elb';
const CLUSTER_TAG_PREFIX = 'kubernetes.io/cluster/';
const MIN_FREE_ADDRESSES = 8;

const roleTag = (scheme: Scheme) => (scheme === 'internet-facing' ? ROLE_PUBLIC : ROLE_INTERNAL);
const taggedFor = (s: SubnetView, cluster: string) => CLUSTER_TAG_PREFIX + cluster in s.tags;
const taggedForOthersOnly = (s: SubnetView, cluster: string) =>
  !taggedFor(s, cluster) && Object.keys(s.tags).some((k) => k.startsWith(CLUSTER_TAG_PREFIX));

/** One subnet per Availability Zone, the first by `better`; the result sorted by subnet id. */
function onePerZone(subnets: SubnetView[], better: (a: SubnetView, b: SubnetView) => number): SubnetView[] {
  const byZone = new Map<string, SubnetView>();
  for (const s of subnets) {
    const held = byZone.get(s.availabilityZone);
    if (!held || better(s, held) < 0) byZone.set(s.availabilityZone, s);
  }
  return [...byZone.values()].sort((a, b) => a.subnetId.localeCompare(b.subnetId));
}

const byId = (a: SubnetView, b: SubnetView) => a.subnetId.localeCompare(b.subnetId);
/** true sorts first. */
const first = (x: boolean, y: boolean) => (x === y ? 0 : x ? -1 : 1);

export function lbcSubnets(
  vpcSubnets: SubnetView[],
  clusterName: string,
  scheme: Scheme,
  kind: 'network' | 'application',
): { subnets: SubnetView[] } | { error: string } {
  const tag = roleTag(scheme);
  let candidates = vpcSubnets.filter((s) => s.tags[tag] === '' || s.tags[tag] === '1');
  if (candidates.length === 0) candidates = vpcSubnets.filter((s) => s.isPublic === (scheme === 'internet-facing'));
  const otherClusters = candidates.filter((s) => taggedForOthersOnly(s, clusterName));
  const tooFull = candidates.filter(
    (s) => !taggedForOthersOnly(s, clusterName) && s.availableIpAddressCount < MIN_FREE_ADDRESSES,
  );
  const eligible = candidates.filter((s) => !otherClusters.includes(s) && !tooFull.includes(s));
  const chosen = onePerZone(
    eligible,
    (a, b) => first(taggedFor(a, clusterName), taggedFor(b, clusterName)) || byId(a, b),
  );
  if (chosen.length === 0)
    return {
      error: `unable to resolve at least one subnet. Evaluated ${candidates.length} subnets: ${otherClusters.length} are tagged for other clusters, and ${tooFull.length} have insufficient available IP addresses`,
    };
  const minimum = kind === 'application' ? 2 : 1;
  if (chosen.length < minimum)
    return { error: `subnets count less than minimal required count: ${chosen.length} < ${minimum}` };
  return { subnets: chosen };
}

export function inTreeSubnets(
  vpcSubnets: SubnetView[],
  clusterName: string,
  scheme: Scheme,
): { subnets: SubnetView[] } | { error: string } {
  const tag = roleTag(scheme);
  const candidates = vpcSubnets.filter(
    (s) => !taggedForOthersOnly(s, clusterName) && (scheme === 'internal' || s.isPublic),
  );
  const chosen = onePerZone(
    candidates,
    (a, b) =>
      first(tag in a.tags, tag in b.tags) || first(taggedFor(a, clusterName), taggedFor(b, clusterName)) || byId(a, b),
  );
  return chosen.length > 0
    ? { subnets: chosen }
    : { error: 'could not find any suitable subnets for creating the ELB' };
}
