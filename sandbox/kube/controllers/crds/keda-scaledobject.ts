import type { KubeObject } from '../../types.js';
import type { Any } from '../util.js';
import { age, arr, crd, int, obj, str } from '../addon-builders.js';

/**
 * KEDA's ScaledObject (keda.sh/v1alpha1), typed field by field from kedacore/keda
 * `config/crd/bases/keda.sh_scaledobjects.yaml` at v2.17.1 (commit a3e2090; the file is the same
 * from v2.17.0 to v2.17.3), the KEDA the inference operator's chart bundles: `fallback` requires
 * `failureThreshold` and `replicas`, `triggers[]` require `type` and `metadata` (a string map),
 * `scaleTargetRef` requires `name`, the HPA behaviour is typed, and the root requires `spec`.
 * Upstream has no CEL rules and keeps no unknown field: a structural schema prunes them.
 */

const policies = arr(obj({ periodSeconds: int(), type: str(), value: int() }, ['periodSeconds', 'type', 'value']), {
  'x-kubernetes-list-type': 'atomic',
});
const scalingRules = obj({ policies, selectPolicy: str(), stabilizationWindowSeconds: int() });

const spec = obj(
  {
    advanced: obj({
      horizontalPodAutoscalerConfig: obj({
        behavior: obj({ scaleDown: scalingRules, scaleUp: scalingRules }),
        name: str(),
      }),
      restoreToOriginalReplicaCount: { type: 'boolean' },
      scalingModifiers: obj({
        activationTarget: str(),
        formula: str(),
        metricType: str({ enum: ['AverageValue', 'Value'] }),
        target: str(),
      }),
    }),
    cooldownPeriod: int(),
    fallback: obj(
      {
        behavior: str({
          default: 'static',
          enum: ['static', 'currentReplicas', 'currentReplicasIfHigher', 'currentReplicasIfLower'],
        }),
        failureThreshold: int(),
        replicas: int(),
      },
      ['failureThreshold', 'replicas'],
    ),
    idleReplicaCount: int(),
    initialCooldownPeriod: int(),
    maxReplicaCount: int(),
    minReplicaCount: int(),
    pollingInterval: int(),
    scaleTargetRef: obj({ apiVersion: str(), envSourceContainerName: str(), kind: str(), name: str() }, ['name']),
    triggers: arr(
      obj(
        {
          authenticationRef: obj({ kind: str(), name: str() }, ['name']),
          metadata: { type: 'object', additionalProperties: str() },
          metricType: str(),
          name: str(),
          type: str(),
          useCachedMetrics: { type: 'boolean' },
        },
        ['metadata', 'type'],
      ),
    ),
  },
  ['scaleTargetRef', 'triggers'],
);

const status = obj({
  authenticationsTypes: str(),
  compositeScalerName: str(),
  conditions: arr(obj({ message: str(), reason: str(), status: str(), type: str() }, ['status', 'type'])),
  externalMetricNames: arr(str()),
  health: { type: 'object', additionalProperties: obj({ numberOfFailures: int(), status: str() }) },
  hpaName: str(),
  lastActiveTime: str({ format: 'date-time' }),
  originalReplicaCount: int(),
  pausedReplicaCount: int(),
  resourceMetricNames: arr(str()),
  scaleTargetGVKR: obj({ group: str(), kind: str(), resource: str(), version: str() }, [
    'group',
    'kind',
    'resource',
    'version',
  ]),
  scaleTargetKind: str(),
  triggersTypes: str(),
});

const column = (name: string, jsonPath: string, type: 'string' | 'integer' = 'string') => ({ name, type, jsonPath });
const condition = (type: string) => column(type, `.status.conditions[?(@.type=="${type}")].status`);

export const SCALED_OBJECT_CRD: KubeObject = (() => {
  const c = crd({
    group: 'keda.sh',
    kind: 'ScaledObject',
    plural: 'scaledobjects',
    scope: 'Namespaced',
    versions: ['v1alpha1'],
    shortNames: ['so'],
    columns: [
      column('ScaleTargetKind', '.status.scaleTargetKind'),
      column('ScaleTargetName', '.spec.scaleTargetRef.name'),
      column('Min', '.spec.minReplicaCount', 'integer'),
      column('Max', '.spec.maxReplicaCount', 'integer'),
      condition('Ready'),
      condition('Active'),
      condition('Fallback'),
      condition('Paused'),
      column('Triggers', '.status.triggersTypes'),
      column('Authentications', '.status.authenticationsTypes'),
      age,
    ],
    spec,
    status,
  });
  const version = (c.spec as Any).versions[0];
  version.schema = { openAPIV3Schema: { ...version.schema.openAPIV3Schema, required: ['spec'] } };
  return c;
})();
