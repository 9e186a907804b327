import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CloudError, InputError, PreconditionError } from '../../src/domain/errors.js';
import { checkAddonAuthenticationMode, chooseAddonVersion } from '../../src/domain/features/addon-version.js';

const offered = [
  { version: 'v1.19.1-eksbuild.1', isDefault: false },
  { version: 'v1.18.2-eksbuild.2', isDefault: true },
];
const base = { feature: 'cert-manager', addonName: 'cert-manager', kubernetesVersion: '1.33', offered };

describe('which add-on version a feature installs', () => {
  it("is the one asked for when EKS offers it for the cluster's Kubernetes version", () => {
    assert.equal(chooseAddonVersion({ ...base, asked: 'v1.19.1-eksbuild.1' }), 'v1.19.1-eksbuild.1');
  });

  it('is the one EKS marks default when none is asked for (the newest offered when none is marked)', () => {
    assert.equal(chooseAddonVersion(base), 'v1.18.2-eksbuild.2');
    assert.equal(
      chooseAddonVersion({ ...base, offered: offered.map((o) => ({ ...o, isDefault: false })) }),
      'v1.19.1-eksbuild.1',
    );
  });

  it('refuses a version EKS does not offer for that Kubernetes version, on `<feature>.version`, listing those it does', () => {
    assert.throws(
      () => chooseAddonVersion({ ...base, asked: 'v1.17.0-eksbuild.1' }),
      (e: unknown) =>
        e instanceof InputError &&
        e.problems.length === 1 &&
        e.problems[0]!.path === 'cert-manager.version' &&
        /v1\.17\.0-eksbuild\.1 is not offered for cert-manager on Kubernetes 1\.33; offered: v1\.19\.1-eksbuild\.1, v1\.18\.2-eksbuild\.2 \(default\)/.test(
          e.problems[0]!.message,
        ),
    );
  });

  it('is a cloud error when EKS offers no version at all for that Kubernetes version', () => {
    assert.throws(
      () => chooseAddonVersion({ ...base, offered: [] }),
      (e: unknown) =>
        e instanceof CloudError && e.code === 'AddonVersionNotFound' && /Kubernetes 1\.33/.test(e.message),
    );
  });
});

describe("whether the cluster's authentication mode can carry an add-on", () => {
  it("refuses HyperPod's add-ons on a CONFIG_MAP cluster, naming the feature and the command that fixes it", () => {
    assert.throws(
      () =>
        checkAddonAuthenticationMode({
          feature: 'inference-operator',
          addonName: 'amazon-sagemaker-hyperpod-inference',
          clusterName: 'ml-eks',
          authenticationMode: 'CONFIG_MAP',
        }),
      (e: unknown) =>
        e instanceof PreconditionError &&
        e.problems[0]!.path === 'inference-operator' &&
        /API_AND_CONFIG_MAP/.test(e.message) &&
        /update-cluster-config --name ml-eks/.test(e.remedy ?? ''),
    );
  });

  it('takes them on API and API_AND_CONFIG_MAP clusters, takes other add-ons on any, and does not judge an unread mode', () => {
    for (const authenticationMode of ['API', 'API_AND_CONFIG_MAP', undefined])
      checkAddonAuthenticationMode({
        feature: 'training-operator',
        addonName: 'amazon-sagemaker-hyperpod-training-operator',
        authenticationMode,
      });
    checkAddonAuthenticationMode({
      feature: 'cert-manager',
      addonName: 'cert-manager',
      authenticationMode: 'CONFIG_MAP',
    });
  });
});
