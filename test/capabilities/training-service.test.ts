import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { metricsOfLine } from '../../sandbox/kube/controllers/mlflow-reporter.js';
import { checkNameAndKind, groupFacts } from '../../src/capabilities/training/submit-facts.js';
import type { TrainingServiceDeps } from '../../src/capabilities/training/ports.js';
import { TrainingTemplates } from '../../src/capabilities/training/templates.js';
import type { HyperPodCluster, KubePort } from '../../src/cloud/ports.js';
import { ConflictError, InputError, PreconditionError } from '../../src/domain/errors.js';
import { KubeKindNotServed } from '../../src/domain/kube/errors.js';
import type { KubeKind } from '../../src/domain/kube/kind.js';
import { DEFAULT_METRICS, metricNames, thinPoints } from '../../src/domain/training/metrics.js';
import { mlflowIdentity } from '../../src/domain/training/mlflow-identity.js';
import { placementFor } from '../../src/domain/training/placement.js';
import { trainingManifest } from '../../src/domain/training/submit.js';
import { savedRequestOf, withSavedRequest } from '../../src/domain/training/resubmit.js';
import { SubmitTrainingJobRequestSchema, TrainingMetricsQuerySchema } from '../../src/domain/schemas/training.js';
import { openMemoryDatabase, TrainingStore } from '../../src/store/index.js';

/** A Kubernetes API holding some jobs by kind and name; kinds not in `served` are not served. */
function kubeWith(jobs: Record<string, string[]>, served: string[]): KubePort {
  return {
    cluster: 'demo-eks',
    async find(kind: KubeKind, name: string) {
      if (!served.includes(kind.kind))
        throw new KubeKindNotServed({
          object: { cluster: 'demo-eks', kind: kind.kind, name },
          verb: 'get',
          installedBy: kind.installedBy,
        });
      return jobs[kind.kind]?.includes(name) ? ({ metadata: { name } } as never) : undefined;
    },
  } as unknown as KubePort;
}

describe('training submit: the facts that refuse a request before anything is created', () => {
  it('refuses a name a job of the same kind or of the other kind has (409 on name), and a kind whose operator is off (422 on the feature)', async () => {
    const kube = kubeWith({ HyperPodPyTorchJob: ['llama'] }, ['HyperPodPyTorchJob', 'RayJob']);
    await assert.rejects(
      checkNameAndKind(kube, 'demo', 'HyperPodPyTorchJob', 'llama', 'default'),
      (e: unknown) => e instanceof ConflictError && e.field === 'name' && /already exists/.test(e.message),
    );
    await assert.rejects(
      checkNameAndKind(kube, 'demo', 'RayJob', 'llama', 'default'),
      (e: unknown) =>
        e instanceof ConflictError && /HyperPodPyTorchJob named llama exists .* across both kinds/.test(e.message),
    );
    await checkNameAndKind(kube, 'demo', 'RayJob', 'fresh', 'default');

    const noRay = kubeWith({}, ['HyperPodPyTorchJob']);
    await checkNameAndKind(noRay, 'demo', 'HyperPodPyTorchJob', 'fresh', 'default');
    await assert.rejects(checkNameAndKind(noRay, 'demo', 'RayJob', 'fresh', 'default'), (e: unknown) => {
      assert.ok(e instanceof PreconditionError);
      assert.equal(e.problems[0]?.path, 'kuberay-operator');
      assert.match(e.remedy ?? '', /PATCH \/api\/v1\/clusters\/demo\/features \{"kuberay-operator": true\}/);
      return true;
    });
  });

  it("reads the group's placement and capacity type from HyperPod and the catalog, and names instanceGroup when it is not there", async () => {
    const hp = {
      ClusterName: 'demo',
      InstanceGroups: [
        { InstanceGroupName: 'gpu', InstanceType: 'ml.g5.8xlarge', CurrentCount: 2 },
        {
          InstanceGroupName: 'cheap',
          InstanceType: 'ml.g5.8xlarge',
          CurrentCount: 1,
          CapacityRequirements: { Spot: {} },
        },
      ],
    } as unknown as HyperPodCluster;
    const deps = {
      catalog: {
        listHyperPodInstanceTypes: async () => [
          {
            instanceType: 'ml.g5.8xlarge',
            acceleratorName: 'A10G',
            acceleratorCount: 1,
            efaSupported: true,
            maximumEfaInterfaces: 1,
          },
        ],
      },
    } as unknown as TrainingServiceDeps;
    const gpu = await groupFacts(deps, 'us-west-2', hp, 'gpu');
    assert.equal(gpu.capacityType, 'on-demand');
    assert.deepEqual(gpu.placement.resources.limits, { 'nvidia.com/gpu': '1', 'vpc.amazonaws.com/efa': '1' });
    assert.equal((await groupFacts(deps, 'us-west-2', hp, 'cheap')).capacityType, 'spot');
    await assert.rejects(
      groupFacts(deps, 'us-west-2', hp, 'nope'),
      (e: unknown) =>
        e instanceof PreconditionError &&
        e.problems[0]?.path === 'instanceGroup' &&
        /its groups: gpu, cheap/.test(e.message),
    );
  });
});

describe("training templates and the cluster's MLflow link in the store", () => {
  const request = {
    recipe: 'pytorch-script',
    params: { script: '/data/train.py' },
    instanceGroup: 'gpu',
    storage: 'shared-s3',
  };

  it('keys templates by Region, cluster and name: a same-named cluster elsewhere, or another cluster, never sees them', () => {
    const store = new TrainingStore(openMemoryDatabase());
    const templates = new TrainingTemplates(store);
    templates.save('us-west-2', 'demo', 'constructor', request, 'a name that is also an object key');
    templates.save('us-west-2', 'demo', 'sft', { ...request, nodes: 2 });
    assert.deepEqual(
      templates.list('us-west-2', 'demo').templates.map((t) => t.name),
      ['constructor', 'sft'],
    );
    assert.deepEqual(templates.list('us-east-1', 'demo').templates, []);
    assert.deepEqual(templates.list('us-west-2', 'other').templates, []);
    assert.equal(templates.get('us-west-2', 'demo', 'sft').request.nodes, 2);
    assert.equal(templates.get('us-west-2', 'demo', 'constructor').description, 'a name that is also an object key');
    assert.throws(() => templates.get('us-west-2', 'other', 'sft'), /no training template 'sft'/);

    const replaced = templates.save('us-west-2', 'demo', 'sft', { ...request, nodes: 4 });
    assert.equal(replaced.replaced, true);
    assert.equal(replaced.template.request.nodes, 4);
    assert.throws(
      () => templates.create('us-west-2', 'demo', 'sft', request),
      (e: unknown) => e instanceof ConflictError && e.field === 'name',
    );
    assert.throws(
      () => templates.save('us-west-2', 'demo', 'x', { ...request, recipe: 'nope' }),
      (e: unknown) => e instanceof InputError && e.problems[0]?.path === 'request.recipe',
    );
    assert.equal(templates.delete('us-west-2', 'demo', 'sft'), true);
    assert.throws(() => templates.delete('us-west-2', 'demo', 'sft'), /no training template/);
  });

  it('keeps one default tracking server per Region and cluster, and unlinks it', () => {
    const store = new TrainingStore(openMemoryDatabase());
    const arn = 'arn:aws:sagemaker:us-west-2:000000000000:mlflow-tracking-server/team';
    store.setClusterMlflow('us-west-2', 'demo', arn);
    assert.equal(store.clusterMlflow('us-west-2', 'demo'), arn);
    assert.equal(store.clusterMlflow('us-east-1', 'demo'), undefined);
    store.setClusterMlflow('us-west-2', 'demo', undefined);
    assert.equal(store.clusterMlflow('us-west-2', 'demo'), undefined);
  });
});

describe('re-submit and the MLflow identity', () => {
  it('keeps the request on the job without its name, and reads it back; a job without it cannot be re-submitted (422 naming job)', () => {
    const req = SubmitTrainingJobRequestSchema.parse({
      name: 'first',
      recipe: 'pytorch-script',
      params: { script: '/data/train.py' },
      instanceGroup: 'gpu',
      storage: 's',
      nodes: 2,
      saveAsTemplate: { name: 't' },
    });
    const manifest = withSavedRequest(
      { apiVersion: 'v1', kind: 'X', metadata: { name: 'first', annotations: { keep: 'me' } } },
      req,
    );
    assert.equal(manifest.metadata.annotations!.keep, 'me');
    const saved = savedRequestOf('first', manifest.metadata.annotations!);
    assert.equal(saved.nodes, 2);
    assert.equal('name' in saved || 'saveAsTemplate' in saved, false);
    assert.throws(
      () => savedRequestOf('other', {}),
      (e: unknown) => e instanceof PreconditionError && e.problems[0]?.path === 'job',
    );
    assert.throws(() => savedRequestOf('other', { 'instantstart.dev/request': '{"recipe":1}' }), /not a valid request/);
  });

  it('grants sagemaker-mlflow:* on exactly one tracking server, to a role EKS Pod Identity may assume; names fit IAM and Kubernetes', () => {
    const arn = 'arn:aws:sagemaker:us-west-2:000000000000:mlflow-tracking-server/team';
    const id = mlflowIdentity('a-cluster-name-that-is-rather-long-indeed', 'research', arn);
    assert.ok(id.roleName.length <= 64, id.roleName);
    assert.match(id.serviceAccount, /^instantstart-mlflow-[0-9a-f]{8}$/);
    assert.deepEqual(id.inlinePolicy.Statement, [{ Effect: 'Allow', Action: ['sagemaker-mlflow:*'], Resource: arn }]);
    assert.deepEqual(id.trustPolicy.Statement[0]!.Principal, { Service: 'pods.eks.amazonaws.com' });
    assert.notEqual(
      mlflowIdentity('c', 'default', `${arn}-2`).serviceAccount,
      mlflowIdentity('c', 'default', arn).serviceAccount,
      'one identity per server',
    );

    const req = SubmitTrainingJobRequestSchema.parse({
      name: 'tracked',
      recipe: 'pytorch-script',
      params: { script: '/data/train.py' },
      instanceGroup: 'gpu',
      storage: 's',
      mlflow: { trackingServerArn: arn },
    });
    const placement = placementFor(
      { name: 'gpu', instanceType: 'ml.g5.8xlarge' },
      {
        instanceType: 'ml.g5.8xlarge',
        acceleratorName: 'A10G',
        acceleratorCount: 1,
        efaSupported: true,
        maximumEfaInterfaces: 1,
      },
    );
    const manifest = trainingManifest(req, {
      claimName: 's',
      placement,
      capacityType: 'on-demand',
      tieredCheckpointing: false,
      serviceAccountName: id.serviceAccount,
    }) as unknown as { spec: { replicaSpecs: Array<{ template: { spec: { serviceAccountName?: string } } }> } };
    assert.equal(
      manifest.spec.replicaSpecs[0]!.template.spec.serviceAccountName,
      id.serviceAccount,
      "the pods run as the identity's service account",
    );
    const plain = trainingManifest(
      { ...req, mlflow: undefined },
      { claimName: 's', placement, capacityType: 'on-demand', tieredCheckpointing: false },
    ) as unknown as typeof manifest;
    assert.equal(plain.spec.replicaSpecs[0]!.template.spec.serviceAccountName, undefined);
  });
});

describe('metric series', () => {
  const series = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ step: i + 1, value: 1 / (i + 1), timestamp: 1_000 + i }));

  it('thins a long history evenly to maxPoints, keeping the first and the last point', () => {
    const thin = thinPoints(series(10_000), 100);
    assert.equal(thin.length, 100);
    assert.equal(thin[0]!.step, 1);
    assert.equal(thin.at(-1)!.step, 10_000, 'the last point is where training is now');
    const gaps = thin.slice(1).map((p, i) => p.step - thin[i]!.step);
    assert.ok(Math.max(...gaps) - Math.min(...gaps) <= 1, 'evenly spaced');
    assert.deepEqual(thinPoints(series(5), 100), series(5), 'a short series is whole');
  });

  it("defaults to the metrics the trainers really report (the sandbox reporter's keys), as the query schema says", () => {
    const reported = metricsOfLine('[rank 0] step=3 loss=1.5 tokens/s=9000 lr=3.0e-04').map((m) => m.key);
    assert.deepEqual([...DEFAULT_METRICS].sort(), reported.sort());
    assert.deepEqual(metricNames(undefined), [...DEFAULT_METRICS]);
    assert.deepEqual(metricNames('loss, throughput,loss'), ['loss', 'throughput']);
    assert.match(TrainingMetricsQuerySchema.shape.metrics.description ?? '', new RegExp(DEFAULT_METRICS.join(', ')));
  });
});
