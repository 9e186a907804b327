import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { karpenterManifests } from '../../src/domain/autoscaling.js';
import { featureManifests } from '../../src/domain/cluster-dependencies.js';
import { CUSTOM_RESOURCE_DEFINITION, isEstablished } from '../../src/domain/kube/custom-resource-definition.js';
import { DAEMON_SET } from '../../src/domain/kube/daemon-set.js';
import { DEPLOYMENT } from '../../src/domain/kube/deployment.js';
import { EVENT } from '../../src/domain/kube/event.js';
import { HYPERPOD_NODE_CLASS } from '../../src/domain/kube/hyperpod-node-class.js';
import { knownKind } from '../../src/domain/kube/index.js';
import { instanceIdOf, NODE, nodeKubeHealth } from '../../src/domain/kube/node.js';
import { NODE_POOL } from '../../src/domain/kube/node-pool.js';
import { PERSISTENT_VOLUME } from '../../src/domain/kube/persistent-volume.js';
import { PERSISTENT_VOLUME_CLAIM } from '../../src/domain/kube/persistent-volume-claim.js';
import { POD, podHealth } from '../../src/domain/kube/pod.js';
import { s3VolumeManifests } from '../../src/domain/storage-manifests.js';

const healthOf = <T extends { metadata: unknown }>(
  kind: { parse(raw: unknown): T; health?(o: T): { state: string; code: string; reason: string } },
  raw: unknown,
) => kind.health!(kind.parse(raw));

describe('Kubernetes kind modules: tolerant parsers and health views', () => {
  it('parse what they do not expect without throwing: wrong types read as absent, unknown fields are kept', () => {
    const node = NODE.parse({
      metadata: { name: 'hyperpod-i-0abc', labels: { ok: 'yes', bad: 7 } },
      spec: { taints: 'nope', providerID: 42, extra: 1 },
      status: { conditions: [{ status: 'True' }, { type: 'Ready', status: 'maybe' }] },
    });
    assert.deepEqual(node.metadata.labels, { ok: 'yes' });
    assert.deepEqual(node.spec.taints, []);
    assert.equal(node.spec.providerID, undefined);
    assert.equal(node.spec.extra, 1);
    assert.deepEqual(node.status.conditions, [{ type: 'Ready', status: 'Unknown' }]);
    assert.equal(node.apiVersion, 'v1', 'list items leave apiVersion out; the kind supplies it');
    assert.equal(instanceIdOf(node), 'i-0abc');
    for (const garbage of [null, 'text', 42, [], { metadata: 'x' }]) {
      for (const kind of [
        NODE,
        POD,
        EVENT,
        DAEMON_SET,
        DEPLOYMENT,
        PERSISTENT_VOLUME,
        PERSISTENT_VOLUME_CLAIM,
        CUSTOM_RESOURCE_DEFINITION,
        HYPERPOD_NODE_CLASS,
        NODE_POOL,
      ]) {
        const parsed = kind.parse(garbage);
        assert.equal(parsed.metadata.name, '');
        if (kind.health)
          assert.ok(['healthy', 'transitional', 'degraded', 'failed'].includes(kind.health(parsed as never).state));
      }
    }
  });

  it('judge pods: done, running, waiting for a node, stuck on an image, crash-looping', () => {
    assert.equal(podHealth(POD.parse({ metadata: { name: 'p' }, status: { phase: 'Succeeded' } })).state, 'healthy');
    const running = POD.parse({
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'a' }] },
      status: {
        phase: 'Running',
        containerStatuses: [{ name: 'a', ready: true, restartCount: 0, state: { running: {} } }],
      },
    });
    assert.deepEqual([podHealth(running).state, running.spec.containers], ['healthy', ['a']]);
    const pending = healthOf(POD, {
      metadata: { name: 'p' },
      status: {
        phase: 'Pending',
        conditions: [
          {
            type: 'PodScheduled',
            status: 'False',
            reason: 'Unschedulable',
            message: '0/2 nodes are available: 2 Insufficient nvidia.com/gpu',
          },
        ],
      },
    });
    assert.deepEqual([pending.state, pending.code], ['transitional', 'unschedulable']);
    assert.match(pending.reason, /Insufficient nvidia\.com\/gpu/);
    const image = healthOf(POD, {
      metadata: { name: 'p' },
      status: {
        phase: 'Pending',
        containerStatuses: [{ name: 'a', state: { waiting: { reason: 'ImagePullBackOff', message: 'not found' } } }],
      },
    });
    assert.deepEqual([image.state, image.code], ['failed', 'ImagePullBackOff']);
    const crash = healthOf(POD, {
      metadata: { name: 'p' },
      status: {
        phase: 'Running',
        containerStatuses: [{ name: 'a', restartCount: 4, state: { waiting: { reason: 'CrashLoopBackOff' } } }],
      },
    });
    assert.deepEqual([crash.state, crash.code], ['degraded', 'CrashLoopBackOff']);
    assert.match(crash.reason, /4 restarts/);
  });

  it('judge the add-ons and storage: rollouts, a DaemonSet with no nodes yet, bound volumes', () => {
    const ds = (status: Record<string, number>, generation = 1) =>
      healthOf(DAEMON_SET, {
        metadata: { name: 'agent', namespace: 'aws-hyperpod', generation },
        status: { observedGeneration: 1, ...status },
      });
    assert.equal(ds({ desiredNumberScheduled: 0 }).code, 'no-nodes');
    assert.equal(ds({ desiredNumberScheduled: 3, updatedNumberScheduled: 3, numberReady: 1 }).state, 'transitional');
    assert.equal(ds({ desiredNumberScheduled: 3, updatedNumberScheduled: 3, numberReady: 3 }).state, 'healthy');
    assert.equal(
      ds({ desiredNumberScheduled: 3, updatedNumberScheduled: 3, numberReady: 3 }, 2).code,
      'rolling-out',
      'the controller has not seen generation 2',
    );
    const stuck = healthOf(DEPLOYMENT, {
      metadata: { name: 'cm', namespace: 'cert-manager' },
      spec: { replicas: 2 },
      status: { conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }] },
    });
    assert.equal(stuck.state, 'failed');
    assert.equal(
      healthOf(DEPLOYMENT, {
        metadata: { name: 'cm' },
        status: { updatedReplicas: 1, availableReplicas: 1, replicas: 1 },
      }).state,
      'healthy',
      'replicas defaults to 1',
    );
    const [pv, pvc] = s3VolumeManifests({ volumeName: 'v', claimName: 'c', bucket: 'b', region: 'us-west-2' }).map(
      (m, i) => (i === 0 ? PERSISTENT_VOLUME : PERSISTENT_VOLUME_CLAIM).parse({ ...m, status: { phase: 'Bound' } }),
    );
    assert.deepEqual([pv!.spec.claimRef, pv!.spec.csiDriver], [{ namespace: 'default', name: 'c' }, 's3.csi.aws.com']);
    assert.equal(PERSISTENT_VOLUME_CLAIM.health!(pvc as never).reason, 'Bound to volume v; pods can mount it.');
    assert.equal(
      healthOf(PERSISTENT_VOLUME, { metadata: { name: 'v' }, status: { phase: 'Released' } }).state,
      'degraded',
    );
  });

  it('judge CRDs and Karpenter objects: Established, Ready, and reasons no waiting fixes', () => {
    const crd = CUSTOM_RESOURCE_DEFINITION.parse({
      metadata: { name: 'nodepools.karpenter.sh' },
      spec: {
        group: 'karpenter.sh',
        names: { kind: 'NodePool', plural: 'nodepools' },
        versions: [
          { name: 'v1', served: true },
          { name: 'v1beta1', served: false },
        ],
      },
      status: { conditions: [{ type: 'Established', status: 'True' }] },
    });
    assert.equal(isEstablished(crd), true);
    assert.deepEqual(crd.spec.servedVersions, ['v1']);
    assert.equal(
      healthOf(CUSTOM_RESOURCE_DEFINITION, {
        metadata: { name: 'x' },
        status: { conditions: [{ type: 'NamesAccepted', status: 'False', reason: 'KindConflict' }] },
      }).state,
      'failed',
    );
    const [nodeClass, nodePool] = karpenterManifests(['gpu']);
    const cls = HYPERPOD_NODE_CLASS.parse({
      ...nodeClass,
      status: {
        conditions: [
          {
            type: 'Ready',
            status: 'False',
            reason: 'InstanceGroupNotFound',
            message: "instance group(s) 'gpu' not found",
          },
        ],
      },
    });
    assert.deepEqual(cls.spec.instanceGroups, ['gpu']);
    assert.deepEqual(
      [HYPERPOD_NODE_CLASS.health!(cls).state, HYPERPOD_NODE_CLASS.health!(cls).code],
      ['failed', 'InstanceGroupNotFound'],
    );
    const pool = NODE_POOL.parse({
      ...nodePool,
      status: { nodes: 2, conditions: [{ type: 'Ready', status: 'True' }] },
    });
    assert.deepEqual(
      [pool.spec.nodeClassRef, pool.status.nodes, NODE_POOL.health!(pool).state],
      [{ group: 'karpenter.sagemaker.amazonaws.com', kind: 'HyperpodNodeClass', name: 'instantstart' }, 2, 'healthy'],
    );
    assert.equal(NODE_POOL.crd, 'nodepools.karpenter.sh');
  });

  it('know every kind the product creates, and judge Nodes with the one node-health model', () => {
    const manifests = [
      ...featureManifests('health-monitoring-agent', 'us-west-2'),
      ...featureManifests('device-plugins', 'us-west-2'),
      ...karpenterManifests(['a']),
      ...s3VolumeManifests({ volumeName: 'v', claimName: 'c', bucket: 'b', region: 'us-west-2' }),
    ];
    assert.deepEqual(
      manifests.filter((m) => !knownKind(m.apiVersion, m.kind)).map((m) => m.kind),
      [],
      'every manifest finds its kind without discovery',
    );
    const labelled = NODE.parse({
      metadata: {
        name: 'hyperpod-i-1',
        labels: { 'sagemaker.amazonaws.com/node-health-status': 'UnschedulablePendingReboot' },
      },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    });
    assert.deepEqual(
      [nodeKubeHealth(labelled, Date.now()).state, nodeKubeHealth(labelled, Date.now()).code],
      ['failed', 'pending-reboot'],
    );
    const event = EVENT.parse({
      metadata: { name: 'e', creationTimestamp: '2026-01-01T00:00:00Z' },
      involvedObject: { kind: 'Node', name: 'n' },
      type: 'Warning',
      reason: 'NodeNotReady',
      count: 'three',
    });
    assert.deepEqual([event.type, event.count, event.lastSeen], ['Warning', undefined, '2026-01-01T00:00:00Z']);
  });
});
