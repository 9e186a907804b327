import type { KubeObject } from '../types.js';
import {
  age,
  arr,
  crd,
  deployment,
  int,
  namespace,
  obj,
  open,
  serviceAccount,
  str,
  upstream,
  type AddonParams,
} from './addon-builders.js';
import { INFERENCE_OPERATOR_CRDS } from './addon-crds.js';
import { SCALED_OBJECT_CRD } from './crds/keda-scaledobject.js';
import type { Any } from './util.js';

/**
 * What the HyperPod inference operator add-on (amazon-sagemaker-hyperpod-inference) installs: the
 * operator, and the controllers its chart bundles — the AWS Load Balancer Controller (`alb`, the
 * endpoints' ALBs) and KEDA (`keda`, the endpoints' autoscaling) — each under the service account
 * its IRSA role trusts, annotated `eks.amazonaws.com/role-arn` with the role from the configuration
 * values (as the add-on does: the service accounts are its own). Chart 2.2.2 bundles KEDA 2.17.1
 * and the load balancer controller chart 1.13.2 (v2.13.2).
 */

const ROLE_ARN = 'eks.amazonaws.com/role-arn';
const ref = (jsonPath: string, name: string, type: 'string' | 'integer' = 'string', priority?: number) => ({
  name,
  type,
  jsonPath,
  ...(priority ? { priority } : {}),
});
const condition = (type: string) => ref(`.status.conditions[?(@.type=="${type}")].status`, type);
const preserved = { 'x-kubernetes-preserve-unknown-fields': true };

export const KEDA_CRDS: KubeObject[] = [
  SCALED_OBJECT_CRD,
  crd({
    group: 'keda.sh',
    kind: 'ScaledJob',
    plural: 'scaledjobs',
    scope: 'Namespaced',
    versions: ['v1alpha1'],
    shortNames: ['sj'],
    spec: obj({ jobTargetRef: open(), triggers: arr(open()) }, ['jobTargetRef', 'triggers'], preserved),
  }),
  crd({
    group: 'keda.sh',
    kind: 'TriggerAuthentication',
    plural: 'triggerauthentications',
    scope: 'Namespaced',
    versions: ['v1alpha1'],
    shortNames: ['ta', 'triggerauth'],
    spec: obj(
      { podIdentity: obj({ provider: str(), roleArn: str() }, ['provider'], preserved), secretTargetRef: arr(open()) },
      [],
      preserved,
    ),
  }),
  crd({
    group: 'keda.sh',
    kind: 'ClusterTriggerAuthentication',
    plural: 'clustertriggerauthentications',
    scope: 'Cluster',
    versions: ['v1alpha1'],
    shortNames: ['cta', 'clustertriggerauth'],
    spec: obj({ podIdentity: obj({ provider: str(), roleArn: str() }, ['provider'], preserved) }, [], preserved),
  }),
];

export const LOAD_BALANCER_CONTROLLER_CRDS: KubeObject[] = [
  crd({
    group: 'elbv2.k8s.aws',
    kind: 'TargetGroupBinding',
    plural: 'targetgroupbindings',
    scope: 'Namespaced',
    versions: ['v1beta1'],
    columns: [
      ref('.spec.serviceRef.name', 'SERVICE-NAME'),
      ref('.spec.serviceRef.port', 'SERVICE-PORT'),
      ref('.spec.targetType', 'TARGET-TYPE'),
      ref('.spec.targetGroupARN', 'ARN', 'string', 1),
      age,
    ],
    spec: obj(
      {
        targetGroupARN: str(),
        targetType: str({ enum: ['instance', 'ip'] }),
        serviceRef: obj({ name: str(), port: { 'x-kubernetes-int-or-string': true } }, ['name', 'port']),
      },
      ['serviceRef'],
      preserved,
    ),
  }),
  crd({
    group: 'elbv2.k8s.aws',
    kind: 'IngressClassParams',
    plural: 'ingressclassparams',
    scope: 'Cluster',
    versions: ['v1beta1'],
    columns: [ref('.spec.group.name', 'GROUP-NAME'), ref('.spec.scheme', 'SCHEME'), age],
    spec: obj(
      { scheme: str({ enum: ['internal', 'internet-facing'] }), group: obj({ name: str() }, ['name']) },
      [],
      preserved,
    ),
  }),
];

/** A service account the add-on made, annotated with the IRSA role the configuration values name. */
function annotated(ns: string, name: string, roleArn: unknown, labels: Record<string, string>): KubeObject {
  const sa = serviceAccount(ns, name, labels);
  if (typeof roleArn === 'string' && roleArn) sa.metadata.annotations = { [ROLE_ARN]: roleArn };
  return sa;
}

export function inferenceOperatorManifests({ namespace: ns, version, configuration }: AddonParams): KubeObject[] {
  const values = (configuration ?? {}) as Any;
  const albOn = values.alb?.enabled !== false;
  const kedaOn = values.keda?.enabled !== false;
  const operator = { 'control-plane': 'controller-manager', 'app.kubernetes.io/name': 'hyperpod-inference-operator' };
  const alb = {
    'app.kubernetes.io/name': 'aws-load-balancer-controller',
    'app.kubernetes.io/instance': 'hyperpod-inference',
  };
  const keda = (name: string) => ({
    app: name,
    'app.kubernetes.io/name': name,
    'app.kubernetes.io/part-of': 'keda-operator',
  });
  return [
    namespace(ns),
    annotated(ns, 'hyperpod-inference-controller-manager', values.executionRoleArn, {
      'control-plane': 'controller-manager',
    }),
    deployment(ns, 'hyperpod-inference-controller-manager', {
      labels: operator,
      serviceAccountName: 'hyperpod-inference-controller-manager',
      containers: [
        {
          name: 'manager',
          image: `public.ecr.aws/sagemaker/hyperpod-inference-operator:${upstream(version)}`,
          args: ['--leader-elect', '--health-probe-bind-address=:8081'],
          requests: { cpu: '100m', memory: '256Mi' },
        },
      ],
    }),
    ...INFERENCE_OPERATOR_CRDS,
    ...(albOn
      ? [
          annotated(ns, 'aws-load-balancer-controller', values.alb?.serviceAccount?.roleArn, alb),
          deployment(ns, 'aws-load-balancer-controller', {
            labels: alb,
            replicas: 2,
            serviceAccountName: 'aws-load-balancer-controller',
            containers: [
              {
                name: 'aws-load-balancer-controller',
                image: 'public.ecr.aws/eks/aws-load-balancer-controller:v2.13.2',
                args: ['--ingress-class=alb'],
                ports: [{ name: 'webhook-server', containerPort: 9443 }],
              },
            ],
          }),
          ...LOAD_BALANCER_CONTROLLER_CRDS,
        ]
      : []),
    ...(kedaOn
      ? [
          annotated(ns, 'keda-operator', values.keda?.auth?.aws?.irsa?.roleArn, keda('keda-operator')),
          deployment(ns, 'keda-operator', {
            labels: keda('keda-operator'),
            serviceAccountName: 'keda-operator',
            containers: [
              {
                name: 'keda-operator',
                image: 'ghcr.io/kedacore/keda:2.17.1',
                args: ['--leader-elect', '--zap-log-level=info'],
              },
            ],
          }),
          deployment(ns, 'keda-operator-metrics-apiserver', {
            labels: keda('keda-operator-metrics-apiserver'),
            serviceAccountName: 'keda-operator',
            containers: [
              {
                name: 'keda-operator-metrics-apiserver',
                image: 'ghcr.io/kedacore/keda-metrics-apiserver:2.17.1',
                ports: [{ name: 'https', containerPort: 6443 }],
              },
            ],
          }),
          ...KEDA_CRDS,
        ]
      : []),
  ];
}
