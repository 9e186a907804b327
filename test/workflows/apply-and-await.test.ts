import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AwsClients, Cloud } from '../../src/cloud/index.js';
import type { KubePort } from '../../src/cloud/ports.js';
import { CloudError } from '../../src/domain/errors.js';
import { KubeKindNotServed } from '../../src/domain/kube/errors.js';
import {
  kubeKind,
  parseBase,
  parseConditions,
  rec,
  readyConditionHealth,
  type Condition,
  type KubeResource,
  type Loose,
} from '../../src/domain/kube/kind.js';
import type { PhaseContext, PhaseDefinition } from '../../src/engine/workflow.js';
import { applyAndAwait } from '../../src/workflows/apply-and-await.js';
import { kubeAccess, type TestKubeCluster } from '../helpers/kube.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { activeCluster, buildEksWorld } from '../sandbox/eks-fixtures.js';

/** A custom kind served only once its operator installs the CRD, Ready when the operator says so. */
type KubeWidget = KubeResource & { status: Loose & { conditions: Condition[] } };
const WIDGET = kubeKind<KubeWidget>(
  {
    apiVersion: 'example.instantstart.dev/v1',
    kind: 'Widget',
    plural: 'widgets',
    namespaced: true,
    crd: 'widgets.example.instantstart.dev',
    installedBy: 'the widget operator',
    health: (w) => readyConditionHealth(`Widget ${w.metadata.name}`, w.status.conditions, ['Broken']),
  },
  (raw) => {
    const base = parseBase(raw, { apiVersion: 'example.instantstart.dev/v1', kind: 'Widget' });
    return { ...base, status: { ...rec(base.status), conditions: parseConditions(rec(base.status).conditions) } };
  },
);
const WIDGET_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.instantstart.dev' },
  spec: {
    group: 'example.instantstart.dev',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
};

interface Input {
  size: number;
}

/** A phase context as the engine gives one, with the phase's log lines kept. */
function context(input: Input): PhaseContext<Input, Record<string, never>> & { lines: string[] } {
  const lines: string[] = [];
  return {
    operationId: 'op-widgets',
    input,
    state: {},
    setState: () => {},
    log: (m) => void lines.push(m),
    signal: new AbortController().signal,
    attempt: 1,
    earlierFailures: [],
    lines,
  };
}

describe('applyAndAwait: server-side apply, wait for the CRD, then for readiness', () => {
  let sb: TestSandbox;
  let kube: KubePort;
  let k: TestKubeCluster;
  let phase: PhaseDefinition<Input, Record<string, never>>;
  const setReady = (status: 'True' | 'False', reason: string, message: string) =>
    k.kubectl([
      'patch',
      'widget',
      'w1',
      '-n',
      'default',
      '--type=merge',
      '-p',
      JSON.stringify({ status: { conditions: [{ type: 'Ready', status, reason, message }] } }),
    ]);

  before(async () => {
    sb = await startTestSandbox({ speed: 600 });
    await activeCluster(sb, await buildEksWorld('aa'), 'aa');
    k = await kubeAccess(sb, 'aa');
    kube = await new Cloud(new AwsClients({ defaultRegion: 'us-west-2' })).kube('us-west-2', 'aa');
    phase = applyAndAwait<Input, Record<string, never>>({
      name: 'widgets',
      title: 'Widgets',
      expectedSeconds: 10,
      deadline: { actSeconds: 60, waitSeconds: 600 },
      kube: async () => kube,
      kinds: [WIDGET],
      manifests: (ctx) => [
        {
          apiVersion: WIDGET.apiVersion,
          kind: 'Widget',
          metadata: { name: 'w1', namespace: 'default' },
          spec: { size: ctx.input.size },
        },
      ],
      matches: ([w], ctx) =>
        (w as KubeWidget).spec !== undefined && rec((w as KubeWidget).spec).size === ctx.input.size,
      readyProgress: () => 'the widget works',
    });
  });
  after(async () => sb.dispose());

  it('defers the object while its CRD is missing, applies it once the CRD is Established, then waits for Ready', async () => {
    const ctx = context({ size: 3 });
    assert.equal(await phase.observe(ctx), 'needs-act');
    await phase.act!(ctx);
    assert.match(ctx.lines.join('\n'), /Widget w1 waits for widgets\.example\.instantstart\.dev to be Established/);
    await assert.rejects(
      kube.find(WIDGET, 'w1', 'default'),
      KubeKindNotServed,
      'nothing applied yet: the kind is not served',
    );
    const waiting = await phase.await!(ctx);
    assert.equal(waiting.done, false);
    assert.match(
      waiting.progress!,
      /CRD widgets\.example\.instantstart\.dev is not installed yet \(it comes with the widget operator\)/,
    );

    await kube.applyAll([WIDGET_CRD]); // the operator installs its CRD
    const applying = await phase.await!(ctx);
    assert.equal(applying.done, false);
    assert.match(ctx.lines.join('\n'), /Applied Widget default\/w1/);
    assert.equal(rec((await kube.get(WIDGET, 'w1', 'default')).spec).size, 3, 'applied once its kind is served');

    const notReady = await phase.await!(ctx);
    assert.deepEqual(notReady, { done: false, progress: 'Widget w1 has not been reported on yet.' });
    await setReady('False', 'Starting', 'warming up');
    assert.deepEqual(await phase.await!(ctx), { done: false, progress: 'Widget w1 is not Ready yet: warming up' });
    await setReady('True', 'Ready', '');
    assert.deepEqual(await phase.await!(ctx), { done: true, progress: 'the widget works' });
    assert.equal(await phase.observe(context({ size: 3 })), 'done', 'a retry finds it in place');
  });

  it('applies a changed spec and fails the phase on a health that waiting cannot fix', async () => {
    const ctx = context({ size: 5 });
    assert.equal(await phase.observe(ctx), 'needs-act', 'the object differs from what is wanted');
    await phase.act!(ctx);
    assert.equal(rec((await kube.get(WIDGET, 'w1', 'default')).spec).size, 5);
    await setReady('False', 'Broken', 'the widget fell apart');
    await assert.rejects(phase.await!(ctx), (err: unknown) => {
      assert.ok(err instanceof CloudError, String(err));
      assert.equal(err.code, 'Broken');
      assert.equal(err.message, 'Widget w1 is not Ready: the widget fell apart');
      return true;
    });
  });
});
