import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { z } from 'zod';
import { nodeHealth } from '../../src/domain/node-health.js';
import {
  DeleteNodesRequestSchema,
  ListNodesQuerySchema,
  NodeViewSchema,
  RebootNodesRequestSchema,
  ReplaceNodesRequestSchema,
  StartDeepHealthCheckRequestSchema,
  allocatableAccelerators,
  nodeIdProblem,
} from '../../src/domain/schemas/nodes.js';

function problems(schema: z.ZodType, input: unknown): Array<{ path: string; message: string }> {
  const r = schema.safeParse(input);
  assert.ok(!r.success, `expected ${JSON.stringify(input)} to be rejected`);
  return r.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

function rejectsOn(schema: z.ZodType, input: unknown, path: string, pattern: RegExp): void {
  const found = problems(schema, input);
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.equal(found[0]!.path, path);
  assert.match(found[0]!.message, pattern);
}

const ID = 'i-0123456789abcdef0';
const ID2 = 'i-0123456789abcdef1';

describe('ListNodesQuery', () => {
  it('coerces the page size from the query string and defaults it', () => {
    assert.equal(ListNodesQuerySchema.parse({ limit: '200', health: 'failed', group: 'workers' }).limit, 200);
    assert.equal(ListNodesQuerySchema.parse({}).limit, 50);
  });

  it('bounds the page at 500 and names bad filters', () => {
    rejectsOn(ListNodesQuerySchema, { limit: '501' }, 'limit', /500/);
    rejectsOn(ListNodesQuerySchema, { health: 'sick' }, 'health', /healthy/);
    rejectsOn(ListNodesQuerySchema, { availabilityZone: 'us-west-2' }, 'availabilityZone', /Availability Zone name/);
    rejectsOn(ListNodesQuerySchema, { state: 'failed' }, '', /state/);
  });
});

describe('node actions', () => {
  it('reboot has no confirm field at all (it is not needed)', () => {
    assert.deepEqual(RebootNodesRequestSchema.parse({ nodeIds: [ID] }), { nodeIds: [ID] });
    assert.equal('confirm' in RebootNodesRequestSchema.shape, false);
    rejectsOn(RebootNodesRequestSchema, { nodeIds: [ID], confirm: true }, '', /confirm/);
  });

  it('replace and delete require confirm: true and say why', () => {
    rejectsOn(
      ReplaceNodesRequestSchema,
      { nodeIds: [ID] },
      'confirm',
      /^must be true: replacing terminates the instance and destroys its root and secondary volumes/,
    );
    rejectsOn(ReplaceNodesRequestSchema, { nodeIds: [ID], confirm: 'true' }, 'confirm', /must be true/);
    rejectsOn(
      DeleteNodesRequestSchema,
      { nodeIds: [ID], confirm: false },
      'confirm',
      /^must be true: deleting terminates the instances/,
    );
    assert.ok(ReplaceNodesRequestSchema.safeParse({ nodeIds: [ID], confirm: true }).success);
  });

  it('names at least one node, each once; a batch of nothing but bad ids names no node', () => {
    rejectsOn(RebootNodesRequestSchema, { nodeIds: [] }, 'nodeIds', /at least one node/);
    rejectsOn(RebootNodesRequestSchema, { nodeIds: [ID, ID2, ID] }, 'nodeIds.2', /names i-0123456789abcdef0 twice/);
    rejectsOn(
      RebootNodesRequestSchema,
      { nodeIds: ['hyperpod-i-0123456789abcdef0'] },
      'nodeIds',
      /names no node: every entry must be an EC2 instance id/,
    );
    rejectsOn(RebootNodesRequestSchema, { nodeIds: ['x'.repeat(257), ID] }, 'nodeIds.0', /256/);
    rejectsOn(
      RebootNodesRequestSchema,
      { nodeIds: Array.from({ length: 501 }, (_, i) => `i-${i.toString(16).padStart(17, '0')}`) },
      'nodeIds',
      /at most 500/,
    );
  });

  it('lets a batch with some bad ids through: those are refused per node by the operation', () => {
    assert.deepEqual(RebootNodesRequestSchema.parse({ nodeIds: [ID, 'i-123'] }).nodeIds, [ID, 'i-123']);
  });

  it("node ids follow AWS's ClusterNodeId pattern exactly: i- and 8 or 17 lower-case hex digits", () => {
    assert.equal(nodeIdProblem('i-0123abcd'), undefined);
    assert.equal(nodeIdProblem(ID), undefined);
    for (const bad of [
      'i-0123456789',
      'i-0123abc',
      'i-0123456789abcdef01',
      'i-0123456789ABCDEF0',
      'hyperpod-i-0123abcd',
      ' i-0123abcd',
    ]) {
      assert.match(nodeIdProblem(bad) ?? '', /8 or 17 hex digits/, bad);
    }
  });

  it('tells the escalation order in the description', () => {
    assert.match(ReplaceNodesRequestSchema.description ?? '', /investigate, then reboot, then replace/);
    assert.match(ReplaceNodesRequestSchema.shape.nodeIds.description ?? '', /25 at a time/);
  });
});

describe('StartDeepHealthCheckRequest', () => {
  it('runs both checks on the whole group by default', () => {
    assert.deepEqual(StartDeepHealthCheckRequestSchema.parse({ instanceGroupName: 'workers' }), {
      instanceGroupName: 'workers',
      checks: ['InstanceStress', 'InstanceConnectivity'],
    });
  });

  it('names wrong checks and the node limit', () => {
    rejectsOn(
      StartDeepHealthCheckRequestSchema,
      { instanceGroupName: 'workers', checks: ['InstanceStress', 'InstanceStress'] },
      'checks',
      /must not repeat a check/,
    );
    rejectsOn(
      StartDeepHealthCheckRequestSchema,
      { instanceGroupName: 'workers', checks: ['GpuBurn'] },
      'checks.0',
      /InstanceStress/,
    );
    rejectsOn(
      StartDeepHealthCheckRequestSchema,
      { instanceGroupName: 'workers', checks: [] },
      'checks',
      /at least one check/,
    );
  });
});

describe('NodeView', () => {
  it('reads accelerators from allocatable, ignoring what is not a whole count', () => {
    assert.deepEqual(
      allocatableAccelerators({ 'nvidia.com/gpu': '8', 'vpc.amazonaws.com/efa': '32', cpu: '191450m' }),
      { gpus: 8, neuronDevices: 0, efa: 32 },
    );
    assert.deepEqual(allocatableAccelerators({ 'aws.amazon.com/neurondevice': '16', 'nvidia.com/gpu': '1k' }), {
      gpus: 0,
      neuronDevices: 16,
      efa: 0,
    });
    assert.deepEqual(allocatableAccelerators(undefined), { gpus: 0, neuronDevices: 0, efa: 0 });
  });

  it('holds a joined node with its health verdict', () => {
    const health = nodeHealth({
      sagemaker: { instanceId: ID, instanceStatus: { status: 'Pending' } },
      now: Date.now(),
    });
    const view = {
      instanceId: ID,
      instanceGroupName: 'workers',
      instanceType: 'ml.p5.48xlarge',
      instanceStatus: { status: 'Pending' },
      labels: {},
      health,
      allocatable: allocatableAccelerators(undefined),
      podCount: 0,
    };
    assert.ok(NodeViewSchema.safeParse(view).success);
  });
});
