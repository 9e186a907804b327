import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { featureManifests } from '../../src/domain/cluster-dependencies.js';
import { CreateClusterCommand, SageMakerClient } from '@aws-sdk/client-sagemaker';
import { eventually, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { kubeAccess, type TestKubeCluster } from '../helpers/kube.js';
import {
  buildPrereqs,
  ensureQuota,
  group,
  waitForCluster,
  type HyperPodPrereqs,
} from '../sandbox/sagemaker-fixtures.js';

/**
 * The real kubectl against a sandbox EKS cluster running a HyperPod cluster, with the kubeconfig
 * `instantstart kubeconfig` prints: what a user does first after creating a cluster.
 */

const GPU = 'ml.g5.8xlarge';

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: trainingruns.example.instantstart.dev
spec:
  group: example.instantstart.dev
  scope: Namespaced
  names: { plural: trainingruns, singular: trainingrun, kind: TrainingRun, shortNames: [tr] }
  versions:
    - name: v1
      served: true
      storage: true
      subresources: { status: {} }
      additionalPrinterColumns:
        - { name: Model, type: string, jsonPath: .spec.model }
        - { name: Nodes, type: integer, jsonPath: .spec.nodes }
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              required: [model, nodes]
              properties:
                model: { type: string }
                nodes: { type: integer, minimum: 1 }
`;

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: default }
spec:
  replicas: 1
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
        - { name: web, image: nginx:1.27, resources: { requests: { cpu: 100m, memory: 64Mi } } }
`;

describe('kubectl against a sandbox EKS cluster with HyperPod nodes', () => {
  let sb: TestSandbox;
  let p: HyperPodPrereqs;
  let k: TestKubeCluster;
  let instanceIds: string[] = [];
  const file = (name: string, text: string) => {
    const path = join(sb.stateDir, name);
    writeFileSync(path, text);
    return path;
  };

  before(async () => {
    sb = await startTestSandbox();
    p = await buildPrereqs(sb, 'kx');
    await ensureQuota(sb, `${GPU} for cluster usage`, 4);
    await new SageMakerClient({}).send(
      new CreateClusterCommand({
        ClusterName: 'train',
        InstanceGroups: [group(p, 'gpu-workers', GPU, 2, { KubernetesConfig: { Labels: { team: 'research' } } })],
        VpcConfig: { SecurityGroupIds: [p.securityGroupId], Subnets: p.privateSubnets },
        Orchestrator: { Eks: { ClusterArn: p.eksClusterArn } },
        NodeRecovery: 'Automatic',
      }),
    );
    await waitForCluster(sb, 'train', 'InService');
    k = await kubeAccess(sb, p.eksClusterName);
    // The device plugins, as create-cluster installs them: nodes advertise GPUs only once these run.
    await k.kubectl(['apply', '-f', '-'], {
      input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: featureManifests('device-plugins', 'us-west-2') }),
    });
  });
  after(async () => sb.dispose());

  it('get nodes -o wide --show-labels: one Node per HyperPod instance, with HyperPod labels and internal IPs', async () => {
    const { stdout } = await k.kubectl(['get', 'nodes', '-o', 'wide', '--show-labels']);
    const lines = stdout.trim().split('\n');
    assert.match(lines[0]!, /NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION\s+INTERNAL-IP/);
    const nodes = lines.slice(1);
    assert.equal(nodes.length, 2, stdout);
    for (const line of nodes) {
      assert.match(line, /^hyperpod-i-[0-9a-f]{17}\s+Ready\s/);
      assert.match(line, /10\.1\.\d+\.\d+/, 'the private IP of the instance');
      assert.match(line, /sagemaker\.amazonaws\.com\/compute-type=hyperpod/);
      assert.match(line, /sagemaker\.amazonaws\.com\/instance-group-name=gpu-workers/);
      assert.match(line, /node\.kubernetes\.io\/instance-type=ml\.g5\.8xlarge/);
      assert.match(line, /sagemaker\.amazonaws\.com\/node-health-status=Schedulable/);
      assert.match(line, /team=research/);
    }
    instanceIds = nodes.map((l) => /^hyperpod-(i-[0-9a-f]{17})/.exec(l)![1]!);
    const gpus = async () =>
      (
        await k.kubectl([
          'get',
          'node',
          `hyperpod-${instanceIds[0]}`,
          '-o',
          'jsonpath={.status.allocatable.nvidia\\.com/gpu}',
        ])
      ).stdout;
    await eventually(async () => (await gpus()) === '1', {
      sandbox: sb,
      stepSeconds: 5,
      what: 'the GPU advertised once the NVIDIA plugin runs',
    });
  });

  it('apply -f a CRD, then a custom resource, and get it with its printer columns; a bad CR is refused naming the field', async () => {
    assert.match(
      (await k.kubectl(['apply', '-f', file('crd.yaml', CRD)])).stdout,
      /customresourcedefinition.apiextensions.k8s.io\/trainingruns.example.instantstart.dev created/,
    );
    const cr =
      'apiVersion: example.instantstart.dev/v1\nkind: TrainingRun\nmetadata: { name: llama, namespace: default }\nspec: { model: llama-3-8b, nodes: 2 }\n';
    assert.match(
      (await k.kubectl(['apply', '-f', file('cr.yaml', cr)])).stdout,
      /trainingrun.example.instantstart.dev\/llama created/,
    );
    const { stdout } = await k.kubectl(['get', 'tr']);
    // Only NAME is implicit: a CRD that wants AGE lists it, as on a real API server.
    assert.match(stdout, /NAME\s+MODEL\s+NODES\n/);
    assert.match(stdout, /llama\s+llama-3-8b\s+2\n/);
    const bad = await k.kubectl(
      ['apply', '-f', file('bad.yaml', cr.replace('nodes: 2', 'nodes: "two"').replace('llama,', 'bad,'))],
      { allowFailure: true },
    );
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /spec\.nodes/);
    assert.equal((await k.kubectl(['get', 'tr', 'bad'], { allowFailure: true })).code, 1, 'nothing stored');
    const typo = await k.kubectl(
      [
        'apply',
        '-f',
        file(
          'typo.yaml',
          DEPLOYMENT.replace('replicas: 1', 'replicas: 1\n  colour: red').replace('name: web,', 'name: typo,'),
        ),
      ],
      { allowFailure: true },
    );
    assert.notEqual(typo.code, 0);
    assert.match(typo.stderr, /unknown field "spec\.colour"/, 'kubectl asks for strict field validation, and gets it');
  });

  it('scale deployment changes the pod count; get pods -w sees the change; delete cascades', async () => {
    await k.kubectl(['apply', '-f', file('web.yaml', DEPLOYMENT)]);
    const watch = k.kubectlStream(['get', 'pods', '-w', '-l', 'app=web']);
    try {
      await watch.waitFor(/web-[a-z0-9]+-[a-z0-9]{5}\s+\S+\s+Running/, { advanceSeconds: 10 });
      await k.kubectl(['scale', 'deployment', 'web', '--replicas=3']);
      const running = async () =>
        (await k.kubectl(['get', 'pods', '-l', 'app=web', '--no-headers'])).stdout
          .trim()
          .split('\n')
          .filter((l) => /Running/.test(l)).length;
      await eventually(async () => (await running()) === 3, {
        sandbox: sb,
        stepSeconds: 10,
        what: '3 running web pods',
      });
      const seen = new Set(watch.output().match(/web-[a-z0-9]+-[a-z0-9]{5}/g));
      assert.equal(seen.size, 3, `the watch saw all three pods:\n${watch.output()}`);
    } finally {
      watch.stop();
    }
    await k.kubectl(['delete', 'deployment', 'web']);
    await eventually(
      async () => (await k.kubectl(['get', 'pods,replicasets', '-l', 'app=web', '--no-headers'])).stdout.trim() === '',
      { sandbox: sb, stepSeconds: 10, what: 'pods and replica sets gone' },
    );
  });

  it('logs -f --tail streams a training container as sandbox time passes', async () => {
    const pod =
      'apiVersion: v1\nkind: Pod\nmetadata: { name: trainer, namespace: default }\nspec:\n  restartPolicy: Never\n  containers:\n    - { name: main, image: pytorch/pytorch:2.5.1-cuda12.4, resources: { limits: { nvidia.com/gpu: 1 } } }\n';
    await k.kubectl(['apply', '-f', file('trainer.yaml', pod)]);
    await eventually(async () => /Running/.test((await k.kubectl(['get', 'pod', 'trainer', '--no-headers'])).stdout), {
      sandbox: sb,
      stepSeconds: 10,
      what: 'trainer running',
    });
    // Let the trainer print some steps, then attach without moving time: on a loaded machine kubectl
    // (and its token plugin) can take seconds to attach, and time racing ahead would end the run first.
    await eventually(async () => /step=\d+/.test((await k.kubectl(['logs', 'trainer'])).stdout), {
      sandbox: sb,
      stepSeconds: 10,
      what: 'first steps logged',
    });
    const logs = k.kubectlStream(['logs', '-f', '--tail=2', 'trainer']);
    try {
      await logs.waitFor(/step=\d+/, { tries: 300 });
      const first = logs.output().split('\n').filter(Boolean).length;
      await logs.waitFor(new RegExp(`(?:[^\\n]*\\n){${first + 2}}`), { advanceSeconds: 30 });
    } finally {
      logs.stop();
    }
  });

  it('a pod that fits nowhere stays Pending, with a FailedScheduling event saying why', async () => {
    const pod =
      'apiVersion: v1\nkind: Pod\nmetadata: { name: greedy, namespace: default }\nspec:\n  containers:\n    - { name: main, image: busybox, resources: { limits: { nvidia.com/gpu: 64 } } }\n';
    await k.kubectl(['apply', '-f', file('greedy.yaml', pod)]);
    await sb.advance(30);
    assert.match((await k.kubectl(['get', 'pod', 'greedy', '--no-headers'])).stdout, /Pending/);
    const events = await k.kubectl(['get', 'events', '--field-selector', 'involvedObject.name=greedy']);
    assert.match(events.stdout, /FailedScheduling/);
    assert.match(events.stdout, /Insufficient nvidia\.com\/gpu/);
  });

  it('a node fault flips the health label; HyperPod replaces the instance and a healthy node returns', async () => {
    const victim = instanceIds[0]!;
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'node-fault',
        cluster: 'train',
        instanceId: victim,
        health: 'UnschedulablePendingReplacement',
        reason: 'EC2 system status check failed: hardware failure',
      },
    });
    assert.equal(fault.status, 201);
    await sb.advance(1);
    const label = await k.kubectl([
      'get',
      'node',
      `hyperpod-${victim}`,
      '-o',
      'jsonpath={.metadata.labels.sagemaker\\.amazonaws\\.com/node-health-status}',
    ]);
    assert.equal(label.stdout, 'UnschedulablePendingReplacement');
    await eventually(
      async () => {
        const { stdout } = await k.kubectl([
          'get',
          'nodes',
          '-L',
          'sagemaker.amazonaws.com/node-health-status',
          '--no-headers',
        ]);
        const lines = stdout.trim().split('\n');
        return lines.length === 2 && !stdout.includes(victim) && lines.every((l) => /\sReady\s.*Schedulable$/.test(l));
      },
      { sandbox: sb, stepSeconds: 60, what: 'the faulted node replaced by a healthy one' },
    );
  });
});
