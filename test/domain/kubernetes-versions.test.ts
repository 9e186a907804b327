import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  chooseKubernetesVersion,
  compareKubernetesVersions,
  HYPERPOD_KUBERNETES_SUPPORT,
  kubernetesVersionOptions,
  type EksKubernetesVersion,
} from '../../src/domain/kubernetes-versions.js';
import { evaluatePreflight } from '../../src/domain/preflight.js';
import { kubernetesVersionRangeProblem } from '../../src/domain/preflight-kubernetes.js';
import { CreateClusterRequestSchema } from '../../src/domain/schemas/clusters.js';

const eks = (version: string, isDefault = false, status = 'STANDARD_SUPPORT'): EksKubernetesVersion => ({
  version,
  isDefault,
  status,
});
/** What EKS offered early in 2026: 1.35 newest and its default, 1.29–1.31 in extended support. */
const EKS_2026 = [
  eks('1.35', true),
  eks('1.34'),
  eks('1.33'),
  eks('1.32'),
  eks('1.31', false, 'EXTENDED_SUPPORT'),
  eks('1.30', false, 'EXTENDED_SUPPORT'),
  eks('1.29', false, 'EXTENDED_SUPPORT'),
];

describe('the Kubernetes version a new cluster runs', () => {
  it("is HyperPod's documented range as data, with its sources and the date it was read", () => {
    assert.deepEqual(HYPERPOD_KUBERNETES_SUPPORT.versions, ['1.28', '1.29', '1.30', '1.31', '1.32', '1.33', '1.34']);
    assert.ok(HYPERPOD_KUBERNETES_SUPPORT.sources.every((s) => s.startsWith('https://docs.aws.amazon.com/sagemaker/')));
    assert.match(HYPERPOD_KUBERNETES_SUPPORT.readOn, /^\d{4}-\d{2}-\d{2}$/);
  });

  it("is not EKS's default when HyperPod does not support it: the newest version both support", () => {
    assert.equal(chooseKubernetesVersion(EKS_2026), '1.34');
  });

  it("is EKS's default when HyperPod supports it, even when a newer one both support exists", () => {
    assert.equal(chooseKubernetesVersion([eks('1.34'), eks('1.33', true), eks('1.32')]), '1.33');
  });

  it("prefers standard support to extended support (extended costs more per hour) when EKS's default is out of range", () => {
    assert.equal(
      chooseKubernetesVersion([
        eks('1.36', true),
        eks('1.35'),
        eks('1.34', false, 'EXTENDED_SUPPORT'),
        eks('1.33', false, 'EXTENDED_SUPPORT'),
      ]),
      '1.34',
    );
    assert.equal(
      chooseKubernetesVersion([eks('1.36', true), eks('1.35'), eks('1.34', false, 'EXTENDED_SUPPORT'), eks('1.30')]),
      '1.30',
    );
  });

  it('is none when EKS offers no version HyperPod supports', () => {
    assert.equal(chooseKubernetesVersion([eks('1.36', true), eks('1.35')]), undefined);
    assert.equal(chooseKubernetesVersion([eks('1.34', false, 'UNSUPPORTED'), eks('1.35', true)]), undefined);
  });

  it('compares versions by number: 1.9 is older than 1.10', () => {
    assert.ok(compareKubernetesVersions('1.9', '1.10') < 0);
    assert.ok(compareKubernetesVersions('1.34', '1.34') === 0);
  });

  it('lists every version either side knows, newest first, saying which side supports it', () => {
    const options = kubernetesVersionOptions(EKS_2026);
    assert.deepEqual(
      options.map((o) => o.version),
      ['1.35', '1.34', '1.33', '1.32', '1.31', '1.30', '1.29', '1.28'],
    );
    const at = (v: string) => options.find((o) => o.version === v)!;
    assert.deepEqual(at('1.35'), {
      version: '1.35',
      eks: { offered: true, isDefault: true, status: 'STANDARD_SUPPORT' },
      hyperpod: false,
      usable: false,
      isChosenDefault: false,
    });
    assert.deepEqual(at('1.34'), {
      version: '1.34',
      eks: { offered: true, isDefault: false, status: 'STANDARD_SUPPORT' },
      hyperpod: true,
      usable: true,
      isChosenDefault: true,
    });
    assert.deepEqual(at('1.28'), {
      version: '1.28',
      eks: { offered: false, isDefault: false },
      hyperpod: true,
      usable: false,
      isChosenDefault: false,
    });
  });
});

describe("a create request's kubernetesVersion", () => {
  const request = { name: 'c1', availabilityZone: 'us-west-2b', instanceType: 'ml.g5.8xlarge', instanceCount: 1 };

  it("is refused from HyperPod's documented range alone (no AWS facts needed), naming the field and the range", () => {
    for (const version of ['1.35', '1.27']) {
      const problem = kubernetesVersionRangeProblem({ kubernetesVersion: version });
      assert.equal(problem?.field, 'kubernetesVersion');
      assert.equal(problem?.code, 'KubernetesVersionNotSupported');
      assert.match(
        problem!.message,
        new RegExp(
          `does not support Kubernetes ${version.replace('.', '\\.')}; it supports 1\\.28 to 1\\.34 \\(1\\.28, 1\\.29, .*1\\.34, as AWS documents it`,
        ),
      );
    }
    assert.equal(kubernetesVersionRangeProblem({ kubernetesVersion: '1.34' }), undefined);
    assert.equal(kubernetesVersionRangeProblem({}), undefined);
    assert.equal(
      CreateClusterRequestSchema.safeParse({ ...request, kubernetesVersion: '1.35' }).success,
      true,
      "the request's form is fine: the service refuses it (422)",
    );
    assert.deepEqual(
      CreateClusterRequestSchema.safeParse({ ...request, kubernetesVersion: 'latest' }).error?.issues.map((i) =>
        i.path.join('.'),
      ),
      ['kubernetesVersion'],
    );
  });

  const facts = {
    zones: ['us-west-2b'],
    instanceType: { availabilityZones: ['us-west-2b'], spotSupported: true },
    quotas: {},
    usage: { byType: {}, total: 0 },
  };
  const req = {
    region: 'us-west-2',
    name: 'c1',
    instanceType: 'ml.g5.8xlarge',
    instanceCount: 1,
    capacityType: 'on-demand' as const,
    availabilityZone: 'us-west-2b',
  };

  it('is refused by the preflight when EKS does not offer it in the Region, listing the versions both support', () => {
    const r = evaluatePreflight({ ...req, kubernetesVersion: '1.28' }, { ...facts, kubernetesVersions: EKS_2026 });
    assert.equal(r.ok, false);
    assert.equal(r.kubernetesVersion, undefined);
    assert.deepEqual(
      r.problems.map((p) => [p.field, p.code]),
      [['kubernetesVersion', 'KubernetesVersionNotOffered']],
    );
    assert.match(
      r.problems[0]!.message,
      /EKS does not offer Kubernetes 1\.28 for new clusters in us-west-2 \(it offers 1\.29, 1\.30, .*1\.35\)/,
    );
    assert.match(
      r.problems[0]!.remedy!,
      /Use one both support \(1\.34, 1\.33, 1\.32, 1\.31, 1\.30, 1\.29\), or leave kubernetesVersion out for 1\.34/,
    );
  });

  it('names the version a create would use, asked for or chosen', () => {
    assert.equal(evaluatePreflight(req, { ...facts, kubernetesVersions: EKS_2026 }).kubernetesVersion, '1.34');
    assert.equal(
      evaluatePreflight({ ...req, kubernetesVersion: '1.31' }, { ...facts, kubernetesVersions: EKS_2026 })
        .kubernetesVersion,
      '1.31',
    );
  });

  it('with none asked, is a problem only when no version fits both', () => {
    const r = evaluatePreflight(req, { ...facts, kubernetesVersions: [eks('1.36', true), eks('1.35')] });
    assert.deepEqual(
      r.problems.map((p) => [p.field, p.code]),
      [['region', 'NoSupportedKubernetesVersion']],
    );
  });
});
