import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { featureManifests } from '../../src/domain/cluster-dependencies.js';
import { InputError } from '../../src/domain/errors.js';
import {
  affinityAdmits,
  DAEMON_SET,
  daemonSetCoverage,
  nodeSelectorMatches,
  type KubeDaemonSet,
} from '../../src/domain/kube/daemon-set.js';
import type { KubeObject } from '../../src/domain/kube-object.js';

/**
 * The node agents create-cluster installs, held to HyperPod's dependencies chart
 * (aws/sagemaker-hyperpod-cli helm_chart/HyperPodHelmChart @ 011ca92) and to the labels real
 * HyperPod nodes carry (shared/reference/real-account-facts.md, facts 1–3).
 */

/** The labels a real HyperPod node carries (hyperpod-apis.md §4; compute-type in lower case). */
const realNode = (name: string, instanceType: string) => ({
  name,
  labels: {
    'sagemaker.amazonaws.com/compute-type': 'hyperpod',
    'sagemaker.amazonaws.com/instance-group-name': 'workers',
    'sagemaker.amazonaws.com/node-health-status': 'Schedulable',
    'node.kubernetes.io/instance-type': instanceType,
    'kubernetes.io/hostname': name,
  },
});

const daemonSets = (region = 'us-west-2'): KubeObject[] =>
  [...featureManifests('device-plugins', region), ...featureManifests('health-monitoring-agent', region)].filter(
    (o) => o.kind === 'DaemonSet',
  );
const byName = (name: string, region = 'us-west-2') => daemonSets(region).find((o) => o.metadata.name === name)!;
const podSpec = (ds: KubeObject): any => (ds.spec as any).template.spec;
const container = (ds: KubeObject): any => podSpec(ds).containers[0];

describe('node agents: device plugins and the health-monitoring agent as the chart runs them', () => {
  it('every DaemonSet we ship selects the real HyperPod nodes of its instance types (compute-type: hyperpod)', () => {
    const nodes = {
      nvidia: realNode('hyperpod-i-0p5', 'ml.p5.48xlarge'),
      neuron: realNode('hyperpod-i-0trn', 'ml.trn1.32xlarge'),
      cpu: realNode('hyperpod-i-0c5', 'ml.c5.xlarge'),
    };
    const selects = (name: string) =>
      Object.entries(nodes)
        .filter(([, n]) => {
          const ds = DAEMON_SET.parse(byName(name)) as KubeDaemonSet;
          return nodeSelectorMatches(ds, n.labels) && affinityAdmits(ds, n.labels);
        })
        .map(([k]) => k);
    assert.deepEqual(selects('nvidia-device-plugin-daemonset'), ['nvidia']);
    assert.deepEqual(selects('neuron-device-plugin'), ['neuron']);
    assert.deepEqual(selects('aws-efa-k8s-device-plugin'), ['nvidia', 'neuron']);
    assert.deepEqual(selects('health-monitoring-agent'), ['nvidia']);
    assert.deepEqual(selects('health-monitoring-agent-non-nvidia'), ['neuron']);
    for (const ds of daemonSets())
      assert.deepEqual(
        podSpec(ds).nodeSelector,
        { 'sagemaker.amazonaws.com/compute-type': 'hyperpod' },
        ds.metadata.name,
      );
  });

  it("each device plugin mounts the kubelet's socket directory from the host, with the chart's security context and tolerations", () => {
    for (const name of ['nvidia-device-plugin-daemonset', 'neuron-device-plugin', 'aws-efa-k8s-device-plugin']) {
      const ds = byName(name);
      const mount = container(ds).volumeMounts.find((m: any) => m.mountPath === '/var/lib/kubelet/device-plugins');
      assert.ok(mount, `${name} mounts /var/lib/kubelet/device-plugins`);
      assert.deepEqual(
        podSpec(ds).volumes.find((v: any) => v.name === mount.name).hostPath,
        { path: '/var/lib/kubelet/device-plugins' },
        name,
      );
      assert.equal(podSpec(ds).priorityClassName, 'system-node-critical', name);
      assert.ok(
        podSpec(ds).tolerations.some(
          (t: any) =>
            t.key === 'sagemaker.amazonaws.com/node-health-status' &&
            t.value === 'Unschedulable' &&
            t.effect === 'NoSchedule',
        ),
        `${name} tolerates HyperPod's health taint`,
      );
    }
    assert.deepEqual(container(byName('nvidia-device-plugin-daemonset')).securityContext, {
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    assert.deepEqual(container(byName('neuron-device-plugin')).securityContext, {
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    assert.deepEqual(container(byName('aws-efa-k8s-device-plugin')).securityContext, {
      allowPrivilegeEscalation: true,
      privileged: true,
      runAsNonRoot: false,
      runAsUser: 0,
    });
    assert.equal(podSpec(byName('aws-efa-k8s-device-plugin')).hostNetwork, true);
    assert.equal(container(byName('nvidia-device-plugin-daemonset')).image, 'nvcr.io/nvidia/k8s-device-plugin:v0.16.1');
  });

  it('the agent has its flag, its RBAC, the /var/log and /dev/kmsg mounts and NODE_NAME from the downward API', () => {
    const objects = featureManifests('health-monitoring-agent', 'us-west-2');
    const role = objects.find((o) => o.kind === 'ClusterRole') as any;
    const allows = (resource: string, verb: string, group = '') =>
      role.rules.some(
        (r: any) => r.apiGroups.includes(group) && r.resources.includes(resource) && r.verbs.includes(verb),
      );
    for (const [resource, verb] of [
      ['nodes', 'get'],
      ['nodes', 'patch'],
      ['nodes/status', 'patch'],
      ['events', 'create'],
    ])
      assert.ok(allows(resource!, verb!), `${verb} ${resource}`);
    const binding = objects.find((o) => o.kind === 'ClusterRoleBinding') as any;
    assert.deepEqual(
      [binding.roleRef.name, binding.subjects],
      [
        'health-monitoring-agent',
        [{ kind: 'ServiceAccount', name: 'health-monitoring-agent', namespace: 'aws-hyperpod' }],
      ],
    );
    assert.ok(
      container(byName('health-monitoring-agent-non-nvidia')).args.includes(
        '--config.system-log-monitor=/config/system-message-monitor.json',
      ),
    );
    for (const ds of daemonSets().filter((d) => d.metadata.name!.startsWith('health-monitoring-agent'))) {
      const c = container(ds);
      assert.ok(
        !(c.args ?? []).some((a: string) => a.startsWith('--config.monitor')),
        'no such flag as --config.monitor',
      );
      assert.equal(podSpec(ds).serviceAccountName, 'health-monitoring-agent');
      const hostPaths = Object.fromEntries(podSpec(ds).volumes.map((v: any) => [v.name, v.hostPath.path]));
      const mounted = Object.fromEntries(c.volumeMounts.map((m: any) => [m.mountPath, hostPaths[m.name]]));
      assert.equal(mounted['/var/log'], '/var/log/');
      assert.equal(mounted['/dev/kmsg'], '/dev/kmsg');
      assert.deepEqual(
        c.env.find((e: any) => e.name === 'NODE_NAME'),
        { name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
      );
    }
  });

  it("pulls the agent from its Region's own ECR account at the chart's tag, and refuses a Region the chart lacks by field", () => {
    for (const [region, account] of [
      ['us-west-2', '905418368575'],
      ['us-east-1', '767398015722'],
      ['eu-west-1', '533267293120'],
    ]) {
      for (const name of ['health-monitoring-agent', 'health-monitoring-agent-non-nvidia']) {
        assert.equal(
          container(byName(name, region!)).image,
          `${account}.dkr.ecr.${region}.amazonaws.com/hyperpod-health-monitoring-agent:1.0.1892.0_1.0.424.0`,
        );
      }
    }
    assert.throws(
      () => featureManifests('health-monitoring-agent', 'af-south-1'),
      (err: unknown) =>
        err instanceof InputError &&
        err.problems[0]?.path === 'region' &&
        /af-south-1/.test(err.problems[0]!.message) &&
        /us-west-2/.test(err.problems[0]!.message),
    );
  });

  it('a DaemonSet that runs on none of the HyperPod nodes it is for is not healthy, and says which selector matched nothing', () => {
    const shipped = byName('nvidia-device-plugin-daemonset');
    const withStatus = (manifest: KubeObject, desired: number, selector?: Record<string, string>) =>
      DAEMON_SET.parse({
        ...manifest,
        spec: selector
          ? {
              ...(manifest.spec as any),
              template: { ...(manifest.spec as any).template, spec: { ...podSpec(manifest), nodeSelector: selector } },
            }
          : manifest.spec,
        status: {
          desiredNumberScheduled: desired,
          numberReady: desired,
          updatedNumberScheduled: desired,
          numberAvailable: desired,
        },
      });
    const nodes = [realNode('hyperpod-i-0a', 'ml.g5.8xlarge'), realNode('hyperpod-i-0b', 'ml.c5.xlarge')];
    const wrong = daemonSetCoverage(
      withStatus(shipped, 0, { 'sagemaker.amazonaws.com/compute-type': 'HyperPod' }),
      nodes,
    );
    assert.equal(wrong.state, 'failed');
    assert.match(
      wrong.reason,
      /nodeSelector sagemaker\.amazonaws\.com\/compute-type=HyperPod matches none of the 1 HyperPod node it is for \(hyperpod-i-0a\)/,
    );
    assert.match(wrong.reason, /compute-type=hyperpod/);
    assert.deepEqual(
      [daemonSetCoverage(withStatus(shipped, 1), nodes).state, daemonSetCoverage(withStatus(shipped, 1), nodes).code],
      ['healthy', 'ready'],
    );
    assert.equal(
      daemonSetCoverage(withStatus(shipped, 0), [realNode('hyperpod-i-0c', 'ml.c5.xlarge')]).state,
      'healthy',
      'no GPU node: nothing to run on is fine',
    );
    assert.equal(
      daemonSetCoverage(withStatus(shipped, 0), nodes).code,
      'selects-no-node',
      'matching but not running (taints): still not healthy',
    );
  });
});
