import type { KubeObject } from '../../types.js';
import { age, arr, bool, conditions, crd, int, obj, open, str } from '../addon-builders.js';

/** The HyperPod training operator's CRD (HyperPodPyTorchJob). */

const podTemplate = open({ description: 'PodTemplateSpec' });

export const TRAINING_OPERATOR_CRDS: KubeObject[] = [
  crd({
    group: 'sagemaker.amazonaws.com',
    kind: 'HyperPodPyTorchJob',
    plural: 'hyperpodpytorchjobs',
    scope: 'Namespaced',
    versions: ['v1'],
    columns: [{ name: 'Status', type: 'string', jsonPath: '.status.conditions[-1].type' }, { name: 'Restarts', type: 'integer', jsonPath: '.status.restartCount' }, age],
    spec: obj(
      {
        nprocPerNode: str({ default: 'auto' }),
        replicaSpecs: arr(obj({ name: str(), replicas: int({ default: 0 }), spares: int(), maxReplicas: int(), template: podTemplate }, ['name', 'template'])),
        runPolicy: obj({ cleanPodPolicy: str({ enum: ['All', 'OnlyComplete', 'None'], default: 'All' }), jobMaxRetryCount: int(), ttlSecondsAfterFinished: int(), activeDeadlineSeconds: { type: 'integer', format: 'int64' }, restartPolicy: open(), logMonitoringConfiguration: arr(open()), suspend: bool() }, [], { 'x-kubernetes-preserve-unknown-fields': true }),
        elasticPolicy: open(),
      },
      ['replicaSpecs'],
    ),
    status: obj({ conditions: conditions(), restartCount: int(), startTime: str({ format: 'date-time' }), completionTime: str({ format: 'date-time' }) }, [], { 'x-kubernetes-preserve-unknown-fields': true }),
  }),
];
