import { TRAINING_OPERATOR_CRDS } from '../../sandbox/kube/controllers/addon-crds.js';
import { establish } from '../../sandbox/kube/controllers/addons.js';
import { T } from '../../sandbox/kube/controllers/util.js';
import type { KubeObject } from '../../sandbox/kube/types.js';
import { list, node, world, type World } from './controllers-fixtures.js';

/** A world serving the HyperPodPyTorchJob CRD (the training operator add-on installed), with GPU nodes. */
export function trainingWorld(nodes = 2): World & { jobType: ReturnType<World['cluster']['findType']> & object } {
  const w = world();
  for (const crd of TRAINING_OPERATOR_CRDS) {
    const copy = structuredClone(crd);
    establish(copy, w.now());
    w.cluster.objects.create(T.crds, copy);
  }
  for (let i = 0; i < nodes; i++)
    w.cluster.objects.create(
      T.nodes,
      node(
        `gpu-${i}`,
        { cpu: '96', memory: '768Gi', 'nvidia.com/gpu': '8', 'vpc.amazonaws.com/efa': '4' },
        { ip: `10.1.64.${10 + i}` },
      ),
    );
  return Object.assign(w, { jobType: w.cluster.findType('sagemaker.amazonaws.com', 'v1', 'hyperpodpytorchjobs')! });
}

export function hyperPodJob(
  name: string,
  options: {
    replicas?: number;
    annotations?: Record<string, string>;
    runPolicy?: Record<string, unknown>;
    command?: string[];
    env?: Array<{ name: string; value: string }>;
  } = {},
): KubeObject {
  return {
    apiVersion: 'sagemaker.amazonaws.com/v1',
    kind: 'HyperPodPyTorchJob',
    metadata: { name, namespace: 'default' },
    spec: {
      nprocPerNode: '8',
      replicaSpecs: [
        {
          name: 'pod',
          replicas: options.replicas ?? 2,
          template: {
            metadata: {
              labels: { team: 'ml' },
              annotations: {
                'sandbox.instantstart.dev/steps': '5',
                'sandbox.instantstart.dev/step-seconds': '2',
                ...(options.annotations ?? {}),
              },
            },
            spec: {
              containers: [
                {
                  name: 'pytorch',
                  image: '763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.5.1-gpu-py311',
                  command: options.command ?? [
                    'hyperpodrun',
                    '--nnodes=2',
                    '--nproc-per-node=8',
                    '/workspace/train.py',
                  ],
                  env: options.env ?? [{ name: 'FI_PROVIDER', value: 'efa' }],
                  resources: { limits: { 'nvidia.com/gpu': '8', 'vpc.amazonaws.com/efa': '4' } },
                  ports: [{ containerPort: 8080 }],
                },
              ],
            },
          },
        },
      ],
      ...(options.runPolicy ? { runPolicy: options.runPolicy } : {}),
    },
  };
}

export const jobPods = (w: World, job: string): any[] =>
  list(w, 'pods', 'default')
    .filter((p) => p.metadata.labels?.HPJob === job)
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
export const jobOf = (w: World & { jobType: any }, name: string): any =>
  w.cluster.objects.get(w.jobType, 'default', name);
export const conditionOf = (job: any, type: string): any =>
  (job.status?.conditions ?? []).find((c: { type: string }) => c.type === type);

/** Moves the clock a second at a time until `done` holds (at most `seconds`); returns the seconds it took. */
export function until(w: World, done: () => boolean, seconds = 600): number {
  for (let s = 0; s < seconds; s++) {
    if (done()) return s;
    w.advance(1);
  }
  throw new Error(`not done after ${seconds} s`);
}
