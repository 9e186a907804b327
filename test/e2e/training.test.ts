import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parse } from 'yaml';
import { kubeAccess, type TestKubeCluster } from '../helpers/kube.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';
import { call } from '../mcp/client-helpers.js';

const SPEED = 600;
/** The fault tests slow the sandbox clock so a rank can be hit while it runs (a job is ~1000 sandbox seconds). */
const FAULT_SPEED = 40;
/** Jobs that only have to finish run on a faster clock (two GPUs, five recipes one after another). */
const RUN_SPEED = 3000;
const jobs = '/api/v1/clusters/train/jobs';
const job = (name: string, ns = 'default') => `${jobs}/${ns}/${name}`;

/** Minimal valid parameters of each recipe (paths under /data, the data contract). */
const PARAMS: Record<string, Record<string, unknown>> = {
  'pytorch-script': { script: '/data/code/train.py', scriptArgs: ['--epochs', '1'] },
  'llama-factory-sft': { modelPath: '/data/models/Qwen/Qwen2.5-0.5B-Instruct/main', dataset: 'alpaca_en_demo' },
  'ms-swift-sft': {
    modelPath: '/data/models/Qwen/Qwen2.5-0.5B-Instruct/main',
    datasets: ['/data/datasets/alpaca/train.jsonl'],
  },
  'ms-swift-megatron-rlhf': {
    modelPath: '/data/models/Qwen/Qwen2.5-7B-Instruct/main',
    datasets: ['/data/datasets/dpo/train.jsonl'],
    globalBatchSize: 2,
  },
  'verl-rl': {
    modelPath: '/data/models/Qwen/Qwen2.5-0.5B-Instruct/main',
    trainFiles: '/data/datasets/gsm8k/train.parquet',
    valFiles: '/data/datasets/gsm8k/test.parquet',
  },
};

/**
 * Training end to end on the sandbox, on one cluster with two ml.g5.xlarge nodes (one GPU each),
 * a spot group, the shared S3 storage and the KubeRay feature: every recipe submitted through REST
 * becomes a valid HyperPodPyTorchJob or RayJob (kubectl) whose pods run on the chosen group with the
 * storage at /data, and succeeds; faults spend the recovery budget visibly (REST and MCP); refusals
 * create nothing; an MLflow job gets its pod identity and its metrics read back.
 */
describe('training jobs through REST and MCP on the sandbox', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let kube: TestKubeCluster;
  let mcp: Client;
  let group: string;
  let bucket: string;

  const until = async <T>(probe: () => Promise<T | undefined | false>, what: string, ms = 90_000): Promise<T> => {
    const deadline = Date.now() + ms;
    let last: unknown;
    while (Date.now() < deadline) {
      const v = await probe();
      if (v) return v;
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error(`timed out waiting for ${what}${last ? `: ${JSON.stringify(last)}` : ''}`);
  };
  const view = async (name: string) => {
    const r = await server.api('GET', job(name));
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };
  const phaseOf = (name: string, ...phases: string[]) =>
    until(
      async () => ((v) => (phases.includes(v.phase) ? v : undefined))(await view(name)),
      `${name} ${phases.join('/')}`,
    );
  const submit = async (body: Record<string, unknown>, status = 201) => {
    const r = await server.api('POST', jobs, body);
    assert.equal(r.status, status, JSON.stringify(r.body));
    return r.body;
  };
  const kubectlJson = async (args: string[]) => JSON.parse((await kube.kubectl([...args, '-o', 'json'])).stdout);
  const lastSeq = async () => Math.max(0, ...(await sb.calls()).map((c) => c.seq));
  const operationOk = async (r: { status: number; body: any }) => {
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const op = await server.waitForOperation(r.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
  };
  const clock = (speed: number) => sb.admin('/_sandbox/clock', { method: 'POST', body: { speed } });

  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
    await operationOk(
      await server.api('POST', '/api/v1/clusters', {
        name: 'train',
        availabilityZone: 'us-west-2b',
        instanceType: 'ml.g5.xlarge',
        instanceCount: 2,
        storage: { s3: true },
      }),
    );
    await operationOk(
      await server.api('POST', '/api/v1/clusters/train/instance-groups', {
        name: 'spot',
        availabilityZone: 'us-west-2b',
        instanceType: 'ml.c5.xlarge',
        instanceCount: 1,
        capacityType: 'spot',
      }),
    );
    const cluster = (await server.api('GET', '/api/v1/clusters/train')).body;
    group = cluster.instanceGroups.find((g: { name: string }) => g.name !== 'spot').name;
    bucket = cluster.storage.s3Bucket;
    kube = await kubeAccess(sb, 'train-eks');
    mcp = new Client({ name: 'e2e-training', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  });
  after(() => stopAll(mcp, server, sb));

  it('refuses bad input (400), an operator that is off and elastic on spot (422 naming the field), creating nothing', async () => {
    const base = {
      recipe: 'pytorch-script',
      params: PARAMS['pytorch-script'],
      instanceGroup: group,
      storage: 'shared-s3',
    };
    const seq = await lastSeq();
    const badName = await submit({ ...base, name: 'Bad_Name' }, 400);
    assert.equal(badName.errors[0].path, 'name');
    assert.equal((await submit({ ...base, name: 'x', recipe: 'no-such' }, 400)).errors[0].path, 'recipe');
    assert.equal(
      (await submit({ ...base, name: 'x', params: { script: '/etc/passwd' } }, 400)).errors[0].path,
      'params.script',
    );
    // A real API server refuses the whole job for a float metricThreshold (the operator's CRD types it integer):
    // refused here first, by field.
    const lossRule = { name: 'LossSpike', logPattern: '.*loss=([0-9.]+).*', metricThreshold: 2.5, operator: 'gt' };
    const floaty = await submit(
      {
        ...base,
        name: 'floaty',
        faultTolerance: { customRules: [lossRule], logMonitoring: { lowThroughput: { tokensPerSecondBelow: 99.5 } } },
      },
      400,
    );
    assert.deepEqual(floaty.errors.map((e: { path: string }) => e.path).sort(), [
      'faultTolerance.customRules.0.metricThreshold',
      'faultTolerance.logMonitoring.lowThroughput.tokensPerSecondBelow',
    ]);
    assert.match(floaty.errors[0].message, /whole number/);
    const torchrun = await submit(
      {
        name: 'x',
        custom: { image: 'my/trainer:1', command: ['torchrun', '--nproc-per-node=1', '/data/code/train.py'] },
        instanceGroup: group,
        storage: 'shared-s3',
      },
      400,
    );
    assert.equal(torchrun.errors[0].path, 'custom.command');
    const ray = await submit(
      { name: 'rl', recipe: 'verl-rl', params: PARAMS['verl-rl'], instanceGroup: group, storage: 'shared-s3' },
      422,
    );
    assert.equal(ray.errors[0].path, 'kuberay-operator');
    assert.match(ray.detail + ray.remedy, /PATCH \/api\/v1\/clusters\/train\/features/);
    const spot = await submit(
      { ...base, name: 'elastic-spot', instanceGroup: 'spot', nodes: 1, elastic: { minReplicas: 1, maxReplicas: 2 } },
      422,
    );
    assert.equal(spot.errors[0].path, 'elastic');
    assert.match(spot.detail, /spot/);
    assert.equal(
      (await server.api('POST', jobs, { ...base, name: 'x', storage: 'nope' })).body.errors[0].path,
      'storage',
    );
    assert.deepEqual(await sb.calls({ mutating: true, after: seq }), [], 'no mutation reached AWS or Kubernetes');
    assert.equal((await kube.kubectl(['get', 'hyperpodpytorchjobs', '-A', '-o', 'name'])).stdout.trim(), '');
    const list = (await server.api('GET', jobs)).body;
    assert.deepEqual(
      list.notServed.map((n: { kind: string }) => n.kind),
      ['RayJob'],
    );

    await operationOk(await server.api('PATCH', '/api/v1/clusters/train/features', { 'kuberay-operator': true }));
    assert.deepEqual((await server.api('GET', jobs)).body.notServed, []);
  });

  it('submits every recipe: the right kind (kubectl), pods on the chosen group with the storage at /data, each succeeds; a taken name is a 409', async () => {
    await clock(RUN_SPEED);
    const submitted = new Map<string, any>();
    for (const recipe of Object.keys(PARAMS)) {
      const name = `r-${recipe}`.slice(0, 40);
      const answer = await submit({
        name,
        recipe,
        params: PARAMS[recipe],
        instanceGroup: group,
        storage: 'shared-s3',
        nodes: recipe === 'pytorch-script' || recipe === 'verl-rl' ? 2 : 1,
        ...(recipe === 'pytorch-script' ? { saveAsTemplate: { name: 'pt-small' } } : {}),
      });
      assert.equal(answer.job.name, name);
      assert.equal(answer.job.recipe, recipe);
      submitted.set(recipe, answer.job);
    }
    assert.equal(
      submitted.get('pytorch-script').template ??
        (await server.api('GET', '/api/v1/clusters/train/training-templates/pt-small')).body.name,
      'pt-small',
    );

    // One kubectl read of both kinds (each kubectl run costs seconds of discovery).
    const objects = parse(
      (await kube.kubectl(['get', 'hyperpodpytorchjobs,rayjobs', '-n', 'default', '-o', 'yaml'])).stdout,
    ).items;
    for (const [recipe, j] of submitted) {
      const yaml = objects.find((o: any) => o.metadata.name === j.name);
      assert.ok(yaml, `${j.name} is in Kubernetes`);
      assert.equal(yaml.kind, j.kind, recipe);
      assert.equal(yaml.apiVersion, j.kind === 'RayJob' ? 'ray.io/v1' : 'sagemaker.amazonaws.com/v1');
      const template =
        j.kind === 'RayJob' ? yaml.spec.rayClusterSpec.headGroupSpec.template : yaml.spec.replicaSpecs[0].template;
      assert.deepEqual(template.spec.nodeSelector, { 'sagemaker.amazonaws.com/instance-group-name': group }, recipe);
      assert.equal(
        template.spec.containers[0].resources.limits['nvidia.com/gpu'],
        '1',
        `${recipe}: the g5.xlarge's one GPU`,
      );
      const claim = template.spec.volumes.find((v: any) => v.persistentVolumeClaim)?.persistentVolumeClaim.claimName;
      assert.equal(claim, 'shared-s3');
      assert.ok(
        template.spec.containers[0].volumeMounts.some((m: any) => m.mountPath === '/data'),
        recipe,
      );
      assert.equal(
        JSON.parse(yaml.metadata.annotations['instantstart.dev/request']).recipe,
        recipe,
        'the request is kept for re-submit',
      );
    }

    // A name is one job across both kinds, and a submit never overwrites.
    const sameKind = await submit(
      {
        name: 'r-pytorch-script',
        recipe: 'pytorch-script',
        params: PARAMS['pytorch-script'],
        instanceGroup: group,
        storage: 'shared-s3',
      },
      409,
    );
    assert.equal(sameKind.errors?.[0]?.path ?? sameKind.field ?? 'name', 'name');
    assert.match(sameKind.detail, /already exists/);
    const otherKind = await submit(
      {
        name: 'r-pytorch-script',
        recipe: 'verl-rl',
        params: PARAMS['verl-rl'],
        instanceGroup: group,
        storage: 'shared-s3',
      },
      409,
    );
    assert.match(otherKind.detail, /HyperPodPyTorchJob named r-pytorch-script exists/);

    const groupOfNode = new Map<string, string>(
      (await kubectlJson(['get', 'nodes'])).items.map((n: any) => [
        n.metadata.name,
        n.metadata.labels['sagemaker.amazonaws.com/instance-group-name'],
      ]),
    );
    for (const j of submitted.values()) {
      const done = await phaseOf(j.name, 'Succeeded', 'Failed');
      assert.equal(done.phase, 'Succeeded', `${j.name}: ${done.reason} ${done.message}`);
      // A finished RayJob's Ray cluster is gone with its pods (the GPUs are back); its ranks are read while it runs.
      if (j.kind === 'RayJob') {
        assert.match(done.rayCluster.name, /^r-verl-rl-/);
        // diagnose_nccl reads a RayJob too: with its Ray cluster gone there is nothing to judge, and it says so.
        const nccl = await server.api('GET', `/api/v1/clusters/train/diagnostics/jobs/default/${j.name}/nccl`);
        assert.equal(nccl.status, 200, JSON.stringify(nccl.body));
        assert.deepEqual(
          nccl.body.findings.map((f: { code: string }) => f.code),
          ['no-ranks'],
        );
        assert.match(nccl.body.summary, new RegExp(`no pod matches ray.io/cluster=${done.rayCluster.name}`));
        continue;
      }
      assert.equal(done.ranks.length, j.nodes);
      for (const rank of done.ranks) {
        assert.match(rank.node, /^hyperpod-i-/, `${j.name} rank ${rank.rank} ran on a HyperPod node`);
        assert.equal(
          groupOfNode.get(rank.node),
          group,
          `${j.name} rank ${rank.rank} ran on a node of the chosen group`,
        );
      }
    }
    const list = (await server.api('GET', jobs)).body;
    assert.deepEqual(
      new Set(list.jobs.map((j: { name: string }) => j.name)),
      new Set([...submitted.values()].map((j) => j.name)),
    );
    const listed = await call(mcp, 'list_jobs', { cluster: 'train' });
    assert.match(listed.text, /r-verl-rl \(RayJob, verl-rl, 2 nodes on .*\): Succeeded/);
    await clock(SPEED);
  });

  it('a crashed rank is a process restart counted in the budget (REST, MCP); with the budget spent the next crash fails the job', async () => {
    await clock(FAULT_SPEED);
    try {
      await submit({
        name: 'crashy',
        recipe: 'pytorch-script',
        params: PARAMS['pytorch-script'],
        instanceGroup: group,
        storage: 'shared-s3',
        nodes: 2,
        faultTolerance: { jobMaxRetryCount: 1 },
      });
      await phaseOf('crashy', 'Running');
      const crash = await sb.admin('/_sandbox/kube/train-eks/faults/training', {
        method: 'POST',
        body: { job: 'crashy', rank: 1, kind: 'crash' },
      });
      assert.equal(crash.status, 201, JSON.stringify(crash.body));
      const restarted = await until(
        async () => ((v) => (v.recovery.processRestarts?.used === 1 ? v : undefined))(await view('crashy')),
        'a process restart',
      );
      assert.deepEqual(restarted.recovery.processRestarts, { used: 1, allowed: 1, remaining: 0 });
      assert.equal(restarted.recovery.lastFault.level, 'process');
      assert.deepEqual(restarted.recovery.lastFault.ranks, [1]);
      assert.equal(restarted.recovery.exhausted, true);
      const text = (await call(mcp, 'get_job', { cluster: 'train', job: 'crashy' })).text;
      assert.match(text, /Recovery budget: restarts 1\/1/);
      assert.match(text, /last fault: process-level restart \(PLR\) of rank 1/);
      assert.match(text, /EXHAUSTED/);

      await phaseOf('crashy', 'Running');
      assert.equal(
        (
          await sb.admin('/_sandbox/kube/train-eks/faults/training', {
            method: 'POST',
            body: { job: 'crashy', rank: 0, kind: 'crash' },
          })
        ).status,
        201,
      );
      const failed = await phaseOf('crashy', 'Failed');
      assert.match(`${failed.reason} ${failed.message}`, /JobMaxRetryCount|retry/i);
      assert.match((await call(mcp, 'get_job', { cluster: 'train', job: 'crashy' })).text, /: Failed — /);
      // Its other rank would run on to its end: deleting the job frees both GPUs for the next test.
      assert.equal((await server.api('DELETE', `${job('crashy')}?confirm=true`)).body.deleted, true);
    } finally {
      await clock(SPEED);
    }
  });

  it('a hung rank is detected by the hang rule (LogStateHanging_JobHangingDetection) and restarted', async () => {
    await clock(FAULT_SPEED);
    try {
      await submit({
        name: 'hangs',
        recipe: 'pytorch-script',
        params: PARAMS['pytorch-script'],
        instanceGroup: group,
        storage: 'shared-s3',
        nodes: 1,
        faultTolerance: { logMonitoring: { hang: { gapSeconds: 30 } } },
      });
      await phaseOf('hangs', 'Running');
      // The gap counts from the first step line (before it only a start cut-off could fire).
      await until(
        async () => /step=\d+ loss=/.test((await kube.kubectl(['logs', 'hangs-pod-0'], { allowFailure: true })).stdout),
        'the first step line',
      );
      assert.equal(
        (
          await sb.admin('/_sandbox/kube/train-eks/faults/training', {
            method: 'POST',
            body: { job: 'hangs', rank: 0, kind: 'hang' },
          })
        ).status,
        201,
      );
      // A hung process stays hung: the clock may run fast again while the rule waits out its gap.
      await clock(SPEED);
      const detected = await until(
        async () =>
          ((v) => (v.recovery.processRestarts?.used >= 1 || v.phase === 'Hanging' ? v : undefined))(
            await view('hangs'),
          ),
        'the hang detected',
      );
      const events = (await view('hangs')).events.map((e: { reason: string }) => e.reason);
      assert.ok(
        detected.phase === 'Hanging' ||
          events.includes('LogStateHanging_JobHangingDetection') ||
          /LogStateHanging_JobHangingDetection/.test(detected.reason ?? ''),
        JSON.stringify({ phase: detected.phase, reason: detected.reason, events }),
      );
      await until(async () => (await view('hangs')).recovery.processRestarts.used >= 1, 'the hung rank restarted');
    } finally {
      await clock(SPEED);
    }
  });

  it('with tiered checkpointing on, elastic is refused naming elastic, and nothing is created', async () => {
    await operationOk(
      await server.api('PATCH', '/api/v1/clusters/train/features', {
        'tiered-checkpointing': { instanceMemoryAllocationPercentage: 20 },
      }),
    );
    const seq = await lastSeq();
    const r = await submit(
      {
        name: 'elastic-tiered',
        recipe: 'pytorch-script',
        params: PARAMS['pytorch-script'],
        instanceGroup: group,
        storage: 'shared-s3',
        nodes: 1,
        elastic: { minReplicas: 1, maxReplicas: 2 },
      },
      422,
    );
    assert.equal(r.errors[0].path, 'elastic');
    assert.match(r.detail, /tiered checkpointing/i);
    assert.deepEqual(await sb.calls({ mutating: true, after: seq }), []);
    assert.equal(
      (await kube.kubectl(['get', 'hyperpodpytorchjob', 'elastic-tiered'], { allowFailure: true })).code !== 0,
      true,
    );
  });

  it('MLflow: a server created through the API, a job reporting to it gets a pod identity, and its loss and throughput come back (REST, MCP)', async () => {
    const created = await server.api('POST', '/api/v1/mlflow/tracking-servers', {
      name: 'team',
      artifactStoreUri: `s3://${bucket}/mlflow`,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.status, 'Creating');
    assert.equal(created.body.ready, false);
    const arn = created.body.arn;
    await until(
      async () => (await server.api('GET', '/api/v1/mlflow/tracking-servers/team')).body.ready,
      'the server Created',
    );
    assert.match((await call(mcp, 'list_mlflow_servers', {})).text, /team: Created \(ready\)/);

    const answer = await submit({
      name: 'tracked',
      recipe: 'pytorch-script',
      params: PARAMS['pytorch-script'],
      instanceGroup: group,
      storage: 'shared-s3',
      nodes: 1,
      mlflow: { trackingServerArn: arn },
    });
    assert.equal(answer.job.mlflow.trackingServerArn, arn);
    const roles = (await sb.aws(['iam', 'list-roles'])).json.Roles.filter((r: { RoleName: string }) =>
      /^instantstart-train-mlflow-/.test(r.RoleName),
    );
    assert.equal(roles.length, 1);
    assert.match(JSON.stringify(roles[0].AssumeRolePolicyDocument), /pods\.eks\.amazonaws\.com/);
    const policy = (
      await sb.aws(['iam', 'get-role-policy', '--role-name', roles[0].RoleName, '--policy-name', 'instantstart-mlflow'])
    ).json.PolicyDocument;
    assert.deepEqual([policy.Statement[0].Action, policy.Statement[0].Resource].flat(), ['sagemaker-mlflow:*', arn]);
    const associations = (
      await sb.aws(['eks', 'list-pod-identity-associations', '--cluster-name', 'train-eks', '--namespace', 'default'])
    ).json.associations;
    const association = associations.find((a: { serviceAccount: string }) =>
      /^instantstart-mlflow-/.test(a.serviceAccount),
    );
    assert.ok(association, JSON.stringify(associations));
    const spec = (await kubectlJson(['get', 'hyperpodpytorchjob', 'tracked'])).spec.replicaSpecs[0].template.spec;
    assert.equal(spec.serviceAccountName, association.serviceAccount, 'the pods run as the associated service account');

    await phaseOf('tracked', 'Succeeded');
    const metrics = await until(
      async () =>
        ((m) => (m.series.every((s: { points: unknown[] }) => s.points.length > 10) ? m : undefined))(
          (await server.api('GET', `${job('tracked')}/metrics?metrics=loss,throughput&maxPoints=50`)).body,
        ),
      'the metric series',
    );
    assert.equal(metrics.source, 'mlflow');
    for (const s of metrics.series) {
      const steps = s.points.map((p: { step: number }) => p.step);
      assert.ok(
        steps.every((step: number, i: number) => i === 0 || step > steps[i - 1]),
        `${s.metric}: steps increase`,
      );
      assert.ok(s.points.length <= 50, 'thinned to maxPoints');
      assert.equal(steps.at(-1), 100, `${s.metric}: the last step is kept`);
    }
    const loss = metrics.series.find((s: { metric: string }) => s.metric === 'loss').points;
    assert.ok(loss.at(-1).value < loss[0].value, 'the loss went down');
    const text = (await call(mcp, 'get_job_metrics', { cluster: 'train', job: 'tracked' })).text;
    assert.match(text, /- loss: \d+ points, step \d+ → 100/);
    assert.match(text, /- throughput: \d+ points/);

    // The cluster's default server: a submit without mlflow reports to it.
    assert.equal((await server.api('PUT', '/api/v1/clusters/train/mlflow', { trackingServerArn: arn })).status, 200);
    const defaulted = await submit({
      name: 'tracked-default',
      recipe: 'pytorch-script',
      params: PARAMS['pytorch-script'],
      instanceGroup: group,
      storage: 'shared-s3',
      nodes: 1,
    });
    assert.equal(defaulted.job.mlflow.trackingServerArn, arn);
    // The identity is per server and namespace: the second job reuses it, nothing is made twice.
    assert.equal(
      (await sb.calls({ operation: 'CreatePodIdentityAssociation' })).filter((c) => c.status < 300).length,
      1,
    );
    assert.equal(
      (await sb.calls({ operation: 'CreateRole' })).filter((c) => c.status < 300 && /mlflow/.test(c.subject ?? ''))
        .length,
      2,
      "the server's role and the jobs' role, once each",
    );
    // An association pointed at another role (by hand, by another tool) is pointed back at the job role on the next
    // submit.
    const trustPods = JSON.stringify({
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Principal: { Service: 'pods.eks.amazonaws.com' },
          Action: ['sts:AssumeRole', 'sts:TagSession'],
        },
      ],
    });
    const other = (
      await sb.aws(['iam', 'create-role', '--role-name', 'someone-elses', '--assume-role-policy-document', trustPods])
    ).json.Role.Arn;
    assert.equal(
      (
        await sb.aws([
          'eks',
          'update-pod-identity-association',
          '--cluster-name',
          'train-eks',
          '--association-id',
          association.associationId,
          '--role-arn',
          other,
        ])
      ).code,
      0,
    );
    await submit({
      name: 'tracked-again',
      recipe: 'pytorch-script',
      params: PARAMS['pytorch-script'],
      instanceGroup: group,
      storage: 'shared-s3',
      nodes: 1,
      mlflow: { trackingServerArn: arn },
    });
    const described = (
      await sb.aws([
        'eks',
        'describe-pod-identity-association',
        '--cluster-name',
        'train-eks',
        '--association-id',
        association.associationId,
      ])
    ).json.association;
    assert.equal(described.roleArn, roles[0].Arn, 'the association names the job role again');
    assert.equal(
      (await sb.calls({ operation: 'CreatePodIdentityAssociation' })).filter((c) => c.status < 300).length,
      1,
      'updated, not made twice',
    );

    const unknown = await server.api('PUT', '/api/v1/clusters/train/mlflow', {
      trackingServerArn: arn.replace(/team$/, 'nobody'),
    });
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.errors[0].path, 'trackingServerArn');
  });

  it('deleting a tracking server: confirm required; the cluster linked to it is unlinked and its own role deleted (REST); a role the caller passed stays (MCP)', async () => {
    const arn = (await server.api('GET', '/api/v1/mlflow/tracking-servers/team')).body.arn as string;
    const ownRole = (await server.api('GET', '/api/v1/mlflow/tracking-servers/team')).body.roleArn
      .split('/')
      .pop() as string;
    assert.match(ownRole, /^instantstart-mlflow-team-/);
    const before = await lastSeq();
    const unconfirmed = await server.api('DELETE', '/api/v1/mlflow/tracking-servers/team');
    assert.equal(unconfirmed.status, 400, JSON.stringify(unconfirmed.body));
    assert.equal(unconfirmed.body.errors[0].path, 'confirm');
    assert.equal((await sb.calls({ mutating: true, after: before })).length, 0, 'a refused delete calls nothing');

    const deleted = await server.api('DELETE', '/api/v1/mlflow/tracking-servers/team?confirm=true');
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.deepEqual(
      { ...deleted.body, status: undefined },
      {
        server: 'team',
        region: 'us-west-2',
        deleted: true,
        status: undefined,
        unlinkedClusters: ['train'],
        deletedRole: ownRole,
      },
    );
    assert.equal(
      (await server.api('GET', '/api/v1/clusters/train/mlflow')).body.trackingServerArn,
      null,
      'the cluster is unlinked',
    );
    const gone = await sb.aws(['iam', 'get-role', '--role-name', ownRole], { allowFailure: true });
    assert.match(gone.stderr, /NoSuchEntity/, 'its role is gone (aws CLI)');
    await until(
      async () => (await server.api('GET', '/api/v1/mlflow/tracking-servers/team')).status === 404,
      'the server gone once SageMaker finished deleting it',
    );
    assert.equal(
      (await sb.aws(['sagemaker', 'list-mlflow-tracking-servers'])).json.TrackingServerSummaries.some(
        (t: { TrackingServerArn: string }) => t.TrackingServerArn === arn,
      ),
      false,
    );
    assert.equal(
      (await server.api('DELETE', '/api/v1/mlflow/tracking-servers/team?confirm=true')).body.deleted,
      false,
      'a repeat finds nothing to delete',
    );

    // A server made with the caller's own role: deleting the server leaves that role alone.
    const theirs = (
      await sb.aws([
        'iam',
        'create-role',
        '--role-name',
        'team-mlflow-own',
        '--assume-role-policy-document',
        JSON.stringify({
          Version: '2012-10-17',
          Statement: [{ Effect: 'Allow', Principal: { Service: 'sagemaker.amazonaws.com' }, Action: 'sts:AssumeRole' }],
        }),
      ])
    ).json.Role.Arn;
    assert.equal(
      (
        await server.api('POST', '/api/v1/mlflow/tracking-servers', {
          name: 'scratch',
          artifactStoreUri: `s3://${bucket}/scratch`,
          roleArn: theirs,
        })
      ).status,
      201,
    );
    const refused = await call(mcp, 'delete_mlflow_server', { server: 'scratch' });
    assert.ok(refused.isError, 'the tool needs confirm');
    const viaMcp = await call(mcp, 'delete_mlflow_server', { server: 'scratch', confirm: true });
    assert.ok(!viaMcp.isError, viaMcp.text);
    assert.match(viaMcp.text, /^Deleting MLflow tracking server scratch/);
    assert.equal((viaMcp.structuredContent as { deletedRole?: string }).deletedRole, undefined);
    assert.equal(
      (await sb.aws(['iam', 'get-role', '--role-name', 'team-mlflow-own'])).json.Role.Arn,
      theirs,
      "the caller's role stays",
    );
  });

  it('templates, re-submit and delete: a template is kept per cluster, a finished job runs again under a new name, delete needs confirm', async () => {
    const templates = (await server.api('GET', '/api/v1/clusters/train/training-templates')).body.templates;
    assert.deepEqual(
      templates.map((t: { name: string }) => t.name),
      ['pt-small'],
    );
    assert.equal(templates[0].request.recipe, 'pytorch-script');
    assert.equal(
      (
        await server.api('POST', '/api/v1/clusters/train/training-templates', {
          name: 'pt-small',
          request: templates[0].request,
        })
      ).status,
      409,
    );
    assert.equal(
      (
        await server.api('PUT', '/api/v1/clusters/train/training-templates/big', {
          request: { ...templates[0].request, nodes: 2 },
        })
      ).status,
      200,
    );
    assert.equal(
      (
        await server.api('PUT', '/api/v1/clusters/train/training-templates/bad', {
          request: { ...templates[0].request, recipe: 'nope' },
        })
      ).body.errors[0].path,
      'request.recipe',
    );
    assert.equal((await server.api('DELETE', '/api/v1/clusters/train/training-templates/big')).status, 200);
    assert.equal((await server.api('GET', '/api/v1/clusters/train/training-templates/big')).status, 404);

    const again = await server.api('POST', `${job('r-pytorch-script')}/resubmit`, { name: 'r-pytorch-again' });
    assert.equal(again.status, 201, JSON.stringify(again.body));
    assert.equal(again.body.job.recipe, 'pytorch-script');
    assert.equal(again.body.job.nodes, 2);

    const unconfirmed = await server.api('DELETE', job('r-pytorch-again'));
    assert.equal(unconfirmed.status, 400);
    assert.equal(unconfirmed.body.errors[0].path, 'confirm');
    const deleted = await call(mcp, 'delete_job', { cluster: 'train', job: 'r-pytorch-again', confirm: true });
    assert.match(deleted.text, /Deleted HyperPodPyTorchJob default\/r-pytorch-again/);
    const ray = await server.api('DELETE', `${job('r-verl-rl')}?confirm=true`);
    assert.deepEqual(ray.body, { job: 'r-verl-rl', namespace: 'default', kind: 'RayJob', deleted: true });
    await until(
      async () => (await kube.kubectl(['get', 'rayjob', 'r-verl-rl'], { allowFailure: true })).code !== 0,
      'the RayJob gone',
    );
    assert.equal((await server.api('GET', job('r-pytorch-again'))).status, 404);
  });
  it('pods schedule only once the device plugin runs on their nodes; with the plugin DaemonSet deleted a new job stays Pending and says why (REST, MCP)', async () => {
    // The first recipe job on the fresh cluster: each pod was bound only after the NVIDIA plugin on its node was Ready.
    const plugins = await kubectlJson([
      'get',
      'pods',
      '-n',
      'kube-system',
      '-l',
      'app.kubernetes.io/name=nvidia-device-plugin-daemonset',
    ]);
    const readyAt = new Map<string, string>(
      plugins.items.map((p: any) => [
        p.spec.nodeName,
        p.status.conditions.find((c: any) => c.type === 'Ready' && c.status === 'True')?.lastTransitionTime,
      ]),
    );
    assert.equal(readyAt.size, 2, 'the plugin runs on both GPU nodes');
    const nodes = await kubectlJson(['get', 'nodes', '-l', `sagemaker.amazonaws.com/instance-group-name=${group}`]);
    assert.ok(
      nodes.items.every((n: any) => n.status.allocatable['nvidia.com/gpu'] === '1'),
      'each GPU node advertises its GPU',
    );

    await kube.kubectl(['delete', 'daemonset', 'nvidia-device-plugin-daemonset', '-n', 'kube-system']);
    await until(async () => {
      const now = await kubectlJson(['get', 'nodes', '-l', `sagemaker.amazonaws.com/instance-group-name=${group}`]);
      return now.items.every((n: any) => n.status.allocatable['nvidia.com/gpu'] === undefined);
    }, 'the GPUs gone with the plugin');
    await submit({
      name: 'no-plugin',
      recipe: 'pytorch-script',
      params: PARAMS['pytorch-script'],
      instanceGroup: group,
      storage: 'shared-s3',
      nodes: 1,
    });
    const pending = await until(
      async () => ((v) => (v.pending && /Insufficient/.test(v.pending) ? v : undefined))(await view('no-plugin')),
      "the job's answer saying why it waits",
    );
    assert.equal(pending.phase, 'Pending');
    assert.ok(
      pending.ranks.every((r: any) => r.phase === 'Pending' && !r.node),
      'no pod is bound',
    );
    assert.match(pending.pending, /no node advertises nvidia\.com\/gpu/);
    assert.match(
      pending.pending,
      /NVIDIA device plugin \(DaemonSet kube-system\/nvidia-device-plugin-daemonset\) is not running/,
    );
    assert.match(pending.pending, /Insufficient nvidia\.com\/gpu/, "the scheduler's own words come along");
    const text = (await call(mcp, 'get_job', { cluster: 'train', job: 'no-plugin' })).text;
    assert.match(text, /Waiting for nodes: .*no node advertises nvidia\.com\/gpu.*NVIDIA device plugin/);
    await sb.advance(60);
    assert.equal((await view('no-plugin')).phase, 'Pending', 'still Pending a minute later');
  });
});
