import { ingressClassOf, ingressLoadBalancers, type KubeIngress } from './kube/ingress.js';
import { loadBalancerAddress, type KubeService } from './kube/service.js';
import type { DeletePlanItem } from './schemas/clusters.js';

/**
 * The Kubernetes objects that hold an AWS load balancer, and what deleting a cluster does about them.
 *
 * A Service of type LoadBalancer (an NLB from the AWS Load Balancer Controller, or a Classic Load
 * Balancer from EKS's in-tree service controller) and an Ingress of class `alb` (an ALB from the AWS
 * Load Balancer Controller — the inference operator makes one per managed endpoint with a load
 * balancer) each own a load balancer in the cluster's VPC, with network interfaces in its subnets. Its
 * controller deletes it only when the object is deleted, and only while the controller runs (it holds
 * the object with a finalizer until then: `service.k8s.aws/resources`, `ingress.k8s.aws/resources`,
 * `service.kubernetes.io/load-balancer-cleanup`). Deleting the EKS cluster first orphans it: it keeps
 * billing and its interfaces keep the subnets, so the VPC cannot be deleted. eksctl's `delete cluster`
 * deletes these objects first for the same reason (eksctl pkg/elb/cleanup.go); so does our delete,
 * before the nodes the load balancer controller runs on go.
 */

export type LoadBalancerHolder = {
  kind: 'Service' | 'Ingress';
  namespace: string;
  name: string;
  /** The load balancer's DNS name, once its controller reported one. */
  address?: string;
  /** Deleted, waiting for its controller to delete the load balancer and remove its finalizers. */
  deleting: boolean;
  finalizers: string[];
  /** The inference endpoint object that owns it (its operator's Ingress): deleting that deletes it. */
  ownedByEndpoint?: string;
  /** Who deletes its load balancer: the AWS Load Balancer Controller (only while it runs), or EKS's in-tree controller. */
  controller: 'aws-load-balancer-controller' | 'in-tree';
};

/**
 * The Services the AWS Load Balancer Controller serves rather than EKS's in-tree controller: its class, or the annotation
 * that hands a Service to it (aws-load-balancer-controller v2.13 docs, "Network Load Balancer": `external`, `nlb-ip`).
 */
const servedByLoadBalancerController = (s: KubeService): boolean =>
  s.spec.loadBalancerClass === 'service.k8s.aws/nlb' ||
  ['external', 'nlb-ip'].includes(s.metadata.annotations['service.beta.kubernetes.io/aws-load-balancer-type'] ?? '');

/** The inference operator's kinds, whose objects own the Ingresses it makes. */
const ENDPOINT_KINDS = new Set(['InferenceEndpointConfig', 'JumpStartModel']);

/** Finalizers the AWS Load Balancer Controller puts on the Ingresses it serves (an implicit or an explicit IngressGroup). */
const ALB_FINALIZER = /^(ingress\.k8s\.aws\/resources|group\.ingress\.k8s\.aws\/.+)$/;

function holder(
  kind: LoadBalancerHolder['kind'],
  obj: KubeService | KubeIngress,
  address: string | undefined,
  controller: LoadBalancerHolder['controller'],
): LoadBalancerHolder {
  const owner = obj.metadata.ownerReferences.find((r) => ENDPOINT_KINDS.has(r.kind));
  return {
    kind,
    namespace: obj.metadata.namespace ?? 'default',
    name: obj.metadata.name,
    ...(address ? { address } : {}),
    deleting: !!obj.metadata.deletionTimestamp,
    finalizers: obj.metadata.finalizers ?? [],
    ...(owner ? { ownedByEndpoint: `${owner.kind} ${owner.name}` } : {}),
    controller,
  };
}

/**
 * Which of a cluster's Services and Ingresses hold a load balancer: every Service of type
 * LoadBalancer, and every Ingress the AWS Load Balancer Controller serves or has served (class `alb`,
 * one of its finalizers, or a load balancer reported). Ingresses of other controllers (nginx) make
 * no AWS resource of their own.
 */
export function loadBalancerHolders(
  services: readonly KubeService[],
  ingresses: readonly KubeIngress[],
): LoadBalancerHolder[] {
  return [
    ...services
      .filter((s) => s.spec.type === 'LoadBalancer')
      .map((s) =>
        holder(
          'Service',
          s,
          loadBalancerAddress(s),
          servedByLoadBalancerController(s) ? 'aws-load-balancer-controller' : 'in-tree',
        ),
      ),
    ...ingresses
      .filter(
        (i) =>
          ingressClassOf(i) === 'alb' ||
          (i.metadata.finalizers ?? []).some((f) => ALB_FINALIZER.test(f)) ||
          ingressLoadBalancers(i).length > 0,
      )
      .map((i) => holder('Ingress', i, ingressLoadBalancers(i)[0], 'aws-load-balancer-controller')),
  ];
}

export const holderName = (h: LoadBalancerHolder): string => `${h.kind} ${h.namespace}/${h.name}`;

/** What a holder still waits for, in words for an operation's progress and a deadline's message. */
export function holderWaitWords(h: LoadBalancerHolder): string {
  if (!h.deleting) return `${holderName(h)} (not deleted yet)`;
  return h.finalizers.length
    ? `${holderName(h)} (its controller has not removed ${h.finalizers.join(', ')}: the load balancer is still being deleted, or the controller is not running)`
    : `${holderName(h)} (being deleted)`;
}

/** The delete plan's line for a holder: the load balancer that goes with it. */
export const holderPlanItem = (h: LoadBalancerHolder): DeletePlanItem => ({
  kind: 'Load balancer',
  name: h.address ? `${h.address} (${holderName(h)})` : `of ${holderName(h)} (none made yet)`,
});
