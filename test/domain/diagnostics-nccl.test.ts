import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagnoseNccl, type NcclEvidence, type NcclRankEvidence } from '../../src/domain/diagnostics/nccl.js';
import { ncclEvidenceFrom, rankPods } from '../../src/domain/diagnostics/nccl-evidence-from.js';
import { ncclSignals } from '../../src/domain/diagnostics/nccl-log-lines.js';
import { nextJobName } from '../../src/domain/diagnostics/nccl-suggestions.js';
import { nodeSecurityGroupRules } from '../../src/domain/network/completeness.js';
import { DiagnosisSchema } from '../../src/domain/schemas/diagnostics.js';
import { placementFor, type InstanceTypeFacts } from '../../src/domain/training/placement.js';

/** Facts as the catalog reads them from EC2 DescribeInstanceTypes (p5: 8 H100, 32 EFA interfaces; g5: 1 EFA, no RDMA). */
const P5: InstanceTypeFacts = {
  instanceType: 'ml.p5.48xlarge',
  acceleratorName: 'H100',
  acceleratorCount: 8,
  efaSupported: true,
  maximumEfaInterfaces: 32,
};
const G5: InstanceTypeFacts = {
  instanceType: 'ml.g5.48xlarge',
  acceleratorName: 'A10G',
  acceleratorCount: 8,
  efaSupported: true,
  maximumEfaInterfaces: 1,
};
const SG = 'sg-0123456789abcdef0';

/** The environment the product sets for the type (placement.ts), as the pod carries it. */
const envFor = (facts: InstanceTypeFacts) =>
  Object.fromEntries(
    placementFor({ name: 'gpu', instanceType: facts.instanceType }, facts).env.map((v) => [v.name, v.value]),
  );

/**
 * NCCL INFO lines as NCCL 2.2x prints them with NCCL_DEBUG=INFO: "<host>:<pid>:<tid> [<dev>] NCCL INFO <text>".
 * The provider line is aws-ofi-nccl's (src/nccl_ofi_net.c: "NET/OFI Selected Provider is %s (found %d nics)");
 * "Using network AWS Libfabric" is NCCL's init.cc naming the plugin.
 */
const efaInit = (host: string) => [
  `${host}:417131:417177 [0] NCCL INFO Bootstrap : Using eth0:10.1.0.12<0>`,
  `${host}:417131:417177 [0] NCCL INFO NET/OFI Using aws-ofi-nccl 1.13.2-aws`,
  `${host}:417131:417177 [0] NCCL INFO NET/OFI Selected Provider is efa (found 32 nics)`,
  `${host}:417131:417177 [0] NCCL INFO Using network AWS Libfabric`,
  `${host}:417131:417177 [0] NCCL INFO comm 0x7f5d10e6e7d0 rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 53000 commId 0x14de91f5a6ab0c4b - Init COMPLETE`,
];
/** NCCL's built-in socket transport (src/transport/net_socket.cc: "NET/Socket : Using [0]eth0:…"), then "Using network Socket". */
const socketInit = (host: string) => [
  `${host}:79:79 [0] NCCL INFO Bootstrap : Using eth0:10.1.0.13<0>`,
  `${host}:79:79 [0] NCCL INFO NET/Socket : Using [0]eth0:10.1.0.13<0>`,
  `${host}:79:79 [0] NCCL INFO Using network Socket`,
  `${host}:79:79 [0] NCCL INFO comm 0x63d2de869050 rank 8 nranks 16 cudaDev 0 nvmlDev 0 busId 53000 commId 0x14de91f5a6ab0c4b - Init COMPLETE`,
];
/**
 * PyTorch 2.x ProcessGroupNCCL.cpp, as in pytorch/pytorch#118369 and hiyouga/LlamaFactory#7396:
 * "[rankN]:[E<mmdd> <time> ProcessGroupNCCL.cpp:<line>] [Rank N] Watchdog caught collective operation timeout:
 * WorkNCCL(SeqNum=…, OpType=…, NumelIn=…, NumelOut=…, Timeout(ms)=600000) ran for … milliseconds before timing out."
 */
const watchdog = (rank: number) => [
  `[rank${rank}]:[E1207 17:10:08.408271257 ProcessGroupNCCL.cpp:616] [Rank ${rank}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, NumelIn=466119168, NumelOut=466119168, Timeout(ms)=600000) ran for 600060 milliseconds before timing out.`,
  `[rank${rank}]:[E1207 17:10:08.465150152 ProcessGroupNCCL.cpp:1785] [PG ID 0 PG GUID 0(default_pg) Rank ${rank}] Exception (either an error or timeout) detected by watchdog at work: 1580, last enqueued NCCL work: 1582, last completed NCCL work: 1579.`,
];

function rank(n: number, over: Partial<NcclRankEvidence> = {}): NcclRankEvidence {
  return {
    rank: n,
    pod: `llama-worker-${n}`,
    node: `hyperpod-i-0${n}aaaaaaaaaaaaaa`,
    zone: 'us-west-2b',
    phase: 'Running',
    restarts: 0,
    env: { ...envFor(P5), NCCL_DEBUG: 'INFO' },
    efaRequested: 32,
    gpusRequested: 8,
    log: [...efaInit(`llama-worker-${n}`), 'step=10 loss=2.1000 tokens/s=51234.0 lr=3.00e-04'],
    ...over,
  };
}

function evidence(over: Partial<NcclEvidence> = {}, facts: InstanceTypeFacts = P5): NcclEvidence {
  const ranks = over.ranks ?? [rank(0), rank(1)];
  return {
    cluster: 'ml',
    region: 'us-west-2',
    job: {
      kind: 'HyperPodPyTorchJob',
      name: 'llama',
      namespace: 'default',
      instanceGroup: 'gpu',
      instanceType: facts.instanceType,
      facts,
    },
    ranks,
    nodes: ranks.map((r) => ({
      name: r.node ?? 'x',
      instanceGroup: 'gpu',
      instanceType: facts.instanceType,
      zone: r.zone,
      allocatable: { efa: facts.maximumEfaInterfaces ?? 0, gpu: facts.acceleratorCount ?? 0 },
    })),
    securityGroup: { groupId: SG, rules: nodeSecurityGroupRules(SG) },
    logTailLines: 200,
    ...over,
  };
}

const codes = (d: ReturnType<typeof diagnoseNccl>) => d.findings.map((f) => f.code);
const finding = (d: ReturnType<typeof diagnoseNccl>, code: string) => {
  const f = d.findings.find((x) => x.code === code);
  assert.ok(f, `expected a ${code} finding, got ${codes(d).join(', ')}`);
  return f;
};
const asDiagnosis = (d: ReturnType<typeof diagnoseNccl>) =>
  DiagnosisSchema.parse({
    subject: { kind: 'nccl', cluster: 'ml', region: 'us-west-2', id: 'default/llama' },
    ...d,
    readOnly: true,
    gatheredAt: '2026-12-07T17:00:00Z',
  });

describe('diagnoseNccl', () => {
  it('a healthy EFA job: no critical finding, EFA in use and the self rule confirmed, only read suggestions', () => {
    const d = diagnoseNccl(evidence());
    assert.deepEqual(
      d.findings.filter((f) => f.severity !== 'info').map((f) => f.code),
      [],
    );
    assert.deepEqual(codes(d), ['efa-in-use', 'sg-self-rule']);
    assert.match(finding(d, 'efa-in-use').evidence[0]!.detail, /NET\/OFI Selected Provider is efa \(found 32 nics\)/);
    assert.equal(finding(d, 'efa-in-use').evidence[0]!.source, 'rank 0 log');
    assert.match(d.summary, /No NCCL or EFA problem found for default\/llama/);
    assert.ok(d.suggestions.every((s) => !s.mutating));
    asDiagnosis(d);
  });

  it('an NCCL timeout is named with the ranks and lines; no other cause found → read the previous logs', () => {
    const d = diagnoseNccl(
      evidence({
        ranks: [
          rank(0, { restarts: 1, previousLog: [...efaInit('llama-worker-0'), ...watchdog(0)] }),
          rank(1, { log: [...efaInit('llama-worker-1'), ...watchdog(8)] }),
        ],
      }),
    );
    const t = finding(d, 'nccl-timeout');
    assert.equal(t.severity, 'critical');
    assert.deepEqual(
      t.evidence.map((e) => e.source),
      ['rank 0 previous log', 'rank 1 log'],
    );
    assert.match(t.evidence[0]!.detail, /Watchdog caught collective operation timeout: WorkNCCL\(SeqNum=1580/);
    assert.equal(d.findings[0]!.code, 'nccl-timeout', 'most severe first');
    assert.match(d.summary, /timed out on 2 rank\(s\) in default\/llama; the settings, devices/);
    assert.ok(
      d.suggestions.some(
        (s) => s.kind === 'mcp' && s.command.startsWith('get_job_logs') && /"previous":true/.test(s.command),
      ),
    );
    assert.deepEqual(finding(d, 'rank-restarts').evidence[0]!.detail, 'rank 0: phase Running, 1 restart(s)');
    asDiagnosis(d);
  });

  it('an NCCL timeout with FI_PROVIDER unset on an RDMA family: the timeout and the missing setting, the setting as cause', () => {
    const env = { ...envFor(P5) };
    delete env.FI_PROVIDER;
    const d = diagnoseNccl(
      evidence({
        ranks: [
          rank(0, { env, log: [...socketInit('llama-worker-0'), ...watchdog(0)] }),
          rank(1, { env, log: [...socketInit('llama-worker-1'), ...watchdog(8)] }),
        ],
      }),
    );
    assert.ok(codes(d).includes('nccl-timeout'));
    const missing = finding(d, 'efa-setting-missing');
    assert.equal(missing.severity, 'critical');
    assert.deepEqual(missing.evidence[0], {
      source: 'pod default/llama-worker-0 env',
      detail: 'rank 0: FI_PROVIDER is not set (want efa)',
    });
    const notUsed = finding(d, 'efa-not-used');
    assert.match(notUsed.evidence[0]!.detail, /NCCL INFO Using network Socket/);
    assert.match(d.summary, /likely cause: .*NCCL is not using EFA.*lack EFA settings ml\.p5\.48xlarge needs/);
    const resubmit = d.suggestions.find((s) => s.command.startsWith('delete_job'));
    assert.equal(resubmit?.mutating, true);
    // As delete_job takes it: confirm: true is part of the command the user says yes to.
    assert.equal(
      resubmit?.command,
      'delete_job {"cluster":"ml","namespace":"default","job":"llama","region":"us-west-2","confirm":true}',
    );
    assert.ok(
      !d.suggestions.some((s) => s.command.startsWith('submit_training_job')),
      'no request kept on the job: no resubmit to write',
    );
  });

  it('a job InstantStart submitted (its request kept): the fix is delete_job, then submit_training_job from that request under a new name', () => {
    const env = { ...envFor(P5) };
    delete env.FI_PROVIDER;
    const request = {
      namespace: 'default',
      recipe: 'pytorch-script',
      params: { script: '/data/code/train.py' },
      instanceGroup: 'gpu',
      nodes: 2,
      storage: 'shared-s3',
      env: [],
      checkpointless: false,
    };
    const base = evidence({ ranks: [rank(0, { env }), rank(1, { env })] });
    const d = diagnoseNccl({ ...base, job: { ...base.job, name: 'llama-7', request } });
    const mutating = d.suggestions.filter((s) => s.mutating).map((s) => s.command);
    assert.deepEqual(mutating, [
      'delete_job {"cluster":"ml","namespace":"default","job":"llama-7","region":"us-west-2","confirm":true}',
      'submit_training_job {"cluster":"ml","region":"us-west-2","job":"llama-8","group":"gpu","namespace":"default","recipe":"pytorch-script","params":{"script":"/data/code/train.py"},"nodes":2,"storage":"shared-s3","env":[],"checkpointless":false}',
    ]);
    assert.equal(nextJobName('a'.repeat(40)), `${'a'.repeat(38)}-2`);
    assert.equal(nextJobName('allreduce'), 'allreduce-2');
  });

  it('EFA not requested on an EFA type, and FI_EFA_USE_DEVICE_RDMA=1 on a family without RDMA', () => {
    const noEfa = diagnoseNccl(evidence({ ranks: [rank(0, { efaRequested: 0 }), rank(1, { efaRequested: 0 })] }));
    assert.match(
      finding(noEfa, 'efa-setting-missing').evidence[0]!.detail,
      /requests 0 vpc\.amazonaws\.com\/efa \(the type has 32\)/,
    );

    const g5Env = { ...envFor(G5), FI_EFA_USE_DEVICE_RDMA: '1' };
    const g5 = diagnoseNccl(
      evidence({ ranks: [rank(0, { env: g5Env, efaRequested: 1 }), rank(1, { env: g5Env, efaRequested: 1 })] }, G5),
    );
    assert.match(finding(g5, 'efa-setting-wrong').evidence[0]!.detail, /FI_EFA_USE_DEVICE_RDMA=1 on g5/);
    assert.ok(!codes(g5).includes('efa-setting-missing'), 'g5 needs no RDMA setting');
  });

  it('EFA not allocatable: the node advertises none, and a pending rank no node of the group can take', () => {
    const ev = evidence({ ranks: [rank(0), rank(1, { node: undefined, zone: undefined, phase: 'Pending', log: [] })] });
    ev.nodes = [
      {
        name: 'hyperpod-i-00aaaaaaaaaaaaaa',
        instanceGroup: 'gpu',
        instanceType: P5.instanceType,
        zone: 'us-west-2b',
        allocatable: { efa: 0, gpu: 8 },
      },
    ];
    const d = diagnoseNccl(ev);
    const f = finding(d, 'efa-not-allocatable');
    assert.equal(f.severity, 'critical');
    assert.deepEqual(
      f.evidence.map((e) => e.source),
      ['node hyperpod-i-00aaaaaaaaaaaaaa allocatable', 'pod default/llama-worker-1 (Pending, not scheduled)'],
    );
    assert.match(f.evidence[0]!.detail, /vpc\.amazonaws\.com\/efa: 0; rank 0 \(pod llama-worker-0\) requests 32/);
    assert.ok(d.suggestions.some((s) => s.command === 'kubectl describe node hyperpod-i-00aaaaaaaaaaaaaa'));
  });

  it('the security group without its self-referencing egress rule: sg-no-self-rule with the two commands, mutating', () => {
    const d = diagnoseNccl(
      evidence({
        securityGroup: {
          groupId: SG,
          rules: [
            { direction: 'ingress', protocol: '-1', peerGroupId: SG },
            { direction: 'egress', protocol: '-1', cidr: '0.0.0.0/0' },
          ],
        },
      }),
    );
    const f = finding(d, 'sg-no-self-rule');
    assert.equal(f.severity, 'critical');
    assert.match(f.title, /lacks the outbound all-traffic rule to itself/);
    assert.equal(f.evidence[0]!.source, `security group ${SG} rules`);
    const cmds = d.suggestions.filter((s) => s.kind === 'aws');
    assert.equal(cmds.length, 2);
    assert.ok(cmds.every((s) => s.mutating && s.command.includes(`--group-id ${SG}`)));
  });

  it('ranks across zones (and one on another group): named with the zones and the ranks', () => {
    const ev = evidence({ ranks: [rank(0), rank(1, { zone: 'us-west-2c' })] });
    ev.nodes[1]!.instanceGroup = 'gpu-b';
    const d = diagnoseNccl(ev);
    const f = finding(d, 'ranks-across-zones');
    assert.equal(f.severity, 'critical');
    assert.deepEqual(
      f.evidence.map((e) => e.detail),
      ['us-west-2b: ranks 0', 'us-west-2c: ranks 1'],
    );
    assert.equal(finding(d, 'ranks-outside-group').severity, 'warning');
  });

  it('with NCCL_DEBUG=WARN (what the product sets) the network choice is not in the logs: said, not guessed', () => {
    const d = diagnoseNccl(evidence({ ranks: [rank(0, { env: envFor(P5), log: ['step=1 loss=2.2'] })] }));
    assert.match(finding(d, 'nccl-init-not-logged').explanation, /NCCL_DEBUG is WARN/);
    assert.ok(!d.findings.some((f) => f.severity === 'critical'));
  });
});

describe('ncclSignals', () => {
  it('reads the upstream formats: provider (old and new aws-ofi-nccl), socket, OFI init failure, NCCL errors', () => {
    const s = ncclSignals([
      'ip-10-0-1-2:85:85 [0] NCCL INFO NET/OFI Selected provider is efa, fabric is efa-direct (found 4 nics)',
      // aws-ofi-nccl: NCCL_OFI_WARN("OFI fi_getinfo() call failed: %s", fi_strerror(ret)), as in its issue #889.
      'ip-10-0-1-2:85:85 [0] nccl_net_ofi_rdma_init:7737 NCCL WARN NET/OFI OFI fi_getinfo() call failed: No data available',
      // PyTorch's DistBackendError text (ProcessGroupNCCL.cpp): "NCCL error in: <file>:<line>, <reason>, NCCL version …".
      '[rank1]: torch.distributed.DistBackendError: NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:2027, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5',
      'step=1 loss=2.2',
    ]);
    assert.deepEqual(
      s.map((x) => [x.kind, x.value]),
      [
        ['ofi-provider', 'efa'],
        ['ofi-init-failed', 'NET/OFI OFI fi_getinfo() call failed: No data available'],
        ['nccl-error', 'unhandled system error (run with NCCL_DEBUG=INFO for details)'],
      ],
    );
  });
});

describe('ncclEvidenceFrom', () => {
  it('builds the evidence from the pods, nodes and logs as read: FI_/NCCL_ literals only, zone and group from the node labels', () => {
    const node = (name: string, zone: string, efa: string) => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        labels: {
          'sagemaker.amazonaws.com/instance-group-name': 'gpu',
          'node.kubernetes.io/instance-type': 'ml.p5.48xlarge',
          'topology.kubernetes.io/zone': zone,
        },
      },
      status: { allocatable: { 'vpc.amazonaws.com/efa': efa, 'nvidia.com/gpu': '8' } },
    });
    const pod = (n: number) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `llama-worker-${n}`, namespace: 'default', labels: { HPJob: 'llama' } },
      spec: {
        nodeName: `hyperpod-i-${n}`,
        nodeSelector: { 'sagemaker.amazonaws.com/instance-group-name': 'gpu' },
        containers: [
          {
            name: 'pytorch',
            env: [
              { name: 'NODE_RANK', value: String(n) },
              { name: 'FI_PROVIDER', value: 'efa' },
              { name: 'NCCL_DEBUG', value: 'WARN' },
              { name: 'HF_TOKEN', value: 'hf_secret' },
              { name: 'NCCL_SOCKET_IFNAME', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
            ],
            resources: { limits: { 'nvidia.com/gpu': '8', 'vpc.amazonaws.com/efa': '32' } },
          },
        ],
      },
      status: { phase: 'Running', containerStatuses: [{ name: 'pytorch', restartCount: n }] },
    });
    const ev = ncclEvidenceFrom({
      cluster: 'ml',
      region: 'us-west-2',
      job: {
        apiVersion: 'sagemaker.amazonaws.com/v1',
        kind: 'HyperPodPyTorchJob',
        metadata: { name: 'llama', namespace: 'default' },
      },
      podSelector: 'HPJob=llama',
      pods: [pod(1), pod(0)],
      nodes: [node('hyperpod-i-0', 'us-west-2b', '32'), node('hyperpod-i-1', 'us-west-2c', '0')],
      logs: new Map([['llama-worker-1', { current: ['b'], previous: ['a'] }]]),
      logTailLines: 100,
      facts: P5,
    });
    assert.deepEqual(ev.job, {
      kind: 'HyperPodPyTorchJob',
      name: 'llama',
      namespace: 'default',
      podSelector: 'HPJob=llama',
      instanceGroup: 'gpu',
      instanceType: 'ml.p5.48xlarge',
      facts: P5,
    });
    assert.deepEqual(ev.ranks[1], {
      rank: 1,
      pod: 'llama-worker-1',
      node: 'hyperpod-i-1',
      zone: 'us-west-2c',
      phase: 'Running',
      restarts: 1,
      env: { FI_PROVIDER: 'efa', NCCL_DEBUG: 'WARN' },
      efaRequested: 32,
      gpusRequested: 8,
      log: ['b'],
      previousLog: ['a'],
    });
    assert.deepEqual(ev.ranks[0]!.log, []);
    assert.deepEqual(
      ev.nodes.map((n) => [n.name, n.zone, n.allocatable.efa]),
      [
        ['hyperpod-i-0', 'us-west-2b', 32],
        ['hyperpod-i-1', 'us-west-2c', 0],
      ],
    );
    const d = diagnoseNccl(ev);
    assert.ok(['efa-not-allocatable', 'ranks-across-zones', 'sg-not-read'].every((c) => codes(d).includes(c)));
  });

  it("a RayJob's ranks are its Ray cluster's GPU pods (a CPU head runs no collective); the kubectl line selects them", () => {
    const rayPod = (name: string, gpus: number, env: Array<{ name: string; value: string }>) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default', labels: { 'ray.io/cluster': 'rl-abc' } },
      spec: {
        nodeName: 'hyperpod-i-0',
        nodeSelector: { 'sagemaker.amazonaws.com/instance-group-name': 'gpu' },
        containers: [{ name: 'ray', env, resources: gpus ? { limits: { 'nvidia.com/gpu': String(gpus) } } : {} }],
      },
      status: { phase: 'Running' },
    });
    const job = { apiVersion: 'ray.io/v1', kind: 'RayJob', metadata: { name: 'rl', namespace: 'default' } };
    const head = rayPod('rl-abc-head', 0, []);
    const worker = rayPod('rl-abc-gpu-worker-0', 8, [{ name: 'FI_PROVIDER', value: 'efa' }]);
    assert.deepEqual(
      rankPods(job, [head, worker]).map((p) => p.metadata.name),
      ['rl-abc-gpu-worker-0'],
    );
    assert.deepEqual(
      rankPods(job, [head]).map((p) => p.metadata.name),
      ['rl-abc-head'],
      'a CPU-only Ray cluster: every pod',
    );
    const hyperpod = { ...job, kind: 'HyperPodPyTorchJob' };
    assert.equal(rankPods(hyperpod, [head, worker]).length, 2, "a HyperPodPyTorchJob's pods are all ranks");
    const ev = ncclEvidenceFrom({
      cluster: 'ml',
      region: 'us-west-2',
      job,
      podSelector: 'ray.io/cluster=rl-abc',
      pods: rankPods(job, [head, worker]),
      nodes: [],
      logs: new Map(),
      logTailLines: 100,
    });
    assert.equal(ev.job.kind, 'RayJob');
    assert.deepEqual(
      ev.ranks.map((r) => [r.pod, r.env.FI_PROVIDER, r.gpusRequested]),
      [['rl-abc-gpu-worker-0', 'efa', 8]],
    );
    const d = diagnoseNccl({ ...ev, ranks: ev.ranks.map((r) => ({ ...r, log: [] })) });
    assert.ok(!codes(d).includes('no-ranks'));
    const withSetting = diagnoseNccl({
      ...evidence({}, P5),
      job: { ...evidence().job, kind: 'RayJob', podSelector: 'ray.io/cluster=rl-abc' },
      ranks: [rank(0, { env: {} })],
    });
    assert.ok(
      withSetting.suggestions.some((s) =>
        s.command.startsWith('kubectl get pods -n default -l ray.io/cluster=rl-abc '),
      ),
      'the kubectl line selects the Ray cluster pods',
    );
  });

  it('a job with no rank pods yet (a RayJob before its Ray cluster) is "nothing to judge", never "no problem found"', () => {
    const d = diagnoseNccl({ ...evidence(), job: { ...evidence().job, kind: 'RayJob' }, ranks: [] });
    assert.deepEqual(codes(d), ['no-ranks']);
    assert.match(d.summary, /^Nothing to judge for default\/[\w-]+ yet: its Ray cluster is not made yet\.$/);
    assert.ok(d.suggestions.some((s) => s.command.startsWith('wait_for_job ')));
    DiagnosisSchema.parse(asDiagnosis(d));
  });
});
