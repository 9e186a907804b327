import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxRuntime } from '../core/service.js';
import type { SandboxState } from '../core/store.js';
import { getEksCluster, hasPodIdentityAssociation, listLiveEksClusters } from '../services/eks/public.js';
import { injectAwsIdentity } from './admission/pod-identity-webhook.js';
import { authorize } from './authz.js';
import { mapPrincipal, verifyEksToken } from './auth.js';
import { makeKubeCluster, type ContainerWorld, type KubeCluster } from './cluster.js';
import { hubEndpointOf } from '../services/huggingface/http.js';
import { writeObject } from '../services/s3/public.js';
import { bootstrapCluster, runControllers } from './controllers/index.js';
import { handleKubeApi } from './api/router.js';
import { KubeError, unauthorized } from './errors.js';
import { emptyClusterKubeState, type ClusterKubeState } from './objects.js';
import { builtinType } from './resources.js';

/**
 * The Kubernetes side of the sandbox: one API per live EKS cluster (ACTIVE or UPDATING), served
 * over HTTPS on the sandbox's own port at `/k8s/<endpoint id>`, and the simulated controllers that
 * run on every tick. A cluster's objects live in `state.kube[<EKS cluster ARN>]` and go with it.
 */

interface StoredKubeCluster extends ClusterKubeState {
  bootstrapped?: boolean;
  /** ContainerWorld.memory: what container runs remember (keyed by pod uid, container and run). */
  processes?: Record<string, unknown>;
}

const SERVICE_ACCOUNTS = builtinType('', 'serviceaccounts');

const ENDPOINT_PATH = /^\/k8s\/([0-9a-f]{32})(\/[^?]*)?(\?.*)?$/;

export class KubernetesApis {
  private readonly handles = new Map<string, { data: StoredKubeCluster; cluster: KubeCluster }>();

  constructor(private readonly runtime: SandboxRuntime) {}

  /** Runs bootstrap (once per cluster) and the controllers of every live cluster; forgets deleted ones. */
  tick(state: SandboxState, now: number): void {
    const live = listLiveEksClusters(state);
    const sections = kubeSection(state);
    for (const arn of Object.keys(sections)) {
      if (!live.some((c) => c.arn === arn) && !isEksClusterStillThere(state, arn)) {
        delete sections[arn];
        this.handles.delete(arn);
        this.runtime.store.markDirty();
      }
    }
    for (const c of live) {
      const cluster = this.clusterHandle(state, c);
      const data = sections[c.arn]!;
      const ctx = { state, now, runtime: this.runtime };
      if (!data.bootstrapped) {
        bootstrapCluster(cluster, ctx);
        data.bootstrapped = true;
        this.runtime.store.markDirty();
      }
      runControllers(cluster, ctx);
    }
  }

  /**
   * The Kubernetes side of a live EKS cluster by name, for the admin API: `ambiguous` when clusters
   * of that name live in several Regions and none was named.
   */
  clusterNamed(name: string, region?: string): KubeCluster | 'ambiguous' | undefined {
    const state = this.runtime.store.state;
    const found = listLiveEksClusters(state).filter(
      (c) => c.name === name && (region === undefined || c.region === region),
    );
    if (found.length > 1) return 'ambiguous';
    return found[0] ? this.clusterHandle(state, found[0]) : undefined;
  }

  /** Serves an HTTPS request; false when the path is not a cluster endpoint. */
  async serve(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const state = this.runtime.store.state;
    const m = ENDPOINT_PATH.exec(req.url ?? '/') ?? this.unprefixed(state, req);
    if (!m) return false;
    const live = listLiveEksClusters(state).find((c) => c.endpointId === m[1]);
    try {
      if (!live)
        throw new KubeError(
          404,
          'NotFound',
          'no sandbox EKS cluster serves this endpoint (it was deleted, or is not ACTIVE yet)',
        );
      const cluster = this.clusterHandle(state, live);
      const principal = verifyEksToken(req.headers.authorization, live.name);
      const who = principal ? mapPrincipal(state, cluster, principal) : undefined;
      if (!who) throw unauthorized();
      if (resumesHistory(req.method, m[3]) && this.runtime.faults.takeCompaction(live.name)) cluster.objects.compact();
      const ctx = {
        cluster,
        user: who.user,
        authorize: (
          verb: Parameters<typeof authorize>[2],
          type: Parameters<typeof authorize>[3],
          ns: string | undefined,
          sub?: string,
        ) => authorize(cluster, who, verb, type, ns, sub),
      };
      await handleKubeApi(req, res, `${m[2] ?? '/'}${m[3] ?? ''}`, ctx);
    } catch (err) {
      const e =
        err instanceof KubeError
          ? err
          : new KubeError(500, 'InternalError', err instanceof Error ? err.message : String(err));
      if (!(err instanceof KubeError))
        process.stderr.write(`sandbox kube: ${err instanceof Error ? err.stack : String(err)}\n`);
      if (!res.headersSent) res.writeHead(e.code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(e.toStatus()));
    }
    return true;
  }

  /**
   * A Kubernetes path without the `/k8s/<endpoint id>` prefix (`kubectl get --raw` replaces the whole
   * path of the server URL), as the match of ENDPOINT_PATH for the one live cluster its EKS token was
   * signed for (the token names the cluster in its signed `x-k8s-aws-id` header). Assumed: EKS serves
   * each cluster at its own host, the sandbox all of them on one port.
   */
  private unprefixed(state: SandboxState, req: IncomingMessage): RegExpExecArray | undefined {
    const url = req.url ?? '/';
    if (!/^\/(api|apis|version|openapi)(\/|\?|$)/.test(url) || !req.headers.authorization) return undefined;
    const signedFor = listLiveEksClusters(state).filter((c) => verifyEksToken(req.headers.authorization, c.name));
    if (signedFor.length !== 1) return undefined;
    return ENDPOINT_PATH.exec(`/k8s/${signedFor[0]!.endpointId}${url}`) ?? undefined;
  }

  private clusterHandle(
    state: SandboxState,
    eks: { arn: string; name: string; region: string; version: string },
  ): KubeCluster {
    const sections = kubeSection(state);
    const data = (sections[eks.arn] ??= emptyClusterKubeState());
    const cached = this.handles.get(eks.arn);
    if (cached && cached.data === data) return cached.cluster;
    const cluster = makeKubeCluster(
      { arn: eks.arn, name: eks.name, region: eks.region, kubernetesVersion: eks.version },
      data,
      {
        now: () => this.runtime.clock.now(),
        changed: () => this.runtime.store.markDirty(),
        admit: (self, type, obj) => {
          if (type.group !== '' || type.resource !== 'pods') return;
          injectAwsIdentity(obj, {
            region: eks.region,
            serviceAccount: (ns, name) => self.objects.get(SERVICE_ACCOUNTS, ns, name),
            hasPodIdentityAssociation: (ns, sa) =>
              hasPodIdentityAssociation(this.runtime.store.state, eks.region, eks.name, ns, sa),
          });
        },
        world: this.worldOf(data),
      },
    );
    this.handles.set(eks.arn, { data, cluster });
    return cluster;
  }

  /** What the cluster's containers reach beyond it (cluster.ts, ContainerWorld). */
  private worldOf(data: StoredKubeCluster): ContainerWorld {
    const runtime = this.runtime;
    const memory = () => (data.processes ??= {});
    return {
      hubEndpoint: () => hubEndpointOf(runtime.endpointUrl),
      putObject: (bucket, key, body) =>
        writeObject(runtime, runtime.store.state, bucket, key, body, runtime.clock.now()),
      memory: {
        get: (key) => (data.processes && Object.hasOwn(data.processes, key) ? data.processes[key] : undefined),
        set: (key, value) => {
          Object.defineProperty(memory(), key, { value, writable: true, enumerable: true, configurable: true });
          runtime.store.markDirty();
        },
        delete: (key) => {
          if (data.processes && Object.hasOwn(data.processes, key)) {
            delete data.processes[key];
            runtime.store.markDirty();
          }
        },
        keys: () => Object.keys(data.processes ?? {}),
      },
    };
  }
}

/**
 * A list that continues, or a watch that resumes from a resourceVersion: the requests a
 * kube-compaction fault compacts the history before, as when etcd compacts while a client pages or
 * reconnects.
 */
function resumesHistory(method: string | undefined, search: string | undefined): boolean {
  if ((method ?? 'GET') !== 'GET' || !search) return false;
  const q = new URLSearchParams(search.slice(1));
  if (q.get('continue')) return true;
  return ['true', '1'].includes(q.get('watch') ?? '') && !['', '0'].includes(q.get('resourceVersion') ?? '');
}

function kubeSection(state: SandboxState): Record<string, StoredKubeCluster> {
  return (state.kube ??= {}) as Record<string, StoredKubeCluster>;
}

/** A cluster that is DELETING keeps its objects until EKS removes it (its API is gone already). */
function isEksClusterStillThere(state: SandboxState, arn: string): boolean {
  const [, , , region, , resource] = arn.split(':');
  const name = resource?.split('/')[1];
  return Boolean(region && name && getEksCluster(state, region, name));
}
