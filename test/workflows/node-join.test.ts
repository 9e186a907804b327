import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ListedKubeObject } from '../../src/cloud/ports.js';
import { instanceIdOfNode, joinNodes, podsByNode } from '../../src/capabilities/nodes/join.js';

const NOW = Date.parse('2026-12-01T12:00:00Z');
const summary = (id: string, group: string, status = 'Running', launched = NOW - 3_600_000) => ({
  InstanceId: id,
  InstanceGroupName: group,
  InstanceType: 'ml.g5.8xlarge' as const,
  LaunchTime: new Date(launched),
  InstanceStatus: { Status: status as 'Running' },
});
const node = (id: string, labels: Record<string, string> = {}, ready = 'True'): ListedKubeObject => ({
  metadata: {
    name: `hyperpod-${id}`,
    labels: {
      'sagemaker.amazonaws.com/instance-group-name': 'gpu',
      'topology.kubernetes.io/zone': 'us-west-2b',
      ...labels,
    },
  },
  spec: { providerID: `aws:///us-west-2b/${id}` },
  status: {
    conditions: [{ type: 'Ready', status: ready }],
    allocatable: { 'nvidia.com/gpu': '1', cpu: '32' },
    addresses: [{ type: 'InternalIP', address: '10.0.16.9' }],
  },
});
const pod = (nodeName: string, phase: string): ListedKubeObject => ({
  metadata: { name: `p-${phase}`, namespace: 'default' },
  spec: { nodeName },
  status: { phase },
});

describe('joining SageMaker nodes with Kubernetes Nodes', () => {
  it('finds the instance id from the providerID, else from the Node name', () => {
    assert.equal(instanceIdOfNode(node('i-0abc0abc0abc0abc0')), 'i-0abc0abc0abc0abc0');
    assert.equal(instanceIdOfNode({ metadata: { name: 'hyperpod-i-0123456789abcdef0' } }), 'i-0123456789abcdef0');
    assert.equal(instanceIdOfNode({ metadata: { name: 'ip-10-0-0-1' } }), undefined);
  });

  it('counts only unfinished pods per node', () => {
    const counts = podsByNode([
      pod('hyperpod-i-0aaaaaaaaaaaaaaa1', 'Running'),
      pod('hyperpod-i-0aaaaaaaaaaaaaaa1', 'Succeeded'),
      pod('hyperpod-i-0aaaaaaaaaaaaaaa1', 'Pending'),
      pod('other', 'Failed'),
    ]);
    assert.equal(counts.get('hyperpod-i-0aaaaaaaaaaaaaaa1')?.length, 2);
    assert.equal(counts.get('other'), undefined);
  });

  it("joins, reads zone, IP, GPUs and the group's capacity type", () => {
    const [n] = joinNodes({
      summaries: [summary('i-0aaaaaaaaaaaaaaa1', 'gpu')],
      kubeNodes: [node('i-0aaaaaaaaaaaaaaa1')],
      groups: [{ InstanceGroupName: 'gpu', CapacityRequirements: { Spot: {} } }],
      now: NOW,
    });
    assert.equal(n!.health.state, 'healthy');
    assert.equal(n!.availabilityZone, 'us-west-2b');
    assert.equal(n!.privateIp, '10.0.16.9');
    assert.equal(n!.allocatable.gpus, 1);
    assert.equal(n!.capacityType, 'spot');
    assert.equal(n!.kubernetes?.ready, 'True');
  });

  it('judges each node once: labels, missing Nodes and leftover Nodes; stable order by group then id', () => {
    const nodes = joinNodes({
      summaries: [
        summary('i-0bbbbbbbbbbbbbbb2', 'gpu'),
        summary('i-0aaaaaaaaaaaaaaa1', 'gpu'),
        summary('i-0ccccccccccccccc3', 'cpu', 'Running', NOW - 60_000),
      ],
      kubeNodes: [
        node('i-0aaaaaaaaaaaaaaa1', {
          'sagemaker.amazonaws.com/node-health-status': 'UnschedulablePendingReboot',
          'sagemaker.amazonaws.com/fault-reason': 'Xid_79',
        }),
        node('i-0bbbbbbbbbbbbbbb2', {}, 'False'),
        node('i-0ddddddddddddddd4'),
      ],
      groups: [],
      nodeRecovery: 'None',
      now: NOW,
    });
    assert.deepEqual(
      nodes.map((n) => [n.instanceGroupName, n.instanceId, n.health.state, n.health.code]),
      [
        ['cpu', 'i-0ccccccccccccccc3', 'transitional', 'registering'],
        ['gpu', 'i-0aaaaaaaaaaaaaaa1', 'failed', 'pending-reboot'],
        ['gpu', 'i-0bbbbbbbbbbbbbbb2', 'failed', 'not-ready'],
        ['gpu', 'i-0ddddddddddddddd4', 'degraded', 'instance-missing'],
      ],
    );
    assert.equal(nodes[1]!.health.suggestedAction, 'reboot');
    assert.match(nodes[1]!.health.reason, /Xid 79/);
    assert.equal(nodes[3]!.instanceStatus.status, 'NotFound');
  });
});
