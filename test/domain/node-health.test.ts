import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { InputError } from '../../src/domain/errors.js';
import { formatDuration, nodeHealth } from '../../src/domain/node-health.js';
import {
  DEEP_HEALTH_CHECK_LABEL,
  FAULT_REASON_LABEL,
  FAULT_TYPE_LABEL,
  INSTANCE_GROUP_LABEL,
  NODE_HEALTH_LABEL,
  type KubeNodeFacts,
  type NodeHealth,
  type NodeHealthInput,
  NodeHealthSchema,
  type SageMakerNodeFacts,
  nextEscalation,
} from '../../src/domain/node-health-terms.js';

const NOW = Date.parse('2026-05-01T12:00:00Z');
const minutesAgo = (m: number) => new Date(NOW - m * 60_000);

const sm = (status: string, extra: Partial<SageMakerNodeFacts> = {}, message?: string): SageMakerNodeFacts => ({
  instanceId: 'i-0abc',
  instanceGroupName: 'workers',
  instanceType: 'ml.p5.48xlarge',
  launchTime: minutesAgo(5),
  instanceStatus: { status, ...(message ? { message } : {}) },
  ...extra,
});

const ready = { type: 'Ready', status: 'True', reason: 'KubeletReady' };
const kube = (labels: Record<string, string> = {}, extra: Partial<KubeNodeFacts> = {}): KubeNodeFacts => ({
  name: 'hyperpod-i-0abc',
  labels: { [INSTANCE_GROUP_LABEL]: 'workers', [NODE_HEALTH_LABEL]: 'Schedulable', ...labels },
  conditions: [ready, { type: 'MemoryPressure', status: 'False' }],
  ...extra,
});

interface Case {
  name: string;
  input: Omit<NodeHealthInput, 'now'>;
  expect: Pick<NodeHealth, 'state' | 'code' | 'suggestedAction'>;
  /** Words the sentence must carry for a person to understand it. */
  says?: RegExp;
}

const cases: Case[] = [
  {
    name: 'running, Ready, schedulable',
    input: { sagemaker: sm('Running'), kube: kube() },
    expect: { state: 'healthy', code: 'healthy', suggestedAction: 'none' },
  },
  {
    name: 'passed deep health checks',
    input: { sagemaker: sm('Running'), kube: kube({ [DEEP_HEALTH_CHECK_LABEL]: 'Passed' }) },
    expect: { state: 'healthy', code: 'healthy', suggestedAction: 'none' },
    says: /passed its deep health checks/,
  },
  {
    name: 'launching',
    input: { sagemaker: sm('Pending', { launchTime: minutesAgo(3) }) },
    expect: { state: 'transitional', code: 'launching', suggestedAction: 'none' },
  },
  {
    name: 'pending without launch time yet (waiting for capacity)',
    input: { sagemaker: sm('Pending', { launchTime: undefined }) },
    expect: { state: 'transitional', code: 'launching', suggestedAction: 'none' },
  },
  {
    name: 'pending far too long',
    input: { sagemaker: sm('Pending', { launchTime: minutesAgo(90) }, 'waiting for capacity') },
    expect: { state: 'degraded', code: 'launch-slow', suggestedAction: 'investigate' },
    says: /90 minutes.*waiting for capacity.*cluster events/,
  },
  {
    name: 'rebooting (SageMaker message)',
    input: { sagemaker: sm('Pending', {}, 'Rebooting instance') },
    expect: { state: 'transitional', code: 'rebooting', suggestedAction: 'none' },
  },
  {
    name: 'rebooting (health label)',
    input: {
      sagemaker: sm('Pending'),
      kube: kube(
        { [NODE_HEALTH_LABEL]: 'UnschedulablePendingReboot' },
        { conditions: [{ type: 'Ready', status: 'Unknown' }] },
      ),
    },
    expect: { state: 'transitional', code: 'rebooting', suggestedAction: 'none' },
  },
  {
    name: 'being replaced',
    input: { sagemaker: sm('Pending', {}, 'Replacing instance i-0old') },
    expect: { state: 'transitional', code: 'replacing', suggestedAction: 'none' },
    says: /new instance id/,
  },
  {
    name: 'deep health check in progress (status)',
    input: {
      sagemaker: sm('DeepHealthCheckInProgress'),
      kube: kube({ [NODE_HEALTH_LABEL]: 'Unschedulable', [DEEP_HEALTH_CHECK_LABEL]: 'InProgress' }),
    },
    expect: { state: 'transitional', code: 'deep-health-check-running', suggestedAction: 'none' },
  },
  {
    name: 'deep health check in progress (label only)',
    input: {
      sagemaker: sm('Running'),
      kube: kube({ [NODE_HEALTH_LABEL]: 'Unschedulable', [DEEP_HEALTH_CHECK_LABEL]: 'InProgress' }),
    },
    expect: { state: 'transitional', code: 'deep-health-check-running', suggestedAction: 'none' },
  },
  {
    name: 'deep health check failed',
    input: {
      sagemaker: sm('Running'),
      kube: kube({ [NODE_HEALTH_LABEL]: 'Unschedulable', [DEEP_HEALTH_CHECK_LABEL]: 'Failed' }),
    },
    expect: { state: 'failed', code: 'deep-health-check-failed', suggestedAction: 'investigate' },
    says: /deep-health-check\.log/,
  },
  {
    name: 'deep health check failed, HyperPod wants a replacement',
    input: {
      sagemaker: sm('Running'),
      kube: kube({ [NODE_HEALTH_LABEL]: 'UnschedulablePendingReplacement', [DEEP_HEALTH_CHECK_LABEL]: 'Failed' }),
    },
    expect: { state: 'failed', code: 'pending-replacement', suggestedAction: 'replace' },
    says: /deep health checks failed/,
  },
  {
    name: 'system updating',
    input: { sagemaker: sm('SystemUpdating'), kube: kube() },
    expect: { state: 'transitional', code: 'system-updating', suggestedAction: 'none' },
  },
  {
    name: 'shutting down',
    input: { sagemaker: sm('ShuttingDown'), kube: kube() },
    expect: { state: 'transitional', code: 'shutting-down', suggestedAction: 'none' },
  },
  {
    name: 'instance not found',
    input: { sagemaker: sm('NotFound') },
    expect: { state: 'failed', code: 'instance-not-found', suggestedAction: 'investigate' },
  },
  {
    name: 'instance failure',
    input: { sagemaker: sm('Failure', {}, 'Lifecycle script failed') },
    expect: { state: 'failed', code: 'instance-failed', suggestedAction: 'investigate' },
    says: /Lifecycle script failed/,
  },
  {
    name: 'instance failure marked for replacement',
    input: { sagemaker: sm('Failure'), kube: kube({ [NODE_HEALTH_LABEL]: 'UnschedulablePendingReplacement' }) },
    expect: { state: 'failed', code: 'instance-failed', suggestedAction: 'replace' },
  },
  {
    name: 'unknown instance status',
    input: { sagemaker: sm('Hibernating') },
    expect: { state: 'degraded', code: 'unknown-instance-status', suggestedAction: 'investigate' },
    says: /Hibernating/,
  },
  {
    name: 'pending reboot with a fault, recovery None',
    input: {
      sagemaker: sm('Running'),
      nodeRecovery: 'None',
      kube: kube({
        [NODE_HEALTH_LABEL]: 'UnschedulablePendingReboot',
        [FAULT_TYPE_LABEL]: 'GpuError',
        [FAULT_REASON_LABEL]: 'Xid_73_NVLink',
      }),
    },
    expect: { state: 'failed', code: 'pending-reboot', suggestedAction: 'reboot' },
    says: /GpuError: Xid 73 NVLink.*node recovery is None/,
  },
  {
    name: 'pending reboot, recovery Automatic',
    input: {
      sagemaker: sm('Running'),
      nodeRecovery: 'Automatic',
      kube: kube({ [NODE_HEALTH_LABEL]: 'UnschedulablePendingReboot' }),
    },
    expect: { state: 'failed', code: 'pending-reboot', suggestedAction: 'none' },
    says: /itself/,
  },
  {
    name: 'pending replacement, recovery unknown',
    input: {
      sagemaker: sm('Running'),
      kube: kube({ [NODE_HEALTH_LABEL]: 'UnschedulablePendingReplacement', [FAULT_REASON_LABEL]: 'Xid_74' }),
    },
    expect: { state: 'failed', code: 'pending-replacement', suggestedAction: 'replace' },
  },
  {
    name: 'Unschedulable with a fault and no check running',
    input: {
      sagemaker: sm('Running'),
      kube: kube({ [NODE_HEALTH_LABEL]: 'Unschedulable', [FAULT_REASON_LABEL]: 'kernel_deadlock' }),
    },
    expect: { state: 'degraded', code: 'unschedulable', suggestedAction: 'investigate' },
    says: /kernel deadlock/,
  },
  {
    name: 'unknown health label value',
    input: { sagemaker: sm('Running'), kube: kube({ [NODE_HEALTH_LABEL]: 'UnschedulablePendingMagic' }) },
    expect: { state: 'degraded', code: 'unknown-health-label', suggestedAction: 'investigate' },
  },
  {
    name: 'NotReady for a while',
    input: {
      sagemaker: sm('Running'),
      kube: kube(
        {},
        {
          conditions: [
            {
              type: 'Ready',
              status: 'Unknown',
              reason: 'NodeStatusUnknown',
              message: 'Kubelet stopped posting node status.',
              lastTransitionTime: minutesAgo(40).toISOString(),
            },
          ],
        },
      ),
    },
    expect: { state: 'failed', code: 'not-ready', suggestedAction: 'investigate' },
    says: /NotReady for 40 minutes \(Kubelet stopped posting node status\.\)/,
  },
  {
    name: 'registered, no Ready condition yet',
    input: { sagemaker: sm('Running'), kube: kube({}, { conditions: [] }) },
    expect: { state: 'transitional', code: 'registering', suggestedAction: 'none' },
  },
  {
    name: 'memory pressure',
    input: {
      sagemaker: sm('Running'),
      kube: kube({}, { conditions: [ready, { type: 'MemoryPressure', status: 'True' }] }),
    },
    expect: { state: 'degraded', code: 'pressure', suggestedAction: 'investigate' },
    says: /MemoryPressure/,
  },
  {
    name: 'schedulable but a fault label stayed',
    input: { sagemaker: sm('Running'), kube: kube({ [FAULT_TYPE_LABEL]: 'NetworkError' }) },
    expect: { state: 'degraded', code: 'fault-reported', suggestedAction: 'investigate' },
  },
  {
    name: 'cordoned by a person',
    input: { sagemaker: sm('Running'), kube: kube({}, { unschedulable: true }) },
    expect: { state: 'degraded', code: 'cordoned', suggestedAction: 'none' },
    says: /uncordon/,
  },
  {
    name: 'running, joining Kubernetes',
    input: { sagemaker: sm('Running', { launchTime: minutesAgo(4) }) },
    expect: { state: 'transitional', code: 'registering', suggestedAction: 'none' },
  },
  {
    name: 'running, never joined Kubernetes',
    input: { sagemaker: sm('Running', { launchTime: minutesAgo(30) }) },
    expect: { state: 'failed', code: 'not-in-kubernetes', suggestedAction: 'investigate' },
    says: /30 minutes.*never joined/,
  },
  {
    name: 'Node left behind by a terminated instance',
    input: { kube: kube() },
    expect: { state: 'degraded', code: 'instance-missing', suggestedAction: 'investigate' },
  },
  {
    name: 'a plain (non-HyperPod) Ready node',
    input: { kube: { name: 'ip-10-0-0-1', conditions: [ready] } },
    expect: { state: 'healthy', code: 'healthy', suggestedAction: 'none' },
  },
];

describe('nodeHealth: one verdict per situation', () => {
  for (const c of cases) {
    it(c.name, () => {
      const h = nodeHealth({ ...c.input, now: NOW });
      assert.deepEqual({ state: h.state, code: h.code, suggestedAction: h.suggestedAction }, c.expect, h.reason);
      if (c.says) assert.match(h.reason, c.says);
      assert.ok(NodeHealthSchema.safeParse(h).success);
      assert.match(h.reason, /^[A-Z].*[.]$/, 'one sentence, capitalised, with a full stop');
    });
  }

  it('takes the time as a Date, a number or an ISO string', () => {
    for (const now of [NOW, new Date(NOW), new Date(NOW).toISOString()]) {
      assert.equal(
        nodeHealth({ sagemaker: sm('Running', { launchTime: minutesAgo(30) }), now }).code,
        'not-in-kubernetes',
      );
    }
  });

  it('refuses to judge without facts or without a valid time', () => {
    assert.throws(() => nodeHealth({ now: NOW }), InputError);
    assert.throws(
      () => nodeHealth({ kube: kube(), now: 'yesterday' }),
      (e: unknown) => e instanceof InputError && e.problems[0]?.path === 'now',
    );
  });

  it('never suggests replace before HyperPod asked for it, and always yields a valid view', () => {
    const labelValue = fc.option(
      fc.constantFrom(
        'Schedulable',
        'Unschedulable',
        'UnschedulablePendingReboot',
        'UnschedulablePendingReplacement',
        'Other',
      ),
      { nil: undefined },
    );
    const status = fc.constantFrom(
      'Running',
      'Failure',
      'Pending',
      'ShuttingDown',
      'SystemUpdating',
      'DeepHealthCheckInProgress',
      'NotFound',
    );
    fc.assert(
      fc.property(
        status,
        labelValue,
        fc.option(fc.constantFrom('InProgress', 'Passed', 'Failed'), { nil: undefined }),
        fc.boolean(),
        fc.constantFrom('True', 'False', 'Unknown'),
        (s, health, dhc, inKube, readyStatus) => {
          const labels: Record<string, string> = {};
          if (health) labels[NODE_HEALTH_LABEL] = health;
          if (dhc) labels[DEEP_HEALTH_CHECK_LABEL] = dhc;
          const h = nodeHealth({
            sagemaker: sm(s),
            ...(inKube ? { kube: { name: 'n', labels, conditions: [{ type: 'Ready', status: readyStatus }] } } : {}),
            now: NOW,
          });
          assert.ok(NodeHealthSchema.safeParse(h).success);
          if (h.suggestedAction === 'replace')
            assert.equal(labels[NODE_HEALTH_LABEL], 'UnschedulablePendingReplacement');
          if (h.suggestedAction === 'reboot') assert.equal(labels[NODE_HEALTH_LABEL], 'UnschedulablePendingReboot');
          if (h.state === 'healthy') assert.equal(s, 'Running');
        },
      ),
    );
  });
});

describe('escalation and wording helpers', () => {
  it('escalates investigate → reboot → replace, then stops', () => {
    assert.equal(nextEscalation('investigate'), 'reboot');
    assert.equal(nextEscalation('reboot'), 'replace');
    assert.equal(nextEscalation('replace'), undefined);
  });

  it('says durations the way people do', () => {
    assert.equal(formatDuration(20_000), 'less than a minute');
    assert.equal(formatDuration(60_000), '1 minute');
    assert.equal(formatDuration(150 * 60_000), '2 hours');
    assert.equal(formatDuration(72 * 3600_000), '3 days');
  });
});
