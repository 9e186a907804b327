import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { KubeConfig, KubernetesObjectApi, PatchStrategy, type KubernetesObject } from '@kubernetes/client-node';
import { CloudError } from '../../domain/errors.js';
import type { KubeObjectRef, KubePort, ListedKubeObject } from '../ports.js';
import { createEksToken, type CredentialsProvider } from './eks-token.js';

/** Where an EKS cluster's API lives, from DescribeCluster. */
export interface EksEndpoint {
  clusterName: string;
  region: string;
  endpoint: string;
  certificateAuthorityData: string;
}

const FIELD_MANAGER = 'instantstart';

/**
 * A Kubernetes client for one EKS cluster, authenticated with an EKS token (presigned STS URL)
 * made from the same credentials as the AWS SDK — real EKS and the sandbox alike. Objects are
 * applied with server-side apply under the field manager `instantstart`, so a repeat is a no-op
 * and `kubectl` shows who owns each field.
 */
export class KubeClusterClient implements KubePort {
  private token?: { token: string; expiresAt: Date };
  private readonly credentials: CredentialsProvider;

  constructor(
    private readonly target: EksEndpoint,
    credentials?: CredentialsProvider,
  ) {
    this.credentials = credentials ?? defaultProvider();
  }

  /** A current KubeConfig (tokens are refreshed a minute before EKS stops accepting them). */
  private async api(): Promise<KubernetesObjectApi> {
    if (!this.token || this.token.expiresAt.getTime() - Date.now() < 60_000) {
      this.token = await createEksToken({ clusterName: this.target.clusterName, region: this.target.region, credentials: this.credentials });
    }
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: this.target.clusterName, server: this.target.endpoint, caData: this.target.certificateAuthorityData, skipTLSVerify: false }],
      users: [{ name: 'instantstart', token: this.token.token }],
      contexts: [{ name: 'instantstart', cluster: this.target.clusterName, user: 'instantstart' }],
      currentContext: 'instantstart',
    });
    return KubernetesObjectApi.makeApiClient(kc);
  }

  /** Server-side apply of each object, in order. */
  async apply(objects: KubernetesObject[]): Promise<void> {
    const api = await this.api();
    for (const obj of objects) {
      await k8sCall('apply', obj, () => api.patch(obj, undefined, undefined, FIELD_MANAGER, true, PatchStrategy.ServerSideApply));
    }
  }

  /** The object, or undefined when it does not exist. */
  async read(ref: KubeObjectRef): Promise<KubernetesObject | undefined> {
    const api = await this.api();
    try {
      return await api.read({ apiVersion: ref.apiVersion, kind: ref.kind, metadata: { name: ref.name, namespace: ref.namespace } });
    } catch (err) {
      if (statusOf(err) === 404) return undefined;
      throw toKubeError('read', ref, err);
    }
  }

  /** Every object of a kind, 500 per request, following `continue` tokens. */
  async list(apiVersion: string, kind: string, options: { namespace?: string; labelSelector?: string; fieldSelector?: string } = {}): Promise<ListedKubeObject[]> {
    const api = await this.api();
    const out: ListedKubeObject[] = [];
    let continueToken: string | undefined;
    do {
      const page = await api
        .list(apiVersion, kind, options.namespace, undefined, undefined, undefined, options.fieldSelector, options.labelSelector, 500, continueToken)
        .catch((err: unknown) => {
          throw toKubeError('list', { kind, namespace: options.namespace, name: '' }, err);
        });
      out.push(...(page.items as unknown as ListedKubeObject[]));
      continueToken = page.metadata?._continue || undefined;
    } while (continueToken);
    return out;
  }

  async delete(ref: KubeObjectRef): Promise<void> {
    const api = await this.api();
    try {
      await api.delete({ apiVersion: ref.apiVersion, kind: ref.kind, metadata: { name: ref.name, namespace: ref.namespace } });
    } catch (err) {
      if (statusOf(err) !== 404) throw toKubeError('delete', ref, err);
    }
  }
}

function statusOf(err: unknown): number | undefined {
  const e = err as { code?: number; statusCode?: number; response?: { statusCode?: number } };
  return e?.code ?? e?.statusCode ?? e?.response?.statusCode;
}

/** Keeps the Kubernetes status code and message, with the object named, as Headlamp's error type does. */
function toKubeError(verb: string, ref: { kind: string; name?: string; namespace?: string; metadata?: { name?: string; namespace?: string } }, err: unknown): CloudError {
  const status = statusOf(err);
  const body = (err as { body?: unknown }).body;
  const parsed = typeof body === 'string' ? safeJson(body) : (body as { message?: string; reason?: string } | undefined);
  const name = ref.name ?? ref.metadata?.name;
  const ns = ref.namespace ?? ref.metadata?.namespace;
  const message = `${verb} ${ref.kind} ${ns ? `${ns}/` : ''}${name}: ${parsed?.message ?? (err as Error).message}`;
  const retryable = status === undefined || status === 429 || status >= 500;
  return new CloudError('kubernetes', verb, parsed?.reason ?? `Http${status ?? 'Error'}`, message, status, retryable);
}

function safeJson(text: string): { message?: string; reason?: string } | undefined {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function k8sCall<T>(verb: string, obj: KubernetesObject, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw toKubeError(verb, { kind: obj.kind ?? 'object', metadata: obj.metadata }, err);
  }
}
