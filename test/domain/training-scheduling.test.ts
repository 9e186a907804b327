import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { POD } from '../../src/domain/kube/pod.js';
import { pendingReason } from '../../src/domain/training/scheduling.js';

const pod = (name: string, limits: Record<string, string>, nodeName?: string) =>
  POD.parse({
    metadata: { name, namespace: 'default' },
    spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'pytorch', resources: { limits } }] },
    status: { phase: nodeName ? 'Running' : 'Pending' },
  });
const failed = (name: string, message: string) => ({ reason: 'FailedScheduling', message, object: `Pod/${name}` });

describe("why a job's pods wait for a node", () => {
  it("names the resource no node advertises and the device plugin that would advertise it, with the scheduler's words", () => {
    const reason = pendingReason({
      pods: [pod('j-worker-0', { 'nvidia.com/gpu': '1', 'vpc.amazonaws.com/efa': '1' })],
      events: [failed('j-worker-0', '0/2 nodes are available: 2 Insufficient nvidia.com/gpu.')],
      nodes: [
        { allocatable: { cpu: '4', 'vpc.amazonaws.com/efa': '1' } },
        { allocatable: { cpu: '4', 'nvidia.com/gpu': '0' } },
      ],
    });
    assert.match(
      reason!,
      /^1 pod wait for a node: no node advertises nvidia\.com\/gpu — the NVIDIA device plugin \(DaemonSet kube-system\/nvidia-device-plugin-daemonset\) is not running/,
    );
    assert.doesNotMatch(reason!, /efa/i, 'EFA is advertised: not the reason');
    assert.match(reason!, /The scheduler: "0\/2 nodes are available: 2 Insufficient nvidia\.com\/gpu\."/);
  });

  it("gives the scheduler's reason when the resource exists but is taken, and nothing when every pod is placed", () => {
    const busy = pendingReason({
      pods: [pod('a', { 'nvidia.com/gpu': '8' })],
      events: [failed('a', '0/1 nodes are available: 1 Insufficient nvidia.com/gpu.')],
      nodes: [{ allocatable: { 'nvidia.com/gpu': '1' } }],
    });
    assert.equal(
      busy,
      '1 pod wait for a node. The scheduler: "0/1 nodes are available: 1 Insufficient nvidia.com/gpu."',
    );
    assert.equal(
      pendingReason({ pods: [pod('a', { 'nvidia.com/gpu': '1' }, 'hyperpod-i-1')], events: [], nodes: [] }),
      undefined,
    );
  });
});
