import type { IncomingHttpHeaders } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { Log, Watch } from '@kubernetes/client-node';
import { tell, type CloudObserver } from '../observer.js';
import { DEFAULT_CLOUD_TIMEOUTS } from '../timeouts.js';
import {
  KubeError,
  KubeExpired,
  KubeKindNotServed,
  KubeNotFound,
  type KubeObjectNaming,
} from '../../domain/kube/errors.js';
import { knownKind } from '../../domain/kube/index.js';
import { kubeKind, parseBase, qualifiedKind, type KubeKind, type KubeResource } from '../../domain/kube/kind.js';
import { POD } from '../../domain/kube/pod.js';
import type { KubeObject } from '../../domain/kube-object.js';
import type {
  KubeListOptions,
  KubeLogOptions,
  KubePage,
  KubePort,
  KubeServiceProxyAnswer,
  ProxiedAnswerHeaders,
  KubeServiceProxyRequest,
  KubeWatchEvent,
  KubeWatchOptions,
} from '../ports.js';
import { answerError, endpointGone, noAnswerError, parseStatus } from './errors.js';
import type { CredentialsProvider } from '../aws/eks-token.js';
import { EksTokenSource } from '../aws/eks-token-source.js';
import { KubeTransport, statusOf, type EksEndpoint, type KubeRequest, type KubeResponse } from './transport.js';
import { WATCH_SECONDS, watchKind } from './watch.js';

export type { EksEndpoint };

const FIELD_MANAGER = 'instantstart';
const PAGE = 500;
/** Restarts of a list whose continue token expired before it gives up (KubeExpired). */
const LIST_RESTARTS = 3;

export interface KubeClusterClientOptions {
  credentials?: CredentialsProvider;
  requestMs?: number;
  /** Epoch ms for the token's age (tests move it). */
  now?: () => number;
  /** Told when the endpoint stops answering, so the cache that made this client can forget it. */
  onUnreachable?: () => void;
  /** Told of every object this client applies (src/cloud/observer.ts). */
  observer?: CloudObserver;
}

const apiPath = (apiVersion: string) => (apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`);
const enc = encodeURIComponent;

function collectionPath(kind: KubeKind, namespace?: string): string {
  return `${apiPath(kind.apiVersion)}${kind.namespaced && namespace !== undefined ? `/namespaces/${enc(namespace)}` : ''}/${kind.plural}`;
}

/** Namespaced objects named without a namespace live in `default`, as kubectl assumes. */
const objectPath = (kind: KubeKind, name: string, namespace?: string) =>
  `${collectionPath(kind, kind.namespaced ? (namespace ?? 'default') : undefined)}/${enc(name)}`;

/**
 * A Kubernetes client for one EKS cluster (see KubePort), authenticated with an EKS token made from
 * the same credentials as the AWS SDK — real EKS and the sandbox alike. Objects are written with
 * server-side apply under the field manager `instantstart`, so a repeat is a no-op and `kubectl`
 * shows who owns each field. Every request must answer within `requestMs`, or it fails with a
 * retryable TimeoutError naming the cluster and the call.
 */
export class KubeClusterClient implements KubePort {
  private readonly transport: KubeTransport;
  private readonly observer: CloudObserver | undefined;

  constructor(target: EksEndpoint, options: KubeClusterClientOptions = {}) {
    this.observer = options.observer;
    const tokens = new EksTokenSource({
      clusterName: target.clusterName,
      region: target.region,
      credentials: options.credentials,
      now: options.now,
    });
    this.transport = new KubeTransport(
      target,
      tokens,
      options.requestMs ?? DEFAULT_CLOUD_TIMEOUTS.requestMs,
      options.onUnreachable,
    );
  }

  get cluster(): string {
    return this.transport.target.clusterName;
  }

  async get<T extends KubeResource>(kind: KubeKind<T>, name: string, namespace?: string): Promise<T> {
    return kind.parse(
      await this.json(kind, 'get', { name, namespace }, { method: 'GET', path: objectPath(kind, name, namespace) }),
    );
  }

  async find<T extends KubeResource>(kind: KubeKind<T>, name: string, namespace?: string): Promise<T | undefined> {
    try {
      return await this.get(kind, name, namespace);
    } catch (err) {
      if (err instanceof KubeNotFound) return undefined;
      throw err;
    }
  }

  async current(manifest: KubeObject): Promise<KubeResource | undefined> {
    try {
      return await this.find(await this.kindOf(manifest), manifest.metadata.name, manifest.metadata.namespace);
    } catch (err) {
      if (err instanceof KubeKindNotServed) return undefined;
      throw err;
    }
  }

  async listPage<T extends KubeResource>(
    kind: KubeKind<T>,
    options: KubeListOptions & { continue?: string } = {},
  ): Promise<KubePage<T>> {
    const query = {
      labelSelector: options.labelSelector,
      fieldSelector: options.fieldSelector,
      limit: options.limit ?? PAGE,
      continue: options.continue,
    };
    const body = (await this.json(
      kind,
      'list',
      { namespace: options.namespace },
      { method: 'GET', path: collectionPath(kind, options.namespace), query },
    )) as {
      metadata?: { resourceVersion?: string; continue?: string };
      items?: unknown[];
    };
    const items = (Array.isArray(body.items) ? body.items : []).map((i) => kind.parse(i));
    return {
      items,
      resourceVersion: body.metadata?.resourceVersion ?? '',
      ...(body.metadata?.continue ? { continue: body.metadata.continue } : {}),
    };
  }

  async list<T extends KubeResource>(kind: KubeKind<T>, options: KubeListOptions = {}): Promise<T[]> {
    return (await this.listAll(kind, options)).items;
  }

  /**
   * Every page. When the cluster compacted its history while we paged (410 Expired on a continue
   * token: large, busy clusters), the pages so far are no consistent snapshot: start over, as
   * client-go's pager does, a few times before giving up.
   */
  private async listAll<T extends KubeResource>(kind: KubeKind<T>, options: KubeListOptions): Promise<KubePage<T>> {
    for (let attempt = 0; attempt <= LIST_RESTARTS; attempt++) {
      const items: T[] = [];
      let page: KubePage<T> | undefined;
      let resourceVersion = '';
      try {
        do {
          page = await this.listPage(kind, { ...options, ...(page?.continue ? { continue: page.continue } : {}) });
          resourceVersion ||= page.resourceVersion;
          items.push(...page.items);
        } while (page.continue);
        return { items, resourceVersion };
      } catch (err) {
        if (!(err instanceof KubeError && err.httpStatus === 410)) throw err;
      }
    }
    throw new KubeExpired({
      object: this.naming(kind, { namespace: options.namespace }),
      verb: 'list',
      attempts: LIST_RESTARTS + 1,
    });
  }

  watch<T extends KubeResource>(kind: KubeKind<T>, options: KubeWatchOptions = {}): AsyncIterable<KubeWatchEvent<T>> {
    return watchKind(
      {
        listAll: (k, o) => this.listAll(k, o),
        openStream: (k, o, onEvent, onDone) => this.openWatch(k, o, onEvent, onDone),
        statusError: (k, s) =>
          answerError(this.naming(k, {}), 'watch', s.code ?? 500, JSON.stringify({ kind: 'Status', ...s })),
      },
      kind,
      options,
    );
  }

  async apply<T extends KubeResource>(kind: KubeKind<T>, manifest: KubeObject): Promise<T> {
    const { name, namespace } = manifest.metadata;
    const body = { ...manifest, apiVersion: kind.apiVersion, kind: kind.kind };
    const req: KubeRequest = {
      method: 'PATCH',
      path: objectPath(kind, name, namespace),
      query: { fieldManager: FIELD_MANAGER, force: true },
      body,
      // JSON is YAML: the apply patch type takes either.
      contentType: 'application/apply-patch+yaml',
    };
    tell(this.observer?.kubeApply, { region: this.transport.target.region, cluster: this.cluster, object: body });
    return kind.parse(await this.json(kind, 'apply', { name, namespace }, req));
  }

  async applyAll(manifests: readonly KubeObject[]): Promise<void> {
    for (const m of manifests) await this.apply(await this.kindOf(m), m);
  }

  async mergePatch<T extends KubeResource>(
    kind: KubeKind<T>,
    name: string,
    namespace: string | undefined,
    patch: Record<string, unknown>,
  ): Promise<T> {
    const req: KubeRequest = {
      method: 'PATCH',
      path: objectPath(kind, name, namespace),
      query: { fieldManager: FIELD_MANAGER },
      body: patch,
      contentType: 'application/merge-patch+json',
    };
    const patched = kind.parse(await this.json(kind, 'patch', { name, namespace }, req));
    this.wrote('patch', kind, name, namespace);
    return patched;
  }

  /** Tells the observer of a write that is not an apply (the audit trail's Kubernetes refs). */
  private wrote(verb: 'patch' | 'scale' | 'delete', kind: KubeKind, name: string, namespace: string | undefined): void {
    tell(this.observer?.kubeWrite, {
      region: this.transport.target.region,
      cluster: this.cluster,
      verb,
      apiVersion: kind.apiVersion,
      kind: kind.kind,
      name,
      ...(namespace ? { namespace } : {}),
    });
  }

  async scale(kind: KubeKind, name: string, namespace: string | undefined, replicas: number): Promise<void> {
    // The scale subresource (autoscaling/v1 Scale): what kubectl scale and the HPA write.
    await this.json(
      kind,
      'scale',
      { name, namespace },
      {
        method: 'PATCH',
        path: `${objectPath(kind, name, namespace)}/scale`,
        query: { fieldManager: FIELD_MANAGER },
        body: { spec: { replicas } },
        contentType: 'application/merge-patch+json',
      },
    );
    this.wrote('scale', kind, name, namespace);
  }

  async deleteObject(manifest: KubeObject): Promise<boolean> {
    let kind: KubeKind;
    try {
      kind = await this.kindOf(manifest);
    } catch (err) {
      // A kind the cluster no longer serves (its CRD went first) has no object left to delete.
      if (err instanceof KubeKindNotServed) return false;
      throw err;
    }
    return this.delete(kind, manifest.metadata.name, manifest.metadata.namespace);
  }

  async delete<T extends KubeResource>(kind: KubeKind<T>, name: string, namespace?: string): Promise<boolean> {
    try {
      await this.json(
        kind,
        'delete',
        { name, namespace },
        { method: 'DELETE', path: objectPath(kind, name, namespace), query: { propagationPolicy: 'Background' } },
      );
      this.wrote('delete', kind, name, namespace);
      return true;
    } catch (err) {
      if (err instanceof KubeNotFound || err instanceof KubeKindNotServed) return false;
      throw err;
    }
  }

  async logs(pod: { name: string; namespace: string }, options: KubeLogOptions = {}): Promise<Readable> {
    const naming = this.naming(POD, pod);
    let container = options.container;
    if (!container) {
      const p = await this.get(POD, pod.name, pod.namespace);
      if (p.spec.containers.length !== 1) {
        throw new KubeError({
          object: naming,
          verb: 'logs',
          code: 'BadRequest',
          message: `Pod ${pod.namespace}/${pod.name} has containers ${p.spec.containers.join(', ')}: name the one whose log to read.`,
          httpStatus: 400,
          retryable: false,
        });
      }
      container = p.spec.containers[0]!;
    }
    const out = new PassThrough();
    const logOptions = {
      follow: options.follow,
      tailLines: options.tailLines,
      sinceSeconds: options.sinceSeconds,
      sinceTime: options.sinceTime,
      limitBytes: options.limitBytes,
      previous: options.previous,
      timestamps: options.timestamps,
    };
    try {
      const controller = await this.transport.withKubeConfig((kc) =>
        new Log(kc).log(pod.namespace, pod.name, container!, out, logOptions),
      );
      const stop = () => {
        controller.abort();
        out.end();
      };
      if (options.signal?.aborted) stop();
      else options.signal?.addEventListener('abort', stop, { once: true });
    } catch (err) {
      const status = statusOf(err);
      if (status === 404) throw new KubeNotFound({ object: naming, verb: 'logs' });
      if (status !== undefined)
        throw answerError(naming, 'logs', status, JSON.stringify((err as { body?: unknown }).body ?? ''));
      throw noAnswerError(naming, 'logs', err, this.transport.deadlineMs);
    }
    return out;
  }

  async proxyService(r: KubeServiceProxyRequest): Promise<KubeServiceProxyAnswer> {
    const naming = { cluster: this.cluster, kind: 'Service', namespace: r.namespace, name: r.service };
    // The proxy subresource (Kubernetes API: core/v1 Service `proxy`); the path after it goes to the Service as is.
    const path =
      `/api/v1/namespaces/${enc(r.namespace)}/services/${enc(`${r.service}:${r.port}`)}/proxy/` +
      r.path.replace(/^\/+/, '').split('/').map(enc).join('/');
    try {
      const res = await this.transport.stream({
        method: r.method,
        path,
        ...(r.body !== undefined ? { body: r.body } : {}),
        ...(r.accept ? { accept: r.accept } : {}),
        ...(r.signal ? { signal: r.signal } : {}),
        ...(r.headersMs ? { headersMs: r.headersMs } : {}),
      });
      return { status: res.status, headers: proxiedHeaders(res.headers), body: res.body };
    } catch (err) {
      throw noAnswerError(naming, 'proxy', err, r.headersMs ?? this.transport.deadlineMs);
    }
  }

  // ── internals ──────────────────────────────────────────────────────────────────────────────────
  private naming(
    kind: { apiVersion: string; kind: string },
    o: { name?: string; namespace?: string },
  ): KubeObjectNaming {
    return {
      cluster: this.cluster,
      kind: qualifiedKind(kind),
      ...(o.namespace !== undefined ? { namespace: o.namespace } : {}),
      ...(o.name !== undefined ? { name: o.name } : {}),
    };
  }

  /** Sends, and turns every failure into a typed error naming the object. */
  private async json(
    kind: KubeKind,
    verb: string,
    o: { name?: string; namespace?: string },
    req: KubeRequest,
  ): Promise<unknown> {
    const naming = this.naming(kind, o);
    let res: KubeResponse;
    try {
      res = await this.transport.send(req);
    } catch (err) {
      throw noAnswerError(naming, verb, err, this.transport.deadlineMs);
    }
    if (res.status >= 200 && res.status < 300) return JSON.parse(res.body) as unknown;
    if (res.status === 404) throw await this.notFound(kind, naming, verb, res);
    throw answerError(naming, verb, res.status, res.body);
  }

  /**
   * A 404 means the object is missing, or the whole kind is: the Status names the object when it
   * is the object; otherwise discovery decides — the group version lists the kind (object
   * missing), does not (kind not served: no CRD), or the endpoint serves no Kubernetes at all.
   */
  private async notFound(kind: KubeKind, naming: KubeObjectNaming, verb: string, res: KubeResponse): Promise<Error> {
    const status = parseStatus(res.body);
    if (naming.name !== undefined && status?.reason === 'NotFound' && status.details?.name === naming.name)
      return new KubeNotFound({ object: naming, verb });
    const served = await this.serves(kind.apiVersion, kind.kind, naming, verb);
    if (served === 'no-api') {
      this.transport.endpointGone();
      return endpointGone(naming, verb);
    }
    if (!served) return new KubeKindNotServed({ object: naming, verb, installedBy: kind.installedBy });
    return new KubeNotFound({ object: naming, verb });
  }

  /** The kind's descriptor from discovery, or false when the group version does not list it; 'no-api' when nothing is served. */
  private async serves(
    apiVersion: string,
    kindName: string,
    naming: KubeObjectNaming,
    verb: string,
  ): Promise<{ name: string; namespaced: boolean } | false | 'no-api'> {
    const res = await this.transport.send({ method: 'GET', path: apiPath(apiVersion) }).catch((err: unknown) => {
      throw noAnswerError(naming, verb, err, this.transport.deadlineMs);
    });
    if (res.status === 404) {
      // The group version is unknown; is this still a Kubernetes API at all?
      const core = await this.transport.send({ method: 'GET', path: '/api' }).catch((err: unknown) => {
        throw noAnswerError(naming, verb, err, this.transport.deadlineMs);
      });
      return core.status === 404 ? 'no-api' : false;
    }
    if (res.status !== 200) throw answerError(naming, `discover ${apiVersion}`, res.status, res.body);
    const resources = (
      (JSON.parse(res.body) as { resources?: Array<{ name?: string; kind?: string; namespaced?: boolean }> })
        .resources ?? []
    ).filter((r) => !r.name?.includes('/'));
    const found = resources.find((r) => r.kind === kindName);
    return found?.name ? { name: found.name, namespaced: found.namespaced === true } : false;
  }

  /** A manifest's kind: from the known kinds, else from discovery (a kind the cluster does not serve throws KubeKindNotServed). */
  private async kindOf(m: KubeObject): Promise<KubeKind> {
    const known = knownKind(m.apiVersion, m.kind);
    if (known) return known;
    const naming = this.naming(m, { name: m.metadata.name, namespace: m.metadata.namespace });
    const found = await this.serves(m.apiVersion, m.kind, naming, 'apply');
    if (found === 'no-api') {
      this.transport.endpointGone();
      throw endpointGone(naming, 'apply');
    }
    if (!found) throw new KubeKindNotServed({ object: naming, verb: 'apply' });
    return kubeKind(
      { apiVersion: m.apiVersion, kind: m.kind, plural: found.name, namespaced: found.namespaced },
      (raw) => parseBase(raw, m),
    );
  }

  private openWatch(
    kind: KubeKind,
    o: KubeWatchOptions & { resourceVersion: string },
    onEvent: (type: string, object: unknown) => void,
    onDone: (err?: unknown) => void,
  ): Promise<() => void> {
    const naming = this.naming(kind, { namespace: o.namespace });
    const query = {
      resourceVersion: o.resourceVersion,
      allowWatchBookmarks: 'true',
      timeoutSeconds: String(WATCH_SECONDS),
      ...(o.labelSelector ? { labelSelector: o.labelSelector } : {}),
      ...(o.fieldSelector ? { fieldSelector: o.fieldSelector } : {}),
    };
    // client-node's Watch reports a refused request through `done` (and resolves): turn that into a rejection here.
    return this.transport
      .withKubeConfig(async (kc) => {
        let refused: unknown;
        let opened = false;
        const controller = await new Watch(kc).watch(
          collectionPath(kind, o.namespace),
          query,
          onEvent,
          (err: unknown) => {
            if (!opened && statusOf(err) !== undefined) refused = err;
            else onDone(err ?? undefined);
          },
        );
        if (refused) throw refused;
        opened = true;
        return () => controller.abort();
      })
      .catch(async (err: unknown) => {
        const status = statusOf(err);
        if (status === 404) throw await this.notFound(kind, naming, 'watch', { status, body: '' });
        if (status !== undefined) throw answerError(naming, 'watch', status, '');
        throw noAnswerError(naming, 'watch', err, this.transport.deadlineMs);
      });
  }
}

/** A pod's name as Kubernetes allows it (DNS subdomain): the only `x-served-by` passed on, so no header is forged. */
const POD_NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

/** Of a proxied answer's headers, what its caller may be told: the content type and the pod that answered. */
function proxiedHeaders(h: IncomingHttpHeaders): ProxiedAnswerHeaders {
  const type = h['content-type'];
  const servedBy = h['x-served-by'];
  return {
    ...(type ? { 'content-type': type } : {}),
    ...(typeof servedBy === 'string' && POD_NAME.test(servedBy) ? { 'x-served-by': servedBy } : {}),
  };
}
