import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { customResourceDefinitionCauses } from '../../sandbox/kube/api/schema/crd-rules.js';
import {
  CERT_MANAGER_CRDS,
  INFERENCE_OPERATOR_CRDS,
  KUEUE_CRDS,
  TRAINING_OPERATOR_CRDS,
  VPC_CNI_CRDS,
} from '../../sandbox/kube/controllers/addon-crds.js';
import { KEDA_CRDS, LOAD_BALANCER_CONTROLLER_CRDS } from '../../sandbox/kube/controllers/inference-addon.js';
import { KARPENTER_CRDS } from '../../sandbox/kube/controllers/karpenter-crds.js';
import { kuberayCrds } from '../../src/domain/features/kuberay-crds.js';

/**
 * The CRDs sandbox controllers store themselves (add-ons, HyperPod's Karpenter) skip the API's CRD
 * validation, so each is held to it here: structural schemas, one storage version, and every
 * `x-kubernetes-validations` rule compiling in the sandbox's CEL environment — a rule it could not
 * evaluate would otherwise refuse every object of the kind. The KubeRay CRDs the product applies too.
 */
describe("the CRDs the sandbox installs itself pass the API server's CRD validation", () => {
  const all = [
    ...CERT_MANAGER_CRDS,
    ...KUEUE_CRDS,
    ...VPC_CNI_CRDS,
    ...TRAINING_OPERATOR_CRDS,
    ...INFERENCE_OPERATOR_CRDS,
    ...KEDA_CRDS,
    ...LOAD_BALANCER_CONTROLLER_CRDS,
    ...KARPENTER_CRDS,
    ...kuberayCrds(),
  ];

  it('every one, its CEL rules compiled', () => {
    assert.ok(all.length >= 10);
    for (const crd of all) assert.deepEqual(customResourceDefinitionCauses(crd), [], crd.metadata.name);
  });
});
