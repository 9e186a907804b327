import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { createConfiguration, KubeConfig, KubernetesObjectApi, PatchStrategy, ServerConfiguration, type KubernetesObject, type Middleware } from '@kubernetes/client-node';
import { CloudError, cloudTimeout } from '../../domain/errors.js';
import { DEFAULT_CLOUD_TIMEOUTS, secondsOf } from '../timeouts.js';
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
/** Fresh starts of a list whose continue token expired (410) before the 410 is the answer. */
const LIST_RESTARTS = 3;

/**
 * A Kubernetes client for one EKS cluster, authenticated with an EKS token (presigned STS URL)
 * made from the same credentials as the AWS SDK — real EKS and the sandbox alike. Objects are
 * applied with server-side apply under the field manager `instantstart`, so a repeat is a no-op
 * and `kubectl` shows who owns each field. Every request (discovery included) must answer within
 * `requestMs`, or it fails with a retryable `TimeoutError` CloudError naming the cluster and call.
 */
export class KubeClusterClient implements KubePort {
  private token?: { token: string; expiresAt: Date };
  private readonly credentials: CredentialsProvider;
  private readonly requestMs: number;

  constructor(
    private readonly target: EksEndpoint,
    { credentials, requestMs = DEFAULT_CLOUD_TIMEOUTS.requestMs }: { credentials?: CredentialsProvider; requestMs?: number } = {},
  ) {
    this.credentials = credentials ?? defaultProvider();
    this.requestMs = requestMs;
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
    // What kc.makeApiClient builds, plus a deadline on each request: the generated client has no
    // timeout of its own, and a silent API server would otherwise hold the caller forever.
    const deadline: Middleware = {
      pre: async (request) => {
        request.setSignal(AbortSignal.timeout(this.requestMs));
        return request;
      },
      post: async (response) => response,
    };
    const config = createConfiguration({ baseServer: new ServerConfiguration(this.target.endpoint, {}), authMethods: { default: kc }, promiseMiddleware: [deadline] });
    return new KubernetesObjectApi(config);
  }

  /** Server-side apply of each object, in order. */
  async apply(objects: KubernetesObject[]): Promise<void> {
    const api = await this.api();
    for (const obj of objects) {
      await this.call('apply', obj, () => api.patch(obj, undefined, undefined, FIELD_MANAGER, true, PatchStrategy.ServerSideApply));
    }
  }

  /** The object, or undefined when it does not exist. */
  async read(ref: KubeObjectRef): Promise<KubernetesObject | undefined> {
    const api = await this.api();
    try {
      return await api.read({ apiVersion: ref.apiVersion, kind: ref.kind, metadata: { name: ref.name, namespace: ref.namespace } });
    } catch (err) {
      if (statusOf(err) === 404) return undefined;
      throw this.error('read', ref, err);
    }
  }

  /**
   * Every object of a kind, `limit` (500) per request, following `continue` tokens. When the cluster
   * compacted its history while we paged (410 Expired on a continue token, as etcd does on a busy
   * cluster), the list starts again from the first page — up to LIST_RESTARTS times, then the 410 is
   * the answer.
   */
  async list(apiVersion: string, kind: string, options: { namespace?: string; labelSelector?: string; fieldSelector?: string; limit?: number } = {}): Promise<ListedKubeObject[]> {
    const api = await this.api();
    const out: ListedKubeObject[] = [];
    let continueToken: string | undefined;
    for (let restarts = 0; ; ) {
      const page = await api
        .list(apiVersion, kind, options.namespace, undefined, undefined, undefined, options.fieldSelector, options.labelSelector, options.limit ?? 500, continueToken)
        .catch((err: unknown) => {
          if (continueToken && statusOf(err) === 410 && restarts < LIST_RESTARTS) return undefined;
          throw this.error('list', { kind, namespace: options.namespace, name: '' }, err);
        });
      if (!page) {
        restarts++;
        out.length = 0;
        continueToken = undefined;
        continue;
      }
      out.push(...(page.items as unknown as ListedKubeObject[]));
      continueToken = page.metadata?._continue || undefined;
      if (!continueToken) break;
    }
    return out;
  }

  async delete(ref: KubeObjectRef): Promise<void> {
    const api = await this.api();
    try {
      await api.delete({ apiVersion: ref.apiVersion, kind: ref.kind, metadata: { name: ref.name, namespace: ref.namespace } });
    } catch (err) {
      if (statusOf(err) !== 404) throw this.error('delete', ref, err);
    }
  }

  private async call<T>(verb: string, obj: KubernetesObject, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      throw this.error(verb, { kind: obj.kind ?? 'object', metadata: obj.metadata }, err);
    }
  }

  /** A request the API server did not answer in time is a timeout; anything else keeps Kubernetes' own status. */
  private error(verb: string, ref: ObjectNaming, err: unknown): CloudError {
    if ((err as { name?: string })?.name === 'AbortError') {
      return cloudTimeout('kubernetes', `${verb} ${ref.kind}`, secondsOf(this.requestMs), `The Kubernetes API of EKS cluster ${this.target.clusterName}`);
    }
    return toKubeError(verb, ref, err);
  }
}

type ObjectNaming = { kind: string; name?: string; namespace?: string; metadata?: { name?: string; namespace?: string } };

/** The HTTP status of a Kubernetes answer (ApiException's `code`); undefined when there was no answer. */
function statusOf(err: unknown): number | undefined {
  const e = err as { code?: unknown; statusCode?: number; response?: { statusCode?: number } };
  return (typeof e?.code === 'number' ? e.code : undefined) ?? e?.statusCode ?? e?.response?.statusCode;
}

/** Keeps the Kubernetes status code and message, with the object named, as Headlamp's error type does. */
function toKubeError(verb: string, ref: ObjectNaming, err: unknown): CloudError {
  const status = statusOf(err);
  const network = (err as { code?: unknown })?.code;
  if (status === undefined && typeof network === 'string' && /^E[A-Z]+$/.test(network)) {
    // No answer at all (refused, reset, unresolvable): the same retryable code the AWS adapters use.
    return new CloudError('kubernetes', verb, 'NetworkingError', `${verb} ${ref.kind}: could not reach the Kubernetes API (${network}): ${(err as Error).message}`, undefined, true);
  }
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
