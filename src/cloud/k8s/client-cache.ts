import { KubeApiUnavailable } from '../../domain/kube/errors.js';
import type { CloudObserver } from '../observer.js';
import type { EksCluster } from '../ports.js';
import type { CredentialsProvider } from '../aws/eks-token.js';
import { KubeClusterClient } from './cluster-client.js';

/**
 * One Kubernetes client per EKS cluster (keyed by Region and name), made on first use from one
 * DescribeCluster (endpoint and CA) and kept: its token renews itself, so a server that reads a
 * cluster's nodes every few seconds asks AWS for the endpoint once, not on every read. An entry goes
 * when the cluster does — `forget` (delete-cluster), or nothing answering at its endpoint any more —
 * and the next use describes the cluster again. Concurrent first uses share one DescribeCluster.
 */
export interface KubeClientsOptions {
  requestMs?: number;
  credentials?: CredentialsProvider;
  now?: () => number;
  /** Told of every object applied through the clients (src/cloud/observer.ts). */
  observer?: CloudObserver;
}

/** EKS statuses in which the cluster's API serves requests. */
const SERVING = new Set(['ACTIVE', 'UPDATING']);

export class KubeClients {
  private readonly entries = new Map<string, Promise<KubeClusterClient>>();

  constructor(
    private readonly describe: (region: string, name: string) => Promise<EksCluster | undefined>,
    private readonly options: KubeClientsOptions = {},
  ) {}

  get(region: string, name: string): Promise<KubeClusterClient> {
    const key = `${region}\n${name}`;
    const cached = this.entries.get(key);
    if (cached) return cached;
    const opening = this.open(region, name, key);
    this.entries.set(key, opening);
    // A cluster without an endpoint (still CREATING) is asked about again next time.
    opening.catch(() => this.drop(key, opening));
    return opening;
  }

  forget(region: string, name: string): void {
    const key = `${region}\n${name}`;
    const entry = this.entries.get(key);
    if (entry) this.drop(key, entry);
  }

  private async open(region: string, name: string, key: string): Promise<KubeClusterClient> {
    const c = await this.describe(region, name);
    // A DELETING cluster still reports its endpoint, but it is going: do not cache a client for it.
    if (!c?.endpoint || !c.certificateAuthority?.data || !SERVING.has(c.status ?? ''))
      throw new KubeApiUnavailable({ cluster: name, status: c?.status });
    let self: Promise<KubeClusterClient> | undefined;
    const client = new KubeClusterClient(
      { clusterName: name, region, endpoint: c.endpoint, certificateAuthorityData: c.certificateAuthority.data },
      {
        requestMs: this.options.requestMs,
        credentials: this.options.credentials,
        now: this.options.now,
        observer: this.options.observer,
        onUnreachable: () => self && this.drop(key, self),
      },
    );
    self = this.entries.get(key);
    return client;
  }

  private drop(key: string, entry: Promise<KubeClusterClient>): void {
    // Holders of the dropped client may still finish what they started with it; its idle keep-alive
    // sockets are unreferenced, so they hold nothing up.
    if (this.entries.get(key) === entry) this.entries.delete(key);
  }
}
