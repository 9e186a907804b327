import type { SandboxState } from '../../core/store.js';
import {
  createNetworkInterface,
  deleteNetworkInterface,
  listVpcSubnets,
  networkInterfacesByDescription,
} from '../../services/ec2/public.js';
import { getEksCluster } from '../../services/eks/public.js';
import { finishPendingDeletions } from '../api/deletion.js';
import type { KubeCluster } from '../cluster.js';
import type { KubeObject, ResourceType } from '../types.js';
import { recordEvent } from './events.js';
import {
  IN_TREE_FINALIZER,
  ingressBalancer,
  ingressFinalizer,
  isAlbIngress,
  LBC_GROUP_FINALIZER_PREFIX,
  LBC_SERVICE_FINALIZER,
  serviceBalancer,
  type Balancer,
} from './load-balancer-model.js';
import { inTreeSubnets, lbcSubnets } from './load-balancer-subnets.js';
import { isReady, save, T, type Any } from './util.js';

/**
 * The controllers that make load balancers for Services of type LoadBalancer and for Ingresses
 * (load-balancer-model.ts says whose is which). When the owner reconciles an object that wants a
 * load balancer it resolves subnets of the EKS cluster's VPC (load-balancer-subnets.ts) — none: a
 * Warning event with its message and nothing else (the LBC: `FailedBuildModel`, "Failed build
 * model due to …", before its finalizer; the in-tree controller: `SyncLoadBalancerFailed`, "Error
 * syncing load balancer: failed to ensure load balancer: …", after its finalizer, as
 * kubernetes/cloud-provider's service controller adds it before EnsureLoadBalancer) — then puts its
 * finalizer on the object, makes the load balancer's network interfaces in those subnets (EC2,
 * requester-managed) and publishes its hostname (a Service 30 s of sandbox time after creation, an
 * Ingress at once). When the object is being deleted (or no longer wants one: another type or
 * class), the owner deletes the load balancer — its interfaces; an IngressGroup's ALB only when no
 * other live member uses it — and removes its finalizer, and the API server completes the deletion.
 * The AWS Load Balancer Controller does all this only while it runs (a Ready pod labelled
 * `app.kubernetes.io/name: aws-load-balancer-controller`, as its chart and the inference add-on
 * label it); without it the objects stay pending, or Terminating with its finalizer. The in-tree
 * controller runs in EKS's control plane: always. When the EKS cluster itself is deleted nothing
 * deletes the load balancers: their interfaces stay in the subnets, which then refuse DeleteSubnet
 * (DependencyViolation), as on a real account.
 * A cluster EKS does not know (unit tests' memory clusters) has no VPC: its objects get their
 * hostnames as before, with no subnet check, no interfaces and no finalizer.
 */

const LB_DELAY_MS = 30_000;
const REQUESTER = 'amazon-elb';

interface Context {
  cluster: KubeCluster;
  state: SandboxState;
  /** The EKS cluster's VPC; undefined for a memory-only cluster. */
  vpcId?: string;
  lbcRuns: () => boolean;
}

export function runLoadBalancers(cluster: KubeCluster, state: SandboxState): void {
  const eks = getEksCluster(state, cluster.region, cluster.name);
  let runs: boolean | undefined;
  const ctx: Context = {
    cluster,
    state,
    ...(eks ? { vpcId: eks.vpcId } : {}),
    lbcRuns: () => (runs ??= loadBalancerControllerRuns(cluster)),
  };
  for (const svc of cluster.objects.list(T.services)) reconcileService(ctx, svc);
  const ingresses = cluster.objects.list(T.ingresses);
  for (const ing of ingresses) reconcileIngress(ctx, ing, ingresses);
}

/** A Ready pod of the AWS Load Balancer Controller anywhere in the cluster. */
export function loadBalancerControllerRuns(cluster: KubeCluster): boolean {
  return (
    cluster.objects.select(
      T.pods,
      undefined,
      (p) =>
        p.metadata.labels?.['app.kubernetes.io/name'] === 'aws-load-balancer-controller' &&
        !p.metadata.deletionTimestamp &&
        isReady(p as KubeObject),
      1,
    ).total > 0
  );
}

function reconcileService(ctx: Context, svc: KubeObject): void {
  const isLb = (svc.spec as Any | undefined)?.type === 'LoadBalancer';
  const held = (svc.metadata.finalizers ?? []).some((f) => f === LBC_SERVICE_FINALIZER || f === IN_TREE_FINALIZER);
  if (!isLb && !held) {
    if (!svc.metadata.deletionTimestamp) clearHostname(ctx, svc);
    return;
  }
  const lb = serviceBalancer(svc, ctx.cluster.region);
  if (!lb) {
    if (isLb) setHostname(ctx, T.services, svc, undefined);
    return;
  }
  if (lb.owner === 'lbc' && !ctx.lbcRuns()) {
    if (isLb && !svc.metadata.deletionTimestamp) setHostname(ctx, T.services, svc, undefined);
    return;
  }
  const component = lb.owner === 'lbc' ? 'service' : 'service-controller';
  if (svc.metadata.deletionTimestamp || !isLb) {
    if (!isLb && !svc.metadata.deletionTimestamp) clearHostname(ctx, svc);
    release(ctx, T.services, svc, lb, lb.owner === 'in-tree' ? component : undefined);
    return;
  }
  const due = Date.parse(svc.metadata.creationTimestamp!) + LB_DELAY_MS <= ctx.cluster.now();
  if (lb.owner === 'in-tree' && !due)
    recordEvent(ctx.cluster, svc, 'Normal', 'EnsuringLoadBalancer', 'Ensuring load balancer', component, {
      once: true,
    });
  const made = provision(ctx, T.services, svc, lb, component);
  if (!made || !due) {
    setHostname(ctx, T.services, svc, undefined);
    return;
  }
  if (setHostname(ctx, T.services, svc, lb.hostname)) {
    if (lb.owner === 'lbc')
      recordEvent(ctx.cluster, svc, 'Normal', 'SuccessfullyReconciled', 'Successfully reconciled', component, {
        once: true,
      });
    else
      recordEvent(ctx.cluster, svc, 'Normal', 'EnsuredLoadBalancer', 'Ensured load balancer', component, {
        once: true,
      });
  }
}

function reconcileIngress(ctx: Context, ing: KubeObject, all: KubeObject[]): void {
  const finalizer = ingressFinalizer(ing);
  const alb = isAlbIngress(ing);
  if (!alb && !ing.metadata.finalizers?.includes(finalizer)) return;
  if (!ctx.lbcRuns()) return;
  // An explicit IngressGroup's members share its ALB; an Ingress of no group is a group of its own.
  const members = finalizer.startsWith(LBC_GROUP_FINALIZER_PREFIX)
    ? all.filter(
        (o) =>
          o.metadata.uid !== ing.metadata.uid &&
          !o.metadata.deletionTimestamp &&
          isAlbIngress(o) &&
          ingressFinalizer(o) === finalizer,
      )
    : [];
  const lb = ingressBalancer(ing, members, ctx.cluster.region);
  if (ing.metadata.deletionTimestamp || !alb) {
    release(ctx, T.ingresses, ing, lb, undefined, members.length > 0);
    return;
  }
  if (provision(ctx, T.ingresses, ing, lb, 'ingress') && setHostname(ctx, T.ingresses, ing, lb.hostname))
    recordEvent(ctx.cluster, ing, 'Normal', 'SuccessfullyReconciled', 'Successfully reconciled', 'ingress', {
      once: true,
    });
}

/**
 * The owner's create-or-update: subnets, finalizer, interfaces. False when it failed (a Warning
 * event says why). A memory-only cluster has nothing to make: true at once.
 */
function provision(ctx: Context, type: ResourceType, obj: KubeObject, lb: Balancer, component: string): boolean {
  if (!ctx.vpcId) return true;
  // Made and published already: nothing to look up again (a changed scheme or subnet tags do not move it here).
  const published = (obj.status as Any | undefined)?.loadBalancer?.ingress?.[0]?.hostname;
  if (published === lb.hostname && obj.metadata.finalizers?.includes(lb.finalizer)) return true;
  const lbc = lb.owner === 'lbc';
  // kubernetes/cloud-provider adds its finalizer before EnsureLoadBalancer; the LBC after building its model.
  if (!lbc) addFinalizer(ctx, type, obj, lb.finalizer);
  const vpcSubnets = listVpcSubnets(ctx.state, ctx.cluster.region, ctx.vpcId);
  const resolved = lb.invalid
    ? { error: lb.invalid }
    : lbc
      ? lbcSubnets(vpcSubnets, ctx.cluster.name, lb.scheme, lb.kind === 'application' ? 'application' : 'network')
      : inTreeSubnets(vpcSubnets, ctx.cluster.name, lb.scheme);
  if ('error' in resolved) {
    if (lbc)
      recordEvent(
        ctx.cluster,
        obj,
        'Warning',
        'FailedBuildModel',
        `Failed build model due to ${resolved.error}`,
        component,
        {
          once: true,
        },
      );
    else
      recordEvent(
        ctx.cluster,
        obj,
        'Warning',
        'SyncLoadBalancerFailed',
        `Error syncing load balancer: failed to ensure load balancer: ${resolved.error}`,
        component,
        { once: true },
      );
    return false;
  }
  if (lbc) addFinalizer(ctx, type, obj, lb.finalizer);
  if (networkInterfacesByDescription(ctx.state, ctx.cluster.region, ctx.vpcId, lb.eniDescription).length > 0)
    return true;
  try {
    for (const subnet of resolved.subnets)
      createNetworkInterface(ctx.state, ctx.cluster.region, {
        subnetId: subnet.subnetId,
        groupIds: [],
        description: lb.eniDescription,
        interfaceType: lb.interfaceType,
        requesterId: REQUESTER,
      });
  } catch (err) {
    const reason = lbc ? 'FailedDeployModel' : 'SyncLoadBalancerFailed';
    const message = lbc
      ? `Failed deploy model due to ${(err as Error).message}`
      : `Error syncing load balancer: failed to ensure load balancer: ${(err as Error).message}`;
    recordEvent(ctx.cluster, obj, 'Warning', reason, message, component, { once: true });
    return false;
  }
  return true;
}

/**
 * The owner's delete: the load balancer's interfaces go (unless other members of its IngressGroup
 * still use it), then its finalizer; the API server removes an object being deleted once it has none.
 */
function release(
  ctx: Context,
  type: ResourceType,
  obj: KubeObject,
  lb: Balancer,
  inTreeComponent: string | undefined,
  shared = false,
): void {
  if (!obj.metadata.finalizers?.includes(lb.finalizer)) return;
  if (inTreeComponent)
    recordEvent(ctx.cluster, obj, 'Normal', 'DeletingLoadBalancer', 'Deleting load balancer', inTreeComponent, {
      once: true,
    });
  if (ctx.vpcId && !shared)
    for (const id of networkInterfacesByDescription(ctx.state, ctx.cluster.region, ctx.vpcId, lb.eniDescription))
      deleteNetworkInterface(ctx.state, ctx.cluster.region, id);
  const current = ctx.cluster.objects.get(type, obj.metadata.namespace, obj.metadata.name!);
  if (!current) return;
  const finalizers = (current.metadata.finalizers ?? []).filter((f) => f !== lb.finalizer);
  save(ctx.cluster, type, current, { ...current, metadata: { ...current.metadata, finalizers } });
  if (inTreeComponent)
    recordEvent(ctx.cluster, obj, 'Normal', 'DeletedLoadBalancer', 'Deleted load balancer', inTreeComponent, {
      once: true,
    });
  if (current.metadata.deletionTimestamp) finishPendingDeletions(ctx.cluster);
}

function addFinalizer(ctx: Context, type: ResourceType, obj: KubeObject, finalizer: string): void {
  const current = ctx.cluster.objects.get(type, obj.metadata.namespace, obj.metadata.name!);
  if (!current || current.metadata.finalizers?.includes(finalizer)) return;
  const finalizers = [...(current.metadata.finalizers ?? []), finalizer];
  save(ctx.cluster, type, current, { ...current, metadata: { ...current.metadata, finalizers } });
}

/** Writes `status.loadBalancer` (`{}` while pending); true when the hostname is newly published. */
function setHostname(ctx: Context, type: ResourceType, obj: KubeObject, hostname: string | undefined): boolean {
  const current = ctx.cluster.objects.get(type, obj.metadata.namespace, obj.metadata.name!);
  if (!current) return false;
  const status = (current.status ?? {}) as Any;
  const published = status.loadBalancer?.ingress?.[0]?.hostname;
  if (hostname === undefined) {
    if (status.loadBalancer && !published) return false;
    if (published) return false;
    save(ctx.cluster, type, current, { ...current, status: { ...status, loadBalancer: {} } });
    return false;
  }
  if (published === hostname) return false;
  save(ctx.cluster, type, current, { ...current, status: { ...status, loadBalancer: { ingress: [{ hostname }] } } });
  return true;
}

/** A Service that is no longer of type LoadBalancer loses its load balancer's address. */
function clearHostname(ctx: Context, svc: KubeObject): void {
  const current = ctx.cluster.objects.get(T.services, svc.metadata.namespace, svc.metadata.name!);
  const status = (current?.status ?? {}) as Any;
  if (current && status.loadBalancer?.ingress)
    save(ctx.cluster, T.services, current, { ...current, status: { ...status, loadBalancer: {} } });
}
