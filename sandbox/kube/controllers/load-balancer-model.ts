import type { KubeObject } from '../types.js';
import type { Scheme } from './load-balancer-subnets.js';
import { hexHash, unit, type Any } from './util.js';

/**
 * The load balancer a Service or an Ingress asks for: which controller owns it on EKS, its
 * finalizer, scheme, ELB name and DNS name, and how ELB describes its network interfaces.
 *
 * Owners and finalizers:
 * - the AWS Load Balancer Controller (kubernetes-sigs/aws-load-balancer-controller v2.x,
 *   pkg/shared_constants): a Service with `spec.loadBalancerClass: service.k8s.aws/nlb` or the
 *   annotation `service.beta.kubernetes.io/aws-load-balancer-type: external|nlb-ip` (an NLB,
 *   finalizer `service.k8s.aws/resources`); an Ingress of class `alb` (an ALB, finalizer
 *   `ingress.k8s.aws/resources`, or `group.ingress.k8s.aws/<group>` for a member of the explicit
 *   IngressGroup `alb.ingress.kubernetes.io/group.name`);
 * - EKS's in-tree service controller (kubernetes/cloud-provider controllers/service, provider
 *   kubernetes/cloud-provider-aws): any other LoadBalancer Service without a `loadBalancerClass`
 *   (a Classic Load Balancer; annotation type `nlb`: an NLB), finalizer
 *   `service.kubernetes.io/load-balancer-cleanup`. A Service of another class is nobody's here.
 *
 * Schemes: the LBC's `service.beta.kubernetes.io/aws-load-balancer-scheme` (or the legacy
 * `…-internal: "true"|"false"`) and `alb.ingress.kubernetes.io/scheme`, default `internal` (its
 * flag `--default-load-balancer-scheme`); the in-tree provider is internet-facing unless
 * `service.beta.kubernetes.io/aws-load-balancer-internal` is set to anything but `"false"`.
 *
 * Names: the LBC's `k8s-<namespace 8>-<name 8>-<10 hex>` (an explicit group: `k8s-<group 17>-<10
 * hex>`); the in-tree `a` + the Service's uid without dashes (32 characters). DNS: an NLB
 * `<name>-<16 hex>.elb.<region>.amazonaws.com`, an ALB or CLB `[internal-]<name>-<digits>.<region>.elb.amazonaws.com`.
 * Network interfaces (requester `amazon-elb`, one per subnet): description `ELB net/<name>/<id>`
 * (type `network_load_balancer`), `ELB app/<name>/<id>` or `ELB <name>` (type `interface`), as
 * ELB writes them (the LBC itself finds an NLB's interfaces by that description). Assumed: no
 * security groups on them (the groups the controllers create for their load balancers are not played).
 */

export const LBC_SERVICE_FINALIZER = 'service.k8s.aws/resources';
export const LBC_INGRESS_FINALIZER = 'ingress.k8s.aws/resources';
export const LBC_GROUP_FINALIZER_PREFIX = 'group.ingress.k8s.aws/';
export const IN_TREE_FINALIZER = 'service.kubernetes.io/load-balancer-cleanup';

const LB_TYPE = 'service.beta.kubernetes.io/aws-load-balancer-type';
const SVC_SCHEME = 'service.beta.kubernetes.io/aws-load-balancer-scheme';
const SVC_INTERNAL = 'service.beta.kubernetes.io/aws-load-balancer-internal';
const ING_SCHEME = 'alb.ingress.kubernetes.io/scheme';
const ING_GROUP = 'alb.ingress.kubernetes.io/group.name';
const ING_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';
const LBC_CLASS = 'service.k8s.aws/nlb';

export interface Balancer {
  owner: 'lbc' | 'in-tree';
  kind: 'network' | 'application' | 'classic';
  finalizer: string;
  /** What the owning controller refuses in the object's annotations (an unknown scheme), if anything. */
  invalid?: string;
  scheme: Scheme;
  name: string;
  hostname: string;
  eniDescription: string;
  interfaceType: 'interface' | 'network_load_balancer';
  /** Ingresses of one IngressGroup share one ALB: its key. */
  groupKey: string;
}

const cut = (s: string) => s.slice(0, 8).replace(/-+$/, '');
const digits = (seed: string) => String(Math.floor(unit(seed) * 9_000_000_000) + 1_000_000_000);

/** Which controller owns the Service's load balancer, from its class and annotations only (its type aside). */
export function serviceOwner(svc: KubeObject): 'lbc' | 'in-tree' | undefined {
  const cls = (svc.spec as Any | undefined)?.loadBalancerClass;
  if (cls === LBC_CLASS) return 'lbc';
  if (cls) return undefined;
  const lbType = svc.metadata.annotations?.[LB_TYPE];
  return lbType === 'external' || lbType === 'nlb-ip' ? 'lbc' : 'in-tree';
}

export function serviceBalancer(svc: KubeObject, region: string): Balancer | undefined {
  const owner = serviceOwner(svc);
  if (!owner) return undefined;
  const uid = svc.metadata.uid!;
  const annotations = svc.metadata.annotations ?? {};
  const nlbDns = (name: string) => `${name}-${hexHash(`${uid}|dns`, 16)}.elb.${region}.amazonaws.com`;
  const net = (name: string) => `ELB net/${name}/${hexHash(`${uid}|arn`, 16)}`;
  if (owner === 'lbc') {
    const name = `k8s-${cut(svc.metadata.namespace!)}-${cut(svc.metadata.name!)}-${hexHash(`${uid}|lb`, 10)}`;
    const raw = annotations[SVC_SCHEME];
    const legacy = annotations[SVC_INTERNAL];
    const scheme: Scheme =
      raw === 'internet-facing' || (raw === undefined && legacy === 'false') ? 'internet-facing' : 'internal';
    return {
      owner,
      kind: 'network',
      finalizer: LBC_SERVICE_FINALIZER,
      ...(raw !== undefined && raw !== 'internet-facing' && raw !== 'internal'
        ? { invalid: `unknown scheme: ${raw}` }
        : {}),
      scheme,
      name,
      hostname: nlbDns(name),
      eniDescription: net(name),
      interfaceType: 'network_load_balancer',
      groupKey: uid,
    };
  }
  const name = `a${uid.replace(/-/g, '')}`.slice(0, 32);
  const internal = annotations[SVC_INTERNAL] !== undefined && annotations[SVC_INTERNAL] !== 'false';
  const scheme: Scheme = internal ? 'internal' : 'internet-facing';
  if (annotations[LB_TYPE] === 'nlb')
    return {
      owner,
      kind: 'network',
      finalizer: IN_TREE_FINALIZER,
      scheme,
      name,
      hostname: nlbDns(name),
      eniDescription: net(name),
      interfaceType: 'network_load_balancer',
      groupKey: uid,
    };
  return {
    owner,
    kind: 'classic',
    finalizer: IN_TREE_FINALIZER,
    scheme,
    name,
    hostname: `${internal ? 'internal-' : ''}${name}-${digits(`${uid}|clb`)}.${region}.elb.amazonaws.com`,
    eniDescription: `ELB ${name}`,
    interfaceType: 'interface',
    groupKey: uid,
  };
}

/** Whether the AWS Load Balancer Controller reconciles this Ingress (class `alb`, by field or the older annotation). */
export function isAlbIngress(ing: KubeObject): boolean {
  return (
    (ing.spec as Any | undefined)?.ingressClassName === 'alb' ||
    ing.metadata.annotations?.[ING_CLASS_ANNOTATION] === 'alb'
  );
}

/** The finalizer an ALB Ingress carries: its explicit group's, or the implicit group's. */
export function ingressFinalizer(ing: KubeObject): string {
  const group = ing.metadata.annotations?.[ING_GROUP];
  return group ? `${LBC_GROUP_FINALIZER_PREFIX}${group}` : LBC_INGRESS_FINALIZER;
}

/** The ALB of an Ingress's group; `members` are the group's live Ingresses (their schemes must agree). */
export function ingressBalancer(ing: KubeObject, members: KubeObject[], region: string): Balancer {
  const group = ing.metadata.annotations?.[ING_GROUP];
  const groupKey = group ? `group/${group}` : `${ing.metadata.namespace}/${ing.metadata.name}`;
  const name = group
    ? `k8s-${group.slice(0, 17)}-${hexHash(`${groupKey}|lb`, 10)}`
    : `k8s-${cut(ing.metadata.namespace!)}-${cut(ing.metadata.name!)}-${hexHash(`${groupKey}|lb`, 10)}`;
  const schemes = [
    ...new Set(
      [ing, ...members].map((m) => m.metadata.annotations?.[ING_SCHEME]).filter((s): s is string => s !== undefined),
    ),
  ].sort();
  const raw = schemes[0];
  const invalid =
    schemes.length > 1
      ? `conflicting scheme: [${schemes.join(' ')}]`
      : raw !== undefined && raw !== 'internet-facing' && raw !== 'internal'
        ? `unknown scheme: ${raw}`
        : undefined;
  const scheme: Scheme = raw === 'internet-facing' ? 'internet-facing' : 'internal';
  return {
    owner: 'lbc',
    kind: 'application',
    finalizer: ingressFinalizer(ing),
    ...(invalid ? { invalid } : {}),
    scheme,
    name,
    hostname: `${scheme === 'internal' ? 'internal-' : ''}${name}-${digits(`${groupKey}|alb`)}.${region}.elb.amazonaws.com`,
    eniDescription: `ELB app/${name}/${hexHash(`${groupKey}|arn`, 16)}`,
    interfaceType: 'interface',
    groupKey,
  };
}
