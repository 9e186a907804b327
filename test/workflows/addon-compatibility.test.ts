import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AwsClients, Cloud } from '../../src/cloud/index.js';
import { CloudError, InputError, PreconditionError } from '../../src/domain/errors.js';
import { addonNameOf } from '../../src/domain/features/registry.js';
import { FEATURE_IDS } from '../../src/domain/schemas/features.js';
import { resolveAddonVersion } from '../../src/workflows/addon-compatibility.js';
import type { WorkflowDeps } from '../../src/workflows/context.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

/** resolveAddonVersion against the sandbox's add-on catalogue (DescribeAddonVersions over the wire). */
describe('resolveAddonVersion: add-on version × Kubernetes version × authentication mode, before any change', () => {
  let sb: TestSandbox;
  let deps: WorkflowDeps;
  const region = 'us-west-2';
  const resolve = (p: {
    feature: string;
    addonName: string;
    version?: string;
    kubernetesVersion: string;
    authenticationMode?: string;
  }) => resolveAddonVersion(deps, { region, ...p });

  before(async () => {
    sb = await startTestSandbox();
    deps = {
      cloud: new Cloud(new AwsClients({ defaultRegion: region })),
    };
  });
  after(async () => sb.dispose());

  it('picks the version EKS marks default for the Kubernetes version when none is asked for', async () => {
    assert.equal(
      await resolve({ feature: 'cert-manager', addonName: 'cert-manager', kubernetesVersion: '1.33' }),
      'v1.18.2-eksbuild.2',
    );
    assert.equal(
      await resolve({ feature: 'kube-proxy', addonName: 'kube-proxy', kubernetesVersion: '1.31' }),
      'v1.31.13-eksbuild.2',
    );
    const marked = await sb.aws([
      'eks',
      'describe-addon-versions',
      '--addon-name',
      'metrics-server',
      '--kubernetes-version',
      '1.33',
    ]);
    const defaults = marked.json.addons[0].addonVersions.filter((v: any) =>
      v.compatibilities.some((c: any) => c.defaultVersion),
    );
    assert.equal(
      await resolve({ feature: 'metrics-server', addonName: 'metrics-server', kubernetesVersion: '1.33' }),
      defaults[0].addonVersion,
      'the same answer the aws CLI sees',
    );
  });

  it('keeps a pinned version EKS offers for that Kubernetes version', async () => {
    assert.equal(
      await resolve({
        feature: 'cert-manager',
        addonName: 'cert-manager',
        version: 'v1.19.1-eksbuild.1',
        kubernetesVersion: '1.33',
      }),
      'v1.19.1-eksbuild.1',
    );
  });

  it('refuses a pinned version not offered for that Kubernetes version: InputError on `<feature>.version`, listing the offered ones', async () => {
    // cert-manager v1.19.1 starts at Kubernetes 1.30.
    await assert.rejects(
      resolve({
        feature: 'cert-manager',
        addonName: 'cert-manager',
        version: 'v1.19.1-eksbuild.1',
        kubernetesVersion: '1.29',
      }),
      (e: unknown) =>
        e instanceof InputError &&
        e.problems[0]!.path === 'cert-manager.version' &&
        /offered: v1\.18\.2-eksbuild\.2 \(default\)$/.test(e.problems[0]!.message.replace(/\. Leave.*$/, '')),
    );
    await assert.rejects(
      resolve({
        feature: 's3-csi-driver',
        addonName: 'aws-mountpoint-s3-csi-driver',
        version: 'v9.9.9-eksbuild.1',
        kubernetesVersion: '1.33',
      }),
      (e: unknown) => e instanceof InputError && e.problems[0]!.path === 's3-csi-driver.version',
    );
  });

  it("is a cloud error when the add-on has no version at all for the cluster's Kubernetes version", async () => {
    // The inference operator add-on starts at Kubernetes 1.30.
    await assert.rejects(
      resolve({
        feature: 'inference-operator',
        addonName: 'amazon-sagemaker-hyperpod-inference',
        kubernetesVersion: '1.29',
      }),
      (e: unknown) => e instanceof CloudError && e.code === 'AddonVersionNotFound',
    );
  });

  it('refuses a HyperPod add-on on a CONFIG_MAP cluster before asking EKS anything, and only ever reads', async () => {
    const before = (await sb.calls({ service: 'eks' })).length;
    await assert.rejects(
      resolve({
        feature: 'training-operator',
        addonName: 'amazon-sagemaker-hyperpod-training-operator',
        kubernetesVersion: '1.33',
        authenticationMode: 'CONFIG_MAP',
      }),
      (e: unknown) => e instanceof PreconditionError && e.problems[0]!.path === 'training-operator',
    );
    assert.equal((await sb.calls({ service: 'eks' })).length, before);
    assert.equal(
      await resolve({
        feature: 'training-operator',
        addonName: 'amazon-sagemaker-hyperpod-training-operator',
        kubernetesVersion: '1.33',
        authenticationMode: 'API_AND_CONFIG_MAP',
      }),
      'v1.2.1-eksbuild.1',
    );
    assert.deepEqual(await sb.calls({ mutating: true }), []);
  });

  it('finds a version of every add-on of the feature registry on every Kubernetes version HyperPod supports from 1.30', async () => {
    for (const feature of FEATURE_IDS) {
      const addonName = addonNameOf(feature);
      if (!addonName) continue;
      for (const kubernetesVersion of ['1.30', '1.31', '1.32', '1.33', '1.34']) {
        assert.match(
          await resolve({ feature, addonName, kubernetesVersion, authenticationMode: 'API_AND_CONFIG_MAP' }),
          /^v\d+\.\d+\.\d+-eksbuild\.\d+$/,
          `${addonName} on ${kubernetesVersion}`,
        );
      }
    }
  });
});
