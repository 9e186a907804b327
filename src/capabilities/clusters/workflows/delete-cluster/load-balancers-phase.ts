import { holderName, holderWaitWords, type LoadBalancerHolder } from '../../../../domain/kube-load-balancers.js';
import type { KubePort } from '../../../../cloud/ports.js';
import type { WorkflowDeps } from '../../../../workflows/context.js';
import {
  holderKind,
  readInferenceEndpointObjects,
  readLoadBalancerHolders,
} from '../../../../workflows/load-balancer-holders.js';
import { names, type Ctx, type Phase } from './types.js';

// First of all: the load balancers Kubernetes objects made in the cluster's VPC (src/domain/kube-load-balancers.ts
// says why). They are deleted through the objects that made them, while the nodes their controller runs on are there.

/** The cluster's Kubernetes API, or undefined when there is none to ask (no EKS cluster, or one not ACTIVE: the state says which). */
async function kubeOf(deps: WorkflowDeps, ctx: Ctx): Promise<KubePort | undefined> {
  const { eksCluster } = await names(deps, ctx);
  const eks = await deps.cloud.eks.describeCluster(ctx.input.region, eksCluster);
  if (eks?.status !== 'ACTIVE') {
    ctx.setState({
      loadBalancersUnchecked: eks ? `EKS cluster ${eksCluster} is ${eks.status}` : `no EKS cluster ${eksCluster}`,
    });
    return undefined;
  }
  if (ctx.state.loadBalancersUnchecked) ctx.setState({ loadBalancersUnchecked: undefined });
  return deps.cloud.kube(ctx.input.region, eksCluster);
}

async function holders(deps: WorkflowDeps, ctx: Ctx): Promise<LoadBalancerHolder[] | undefined> {
  const kube = await kubeOf(deps, ctx);
  return kube && (await readLoadBalancerHolders(kube));
}

export function loadBalancersPhase(deps: WorkflowDeps): Phase {
  return {
    name: 'load-balancers',
    title: 'Delete the load balancers Kubernetes made (inference endpoints, LoadBalancer Services, ALB Ingresses)',
    expectedSeconds: 60,
    // A load balancer's deletion takes a minute or two; its controller removes the finalizer once it is gone.
    deadline: { actSeconds: 300, waitSeconds: 900 },
    onFailure: 'continue',
    async observe(ctx) {
      const found = await holders(deps, ctx);
      if (!found) {
        ctx.log(
          `No Kubernetes API to ask (${ctx.state.loadBalancersUnchecked}): a load balancer its Services or Ingresses made, if any, is left to the network phase to name`,
        );
        return 'done';
      }
      if (found.length === 0) return 'done';
      return found.every((h) => h.deleting) ? 'in-progress' : 'needs-act';
    },
    async act(ctx) {
      const kube = await kubeOf(deps, ctx);
      if (!kube) return;
      // The endpoints first: their operator would make again an Ingress deleted under a live endpoint.
      for (const { kind, object: o } of await readInferenceEndpointObjects(kube)) {
        if (o.metadata.deletionTimestamp) continue;
        await kube.delete(kind, o.metadata.name, o.metadata.namespace);
        ctx.log(
          `Deleting ${o.kind} ${o.metadata.namespace}/${o.metadata.name} (its operator removes its load balancer)`,
        );
      }
      for (const h of await readLoadBalancerHolders(kube)) {
        // What an endpoint owns goes with it (garbage collection); deleting it here would race its operator.
        if (h.deleting || h.ownedByEndpoint) continue;
        await kube.delete(holderKind(h), h.name, h.namespace);
        ctx.log(`Deleting ${holderName(h)}${h.address ? ` and its load balancer ${h.address}` : ''}`);
      }
    },
    pollKey: (ctx) => `eks:${ctx.input.region}:load-balancers:${ctx.input.name}`,
    async await(ctx) {
      const left = await holders(deps, ctx);
      if (!left || left.length === 0) return { done: true, progress: 'load balancers deleted' };
      // One not being deleted yet (an endpoint's Ingress its owner's deletion has not reached): act deletes it.
      if (left.some((h) => !h.deleting && !h.ownedByEndpoint))
        return { done: false, observeAgain: true, progress: `${left.length} load balancer(s) left` };
      return { done: false, progress: `waiting for ${left.map(holderWaitWords).join('; ')}` };
    },
  };
}
