import type { SandboxRuntime } from '../../core/service.js';
import type { SandboxState } from '../../core/store.js';
import { eksKubernetesSetup } from '../../services/eks/public.js';
import { bucketRegion } from '../../services/s3/public.js';
import type { KubeCluster } from '../cluster.js';
import { materialiseAddons } from './addons.js';
import { bootstrap, clusterDnsIp, ensureNamespaceBasics, type ClusterSetup } from './bootstrap.js';
import { runDaemonSets } from './daemonsets.js';
import { runDeployments } from './deployments.js';
import { expireEvents } from './events.js';
import { collectGarbage } from './gc.js';
import { syncHyperPodNodes } from './hyperpod-nodes.js';
import { landHfDownloads } from './hf-download.js';
import { runInferenceOperator } from './inference-operator.js';
import { runJobs } from './jobs.js';
import { runKeda } from './keda.js';
import { runKarpenter } from './karpenter.js';
import { reportToMlflow } from './mlflow-reporter.js';
import { runNodeLifecycle } from './node-lifecycle.js';
import { runRayClusters } from './kuberay-clusters.js';
import { runRayJobs } from './kuberay-jobs.js';
import { runLoadBalancers } from './load-balancers.js';
import { runKubelets } from './pod-lifecycle.js';
import { runReplicaSets } from './replicasets.js';
import { schedule } from './scheduler.js';
import { runServices } from './services.js';
import { runStatefulSets } from './statefulsets.js';
import { runTrainingOperator } from './training-operator.js';
import { bindVolumes } from './volume-binding.js';

export interface ControllerContext {
  state: SandboxState;
  now: number;
  runtime: SandboxRuntime;
}

const MIN_INTERVAL_MS = 100;
const lastRun = new WeakMap<KubeCluster, number>();

/** The EKS cluster's settings that shape its Kubernetes side (defaults for a cluster EKS does not know, as in unit tests). */
function setupOf(cluster: KubeCluster, ctx: ControllerContext): ClusterSetup {
  const eks = eksKubernetesSetup(ctx.state, cluster.region, cluster.name);
  const caPem = (ctx.runtime as SandboxRuntime | undefined)?.ca?.certificatePem;
  return {
    serviceCidr: eks?.serviceIpv4Cidr ?? '172.20.0.0/16',
    kubernetesVersion: eks?.version ?? cluster.kubernetesVersion ?? '1.35',
    selfManagedAddons: eks?.bootstrapSelfManagedAddons ?? false,
    ...(caPem ? { caPem } : {}),
  };
}

/** Once, when a cluster's Kubernetes API first comes up: default namespaces, service accounts, system objects, self-managed add-ons. Idempotent. */
export function bootstrapCluster(cluster: KubeCluster, ctx: ControllerContext): void {
  bootstrap(cluster, setupOf(cluster, ctx));
}

/**
 * Every sandbox tick, for every live cluster, in the order the real control loops settle: nodes
 * and add-ons from the AWS side, node lifecycle, volume binding, the workload controllers, the
 * operators of custom resources (HyperPod training, KubeRay), HyperPod's Karpenter (when
 * autoscaling is on), the scheduler, the
 * kubelets, services and endpoints, load balancers, then garbage collection. Each step is an idempotent function of
 * the stored objects and sandbox time.
 */
export function runControllers(cluster: KubeCluster, ctx: ControllerContext): void {
  // Ticks also come with every API request; a pass per 100 ms of sandbox time is as fast as anyone can notice.
  const now = cluster.now();
  if (now - (lastRun.get(cluster) ?? -Infinity) < MIN_INTERVAL_MS) return;
  lastRun.set(cluster, now);
  const setup = setupOf(cluster, ctx);
  ensureNamespaceBasics(cluster, setup.caPem);
  syncHyperPodNodes(cluster, ctx.state, setup.kubernetesVersion);
  materialiseAddons(cluster, ctx.state, clusterDnsIp(setup.serviceCidr));
  runNodeLifecycle(cluster);
  bindVolumes(cluster);
  runDeployments(cluster);
  runReplicaSets(cluster);
  runStatefulSets(cluster);
  runDaemonSets(cluster);
  // The operators of custom resources, only while their CRDs are served. A RayJob's cluster and
  // submitter Job get their pods in the same pass.
  runRayJobs(cluster);
  runRayClusters(cluster);
  runJobs(cluster);
  runTrainingOperator(cluster);
  runInferenceOperator(cluster, ctx.state);
  // KEDA scales what the operators made (and any Deployment a ScaledObject names) before the scheduler places the pods.
  runKeda(cluster);
  // HyperPod's Karpenter acts on what the last scheduling pass left Pending and labels new nodes before this one.
  runKarpenter(cluster, ctx.state, (ctx.runtime as SandboxRuntime | undefined)?.faults);
  schedule(cluster);
  const faults = (ctx.runtime as SandboxRuntime | undefined)?.faults;
  runKubelets(
    cluster,
    { bucketRegion: (bucket) => bucketRegion(ctx.state, bucket) },
    faults && ((image) => faults.imagePullFailure(cluster.name, image)),
  );
  // What the containers just wrote to their S3 volumes lands before anyone sees them finished.
  landHfDownloads(cluster);
  reportToMlflow(cluster, ctx.state, ctx.runtime as SandboxRuntime | undefined);
  runServices(cluster, setup.serviceCidr);
  // The load balancer controllers (EKS's in-tree one, the AWS Load Balancer Controller while it runs) act on the Services and Ingresses as they now are.
  runLoadBalancers(cluster, ctx.state);
  collectGarbage(cluster);
  expireEvents(cluster);
}
