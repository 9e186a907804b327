import type { KubePort } from '../cloud/ports.js';
import { CloudError } from '../domain/errors.js';
import {
  CUSTOM_RESOURCE_DEFINITION,
  customResourceDefinitionHealth,
} from '../domain/kube/custom-resource-definition.js';
import { KubeKindNotServed } from '../domain/kube/errors.js';
import { knownKind } from '../domain/kube/index.js';
import { qualifiedKind, type KubeKind, type KubeResource } from '../domain/kube/kind.js';
import type { KubeObject } from '../domain/kube-object.js';
import type { AwaitOutcome, PhaseContext, PhaseDeadline, PhaseDefinition } from '../engine/workflow.js';

/**
 * A phase that puts Kubernetes objects in a cluster and waits until they work:
 *
 * - observe reads what the cluster holds: done when every object is there, as wanted and ready;
 *   in progress when it is there and as wanted but not ready yet; otherwise it needs the act.
 * - act applies each manifest with server-side apply — except those whose kind comes from a CRD
 *   that is not Established yet (HyperPod, an add-on installs it): they wait for it.
 * - await first waits for those CRDs to be Established (a missing CRD is a wait, not a failure),
 *   applies what waited, then waits for readiness: by default every object's kind `health()` is
 *   healthy (or degraded: working); a `failed` health fails the phase with its code and reason.
 *
 * Repeating any step is harmless: apply is idempotent under one field manager.
 *
 * @example
 * applyAndAwait<Input, State>({
 *   name: 'karpenter', title: 'Point Karpenter at the instance groups', expectedSeconds: 20,
 *   deadline: { actSeconds: 300, waitSeconds: 900 },
 *   kube: (ctx) => clusterKube(ctx), manifests: (ctx) => karpenterManifests(ctx.input.groups),
 * });
 */
export interface ApplyAndAwaitSpec<I, S> {
  name: string;
  title: string;
  expectedSeconds: number;
  deadline: PhaseDeadline;
  kube(ctx: PhaseContext<I, S>): Promise<KubePort>;
  /** The objects, in apply order. */
  manifests(ctx: PhaseContext<I, S>): readonly KubeObject[];
  /** Nothing to do at all (e.g. the feature is being turned off). */
  skip?(ctx: PhaseContext<I, S>): boolean;
  /** Kinds outside src/domain/kube's known kinds, so their CRD can be waited for. */
  kinds?: readonly KubeKind[];
  /** Whether the objects as they are (same order as the manifests, undefined = absent) are what is wanted; default: all exist. */
  matches?(current: ReadonlyArray<KubeResource | undefined>, ctx: PhaseContext<I, S>): boolean;
  /** Readiness of the objects (all present); default: every kind's health. Throw to fail the phase. */
  ready?(current: readonly KubeResource[], ctx: PhaseContext<I, S>): AwaitOutcome;
  /** The progress line once everything is ready. */
  readyProgress?(ctx: PhaseContext<I, S>): string;
  pollKey?(ctx: PhaseContext<I, S>): string;
}

export function applyAndAwait<I, S>(spec: ApplyAndAwaitSpec<I, S>): PhaseDefinition<I, S> {
  const extra = new Map((spec.kinds ?? []).map((k) => [`${k.apiVersion} ${k.kind}`, k]));
  const kindOf = (m: KubeObject): KubeKind | undefined =>
    knownKind(m.apiVersion, m.kind) ?? extra.get(`${m.apiVersion} ${m.kind}`);

  /** The CRDs the manifests' kinds need, each with what installs it. */
  const crdsOf = (manifests: readonly KubeObject[]) => {
    const out = new Map<string, string | undefined>();
    for (const m of manifests) {
      const k = kindOf(m);
      if (k?.crd) out.set(k.crd, k.installedBy);
    }
    return out;
  };

  /** The CRDs not Established yet, each with why (a progress line); a CRD that cannot be served fails the phase. */
  async function pendingCrds(kube: KubePort, manifests: readonly KubeObject[]): Promise<Map<string, string>> {
    const waiting = new Map<string, string>();
    for (const [name, installedBy] of crdsOf(manifests)) {
      const crd = await kube.find(CUSTOM_RESOURCE_DEFINITION, name);
      if (!crd) {
        waiting.set(name, `CRD ${name} is not installed yet${installedBy ? ` (it comes with ${installedBy})` : ''}`);
        continue;
      }
      const h = customResourceDefinitionHealth(crd);
      if (h.state === 'failed')
        throw new CloudError({
          service: 'kubernetes',
          operation: 'CustomResourceDefinition',
          code: h.code,
          message: h.reason,
        });
      if (h.state !== 'healthy') waiting.set(name, h.reason);
    }
    return waiting;
  }

  /** Each manifest's object as it is now; undefined when absent or its kind is not served yet. */
  async function readAll(kube: KubePort, manifests: readonly KubeObject[]): Promise<Array<KubeResource | undefined>> {
    return Promise.all(
      manifests.map(async (m) => {
        const k = kindOf(m);
        try {
          return k ? await kube.find(k, m.metadata.name, m.metadata.namespace) : await kube.current(m);
        } catch (err) {
          if (err instanceof KubeKindNotServed) return undefined;
          throw err;
        }
      }),
    );
  }

  const matches = (current: ReadonlyArray<KubeResource | undefined>, ctx: PhaseContext<I, S>) =>
    current.every((o) => o !== undefined) && (spec.matches ? spec.matches(current, ctx) : true);

  function readiness(
    current: readonly KubeResource[],
    manifests: readonly KubeObject[],
    ctx: PhaseContext<I, S>,
  ): AwaitOutcome {
    if (spec.ready) return spec.ready(current, ctx);
    const waiting: string[] = [];
    current.forEach((o, i) => {
      const k = kindOf(manifests[i]!);
      const h = k?.health?.(o);
      if (!h) return;
      if (h.state === 'failed')
        throw new CloudError({ service: 'kubernetes', operation: qualifiedKind(o), code: h.code, message: h.reason });
      if (h.state === 'transitional') waiting.push(h.reason);
    });
    return waiting.length
      ? { done: false, progress: waiting.join('; ') }
      : { done: true, progress: spec.readyProgress?.(ctx) ?? 'ready' };
  }

  /** Applies the manifests whose kinds are served now; the others wait for their CRD (await applies them). */
  async function applyServed(kube: KubePort, manifests: readonly KubeObject[], ctx: PhaseContext<I, S>): Promise<void> {
    const pending = await pendingCrds(kube, manifests);
    const deferred: KubeObject[] = [];
    for (const m of manifests) {
      const crd = kindOf(m)?.crd;
      if (crd && pending.has(crd)) {
        deferred.push(m);
        continue;
      }
      await kube.applyAll([m]);
      ctx.log(`Applied ${m.kind} ${m.metadata.namespace ? `${m.metadata.namespace}/` : ''}${m.metadata.name}`);
    }
    if (deferred.length)
      ctx.log(
        `${deferred.map((m) => `${m.kind} ${m.metadata.name}`).join(', ')} wait${deferred.length === 1 ? 's' : ''} for ${[...pending.keys()].join(', ')} to be Established`,
      );
  }

  return {
    name: spec.name,
    title: spec.title,
    expectedSeconds: spec.expectedSeconds,
    deadline: spec.deadline,
    async observe(ctx) {
      if (spec.skip?.(ctx)) return 'done';
      const kube = await spec.kube(ctx);
      const manifests = spec.manifests(ctx);
      if ((await pendingCrds(kube, manifests)).size) return 'needs-act';
      const current = await readAll(kube, manifests);
      if (!matches(current, ctx)) return 'needs-act';
      return readiness(current as KubeResource[], manifests, ctx).done ? 'done' : 'in-progress';
    },
    async act(ctx) {
      await applyServed(await spec.kube(ctx), spec.manifests(ctx), ctx);
    },
    ...(spec.pollKey ? { pollKey: spec.pollKey } : {}),
    async await(ctx) {
      const kube = await spec.kube(ctx);
      const manifests = spec.manifests(ctx);
      const waiting = await pendingCrds(kube, manifests);
      if (waiting.size) return { done: false, progress: [...waiting.values()].join('; ') };
      const current = await readAll(kube, manifests);
      if (!matches(current, ctx)) {
        // Objects that waited for their CRD (or changed meanwhile): their kinds are served now.
        await applyServed(kube, manifests, ctx);
        return {
          done: false,
          progress: `applied ${manifests.length} object${manifests.length === 1 ? '' : 's'}; waiting for them to be ready`,
        };
      }
      return readiness(current as KubeResource[], manifests, ctx);
    },
  };
}
