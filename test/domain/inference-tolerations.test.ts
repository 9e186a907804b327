import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { containerEndpointManifests } from '../../src/domain/inference/container-endpoint.js';
import { poolManifests } from '../../src/domain/inference/model-pool.js';
import { groupTolerations } from '../../src/domain/instance-groups/tolerations.js';
import { CreateModelPoolRequestSchema } from '../../src/domain/schemas/inference/requests.js';
import { placementFor } from '../../src/domain/training/placement.js';
import { assertConforms, containerRequest, G5_FACTS } from './inference-fixtures.js';

/**
 * Serving pods on a tainted instance group tolerate exactly the group's taints (as training pods
 * do), and carry no tolerations field on an untainted group; the SGLang router, pinned to no group,
 * never carries the group's tolerations.
 */

const TAINTS = [
  { key: 'team', value: 'ml', effect: 'NoSchedule' },
  { key: 'dedicated', effect: 'NoExecute' },
];
const TOLERATIONS = [
  { key: 'team', operator: 'Equal', value: 'ml', effect: 'NoSchedule' },
  { key: 'dedicated', operator: 'Exists', effect: 'NoExecute' },
];
const TAINTED = { ...G5_FACTS, taints: TAINTS };

const poolReq = CreateModelPoolRequestSchema.parse({
  name: 'warm',
  engine: 'sglang',
  model: 'Qwen/Qwen3-0.6B',
  instanceGroup: 'gpu',
  gpus: 1,
  workers: 2,
});

describe('serving pods on a tainted instance group', () => {
  it('an endpoint on a tainted group: its servers tolerate exactly the taints and stay on the group; the router tolerates none', () => {
    const objs = containerEndpointManifests(
      containerRequest({ engine: 'sglang', replicas: 2, router: {}, service: { variant: 'internal' } }),
      TAINTED,
    );
    assertConforms(objs.deployment, objs.router?.deployment);
    const spec = objs.deployment?.spec.template.spec;
    assert.deepEqual(spec?.tolerations, TOLERATIONS);
    assert.deepEqual(spec?.nodeSelector, { 'sagemaker.amazonaws.com/instance-group-name': 'gpu' });
    const router = objs.router?.deployment.spec.template.spec;
    assert.ok(router, 'a router');
    assert.equal('tolerations' in router, false, 'the router is pinned to no group');
    assert.equal('nodeSelector' in router, false);
  });

  it('an endpoint on an untainted group has no tolerations field', () => {
    const spec = containerEndpointManifests(containerRequest({}), G5_FACTS).deployment?.spec.template.spec;
    assert.ok(spec);
    assert.equal('tolerations' in spec, false);
  });

  it("a pool's workers tolerate exactly the group's taints; untainted, no field", () => {
    const tainted = poolManifests(poolReq, TAINTED).deployment;
    assertConforms(tainted);
    assert.deepEqual(tainted.spec.template.spec.tolerations, TOLERATIONS);
    const plain = poolManifests(poolReq, G5_FACTS).deployment.spec.template.spec;
    assert.equal('tolerations' in plain, false);
  });

  it('the built tolerations are copies: changing one changes neither the facts nor another build', () => {
    const first = poolManifests(poolReq, TAINTED).deployment.spec.template.spec;
    (first.tolerations as Array<Record<string, string>>)[0]!.value = 'other';
    assert.equal(TAINTS[0]!.value, 'ml');
    assert.deepEqual(poolManifests(poolReq, TAINTED).deployment.spec.template.spec.tolerations, TOLERATIONS);
  });

  it('training and inference tolerate a group the same way (one shared rule)', () => {
    const training = placementFor(
      { name: 'gpu', instanceType: 'ml.g5.12xlarge', taints: TAINTS },
      {
        instanceType: 'ml.g5.12xlarge',
        acceleratorName: 'A10G',
        acceleratorCount: 4,
        efaSupported: false,
        maximumEfaInterfaces: 0,
      },
    );
    assert.deepEqual(training.tolerations, groupTolerations(TAINTS));
    assert.deepEqual(groupTolerations(TAINTS), TOLERATIONS);
    assert.deepEqual(groupTolerations(undefined), []);
  });
});
