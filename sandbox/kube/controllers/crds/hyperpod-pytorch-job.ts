import { embeddedSchema } from '../../api/schema/embedded.js';
import type { KubeObject } from '../../types.js';
import { age, arr, bool, crd, obj, str } from '../addon-builders.js';
import type { Any } from '../util.js';

/**
 * The HyperPod training operator's CRD (HyperPodPyTorchJob, sagemaker.amazonaws.com/v1), typed
 * field by field from the HyperPod CLI's model of it: aws/sagemaker-hyperpod-cli ·
 * src/sagemaker/hyperpod/training/config/hyperpod_pytorch_job_unified_config.py · 011ca92 (a
 * pydantic model generated from the operator's CRD, which AWS does not publish). Its `int` is an
 * integer here (`metricThreshold: 2.5` is refused, the whole job with it), `str` a string, a field
 * it does not make Optional is required, and a default other than None is the CRD's `default`
 * (the generator writes them from the CRD's). Every class there forbids
 * unknown fields, so no level here preserves them: the API server prunes what is not declared,
 * as it prunes any structural schema. The pod templates are the real PodTemplateSpec, written out
 * from client-node's models (api/schema/embedded.ts). Where the model says a string (cleanPodPolicy,
 * operator, workloadMode) there is no enum: the operator, not the API server, judges the value.
 * The printer columns are the sandbox's own (assumed).
 */

/** Python's `int` without a format (the model does not say int32 or int64). */
const int = (extra: Any = {}): Any => ({ type: 'integer', ...extra });
const stringMap = (): Any => ({ type: 'object', additionalProperties: { type: 'string' } });
const podTemplate = (): Any => embeddedSchema('io.k8s.api.core.v1.PodTemplateSpec');

const logMonitoringRule = obj(
  {
    expectedRecurringFrequencyInSeconds: int(),
    expectedStartCutOffInSeconds: int(),
    logPattern: str(),
    metricEvaluationDataPoints: int(),
    metricThreshold: int(),
    name: str(),
    operator: str(),
    stopPattern: str(),
  },
  ['logPattern', 'name'],
);

const restartPolicy = obj(
  {
    evalPeriodSeconds: int(),
    maxFullJobRestarts: int(),
    numRestartBeforeFullJobRestart: int(),
    maxNumRepeatOffendersToAvoid: int(),
    scaleUpSnoozeTimeInSeconds: int({ default: 0 }),
  },
  ['evalPeriodSeconds'],
);

const runPolicy = obj({
  activeDeadlineSeconds: int(),
  cleanPodPolicy: str({ default: 'All' }),
  faultDeadlineSeconds: int(),
  jobMaxRetryCount: int(),
  logMonitoringConfiguration: arr(logMonitoringRule),
  restartPolicy,
  startupDeadlineSeconds: int(),
  suspend: bool(),
  ttlSecondsAfterFinished: int({ default: 0 }),
  workloadMode: str(),
});

const elasticPolicy = obj({
  minReplicas: int(),
  maxReplicas: int(),
  replicaIncrementStep: int(),
  replicaDiscreteValues: arr(int()),
  scalingTimeoutInSeconds: int(),
  gracefulShutdownTimeoutInSeconds: int(),
  faultyScaleDownTimeoutInSeconds: int(),
});

const spec = obj({
  nprocPerNode: str({ default: 'auto' }),
  replicaSpecs: arr(
    obj(
      {
        name: str(),
        replicas: int({ default: 0 }),
        maxReplicas: int(),
        spares: int({ default: 0 }),
        template: podTemplate(),
      },
      ['name'],
    ),
  ),
  runPolicy,
  elasticPolicy,
});

/** An ObjectReference as the status lists pods (jobPods, managerPods, podManagerStatuses). */
const objectReference = () =>
  obj({
    apiVersion: str(),
    fieldPath: str(),
    kind: str(),
    name: str(),
    namespace: str(),
    resourceVersion: str(),
    uid: str(),
  });
const toleration = obj({ effect: str(), key: str(), operator: str(), tolerationSeconds: int(), value: str() });

const status = obj({
  completionTime: str(),
  conditions: arr(
    obj(
      { lastProbeTime: str(), lastTransitionTime: str(), message: str(), reason: str(), status: str(), type: str() },
      ['status', 'type'],
    ),
  ),
  jobPods: arr(objectReference()),
  latestFaultyPodInstanceList: obj({
    restartType: str(),
    faultyInstanceIdList: arr(str()),
    faultyPodList: arr(str()),
    faultyRankList: arr(str()),
  }),
  managerPods: objectReference(),
  masterAddr: str(),
  masterPort: str(),
  podManagerStatuses: arr(objectReference()),
  podSetInfos: arr(
    obj({ annotations: stringMap(), labels: stringMap(), nodeSelector: stringMap(), tolerations: arr(toleration) }),
  ),
  podSets: arr(obj({ count: int(), minCount: int(), template: podTemplate() }, ['count', 'template'])),
  restartCount: int({ default: 0 }),
  restartStatus: obj({ currentEvalPeriod: int(), fullJobRestartCount: int(), restartCount: int() }, [
    'currentEvalPeriod',
    'fullJobRestartCount',
    'restartCount',
  ]),
  elasticScalingStatus: obj({
    targetReplicas: { type: 'object', additionalProperties: int() },
    lastUpdated: str(),
    lastScalingTime: str(),
    lastRestartTime: str(),
    podsScaled: bool(),
    isFaultyPodScaleDown: bool(),
    consecutiveScalingFailures: int(),
  }),
  elasticWorkloadRef: stringMap(),
  startTime: str(),
});

export const TRAINING_OPERATOR_CRDS: KubeObject[] = [
  crd({
    group: 'sagemaker.amazonaws.com',
    kind: 'HyperPodPyTorchJob',
    plural: 'hyperpodpytorchjobs',
    scope: 'Namespaced',
    versions: ['v1'],
    columns: [
      { name: 'Status', type: 'string', jsonPath: '.status.conditions[-1].type' },
      { name: 'Restarts', type: 'integer', jsonPath: '.status.restartCount' },
      age,
    ],
    spec,
    status,
  }),
];
