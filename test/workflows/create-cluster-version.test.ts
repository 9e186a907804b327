import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CloudPort, EksClusterSpec } from '../../src/cloud/ports.js';
import { eksPhase } from '../../src/capabilities/clusters/workflows/create-cluster/iam-eks-phases.js';
import type {
  CreateClusterInput,
  CreateClusterState,
} from '../../src/capabilities/clusters/workflows/create-cluster/types.js';
import { CloudError } from '../../src/domain/errors.js';
import type { EksKubernetesVersion } from '../../src/domain/kubernetes-versions.js';
import type { PhaseContext } from '../../src/engine/workflow.js';

const v = (version: string, isDefault = false): EksKubernetesVersion => ({
  version,
  isDefault,
  status: 'STANDARD_SUPPORT',
});

/** The eks phase's act against an EKS that offers `offered`, recording what it asked and journaled, in order. */
async function act(offered: EksKubernetesVersion[], p: { asked?: string; journaled?: string } = {}) {
  const events: string[] = [];
  const cloud = {
    eks: {
      clusterVersions: async () => (events.push('DescribeClusterVersions'), offered),
      createCluster: async (_region: string, spec: EksClusterSpec) => (
        events.push(`CreateCluster ${spec.version}`),
        { arn: 'arn:aws:eks:us-west-2:000000000000:cluster/c1-eks', version: spec.version }
      ),
    },
  } as unknown as CloudPort;
  let state: CreateClusterState = {
    accountId: '000000000000',
    subnets: { public: [], private: ['subnet-1'], compute: 'subnet-2' },
    securityGroupId: 'sg-1',
    eksClusterRoleArn: 'arn:aws:iam::000000000000:role/eks',
    ...(p.journaled ? { kubernetesVersion: p.journaled } : {}),
  };
  const input = {
    name: 'c1',
    region: 'us-west-2',
    ...(p.asked ? { kubernetesVersion: p.asked } : {}),
  } as CreateClusterInput;
  const ctx: PhaseContext<CreateClusterInput, CreateClusterState> = {
    operationId: 'op-1',
    input,
    get state() {
      return state;
    },
    setState(patch) {
      if (patch.kubernetesVersion && patch.kubernetesVersion !== state.kubernetesVersion)
        events.push(`journal ${patch.kubernetesVersion}`);
      state = { ...state, ...patch };
    },
    log: () => {},
    signal: new AbortController().signal,
    attempt: 1,
    earlierFailures: [],
  };
  const error = await eksPhase({ cloud }).act!(ctx).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { events, state, error };
}

describe("create-cluster's eks phase: the Kubernetes version it asks EKS for", () => {
  it("is the newest version HyperPod supports when EKS's default is newer, journaled before CreateCluster", async () => {
    const { events, state } = await act([v('1.35', true), v('1.34'), v('1.33')]);
    assert.deepEqual(events, ['DescribeClusterVersions', 'journal 1.34', 'CreateCluster 1.34']);
    assert.equal(state.kubernetesVersion, '1.34');
  });

  it('is the journaled one on a resumed or retried create, even when EKS now says otherwise', async () => {
    const { events } = await act([v('1.35'), v('1.33', true)], { journaled: '1.34' });
    assert.deepEqual(events, ['CreateCluster 1.34']);
  });

  it('is the one asked for, without asking EKS', async () => {
    const { events } = await act([v('1.35', true)], { asked: '1.32' });
    assert.deepEqual(events, ['journal 1.32', 'CreateCluster 1.32']);
  });

  it('is none when EKS offers no version HyperPod supports: the phase fails and creates nothing', async () => {
    const { events, error } = await act([v('1.36', true), v('1.35')]);
    assert.ok(error instanceof CloudError && error.code === 'NoSupportedKubernetesVersion', String(error));
    assert.match(
      (error as CloudError).message,
      /EKS offers no Kubernetes version in us-west-2 that SageMaker HyperPod supports \(1\.28 to 1\.34\)/,
    );
    assert.deepEqual(events, ['DescribeClusterVersions']);
  });
});
