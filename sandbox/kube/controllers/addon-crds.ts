import type { KubeObject } from '../types.js';
import { age, arr, bool, conditions, crd, int, obj, open, str } from './addon-builders.js';

export { TRAINING_OPERATOR_CRDS } from './crds/hyperpod-pytorch-job.js';
export { INFERENCE_OPERATOR_CRDS } from './crds/inference.js';

/**
 * The CustomResourceDefinitions EKS add-ons install, with schemas cut down to their required fields
 * and types (unknown fields kept) and the printer columns of the real CRDs.
 */

const readyColumns = [
  { name: 'Ready', type: 'string' as const, jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
  { name: 'Status', type: 'string' as const, priority: 1, jsonPath: '.status.conditions[?(@.type=="Ready")].message' },
  age,
];
const issuerRef = obj({ name: str(), kind: str(), group: str() }, ['name']);
const certManager = (
  kind: string,
  plural: string,
  scope: 'Namespaced' | 'Cluster',
  spec: object,
  columns = readyColumns,
  shortNames?: string[],
) =>
  crd({
    group: 'cert-manager.io',
    kind,
    plural,
    scope,
    versions: ['v1'],
    categories: ['cert-manager'],
    columns,
    spec: spec as never,
    status: obj({ conditions: conditions() }, [], { 'x-kubernetes-preserve-unknown-fields': true }),
    ...(shortNames ? { shortNames } : {}),
  });

export const CERT_MANAGER_CRDS: KubeObject[] = [
  certManager(
    'Certificate',
    'certificates',
    'Namespaced',
    obj(
      {
        secretName: str(),
        issuerRef,
        commonName: str(),
        dnsNames: arr(str()),
        duration: str(),
        renewBefore: str(),
        isCA: bool(),
        usages: arr(str()),
      },
      ['issuerRef', 'secretName'],
      { 'x-kubernetes-preserve-unknown-fields': true },
    ),
    [
      readyColumns[0]!,
      { name: 'Secret', type: 'string', jsonPath: '.spec.secretName' },
      { name: 'Issuer', type: 'string', priority: 1, jsonPath: '.spec.issuerRef.name' },
      readyColumns[1]!,
      age,
    ],
    ['cert', 'certs'],
  ),
  certManager(
    'CertificateRequest',
    'certificaterequests',
    'Namespaced',
    obj(
      { request: str({ format: 'byte' }), issuerRef, duration: str(), isCA: bool(), usages: arr(str()) },
      ['issuerRef', 'request'],
      { 'x-kubernetes-preserve-unknown-fields': true },
    ),
    [
      { name: 'Approved', type: 'string', jsonPath: '.status.conditions[?(@.type=="Approved")].status' },
      { name: 'Denied', type: 'string', jsonPath: '.status.conditions[?(@.type=="Denied")].status' },
      readyColumns[0]!,
      { name: 'Issuer', type: 'string', jsonPath: '.spec.issuerRef.name' },
      { name: 'Requester', type: 'string', jsonPath: '.spec.username' },
      readyColumns[1]!,
      age,
    ],
    ['cr', 'crs'],
  ),
  certManager('Issuer', 'issuers', 'Namespaced', open()),
  certManager('ClusterIssuer', 'clusterissuers', 'Cluster', open()),
  crd({
    group: 'acme.cert-manager.io',
    kind: 'Order',
    plural: 'orders',
    scope: 'Namespaced',
    versions: ['v1'],
    categories: ['cert-manager', 'cert-manager-acme'],
    spec: obj({ request: str({ format: 'byte' }), issuerRef }, ['issuerRef', 'request'], {
      'x-kubernetes-preserve-unknown-fields': true,
    }),
    columns: [{ name: 'State', type: 'string', jsonPath: '.status.state' }, age],
  }),
  crd({
    group: 'acme.cert-manager.io',
    kind: 'Challenge',
    plural: 'challenges',
    scope: 'Namespaced',
    versions: ['v1'],
    categories: ['cert-manager', 'cert-manager-acme'],
    spec: obj(
      {
        url: str(),
        authorizationURL: str(),
        dnsName: str(),
        type: str({ enum: ['HTTP-01', 'DNS-01'] }),
        token: str(),
        key: str(),
        issuerRef,
      },
      ['authorizationURL', 'dnsName', 'issuerRef', 'key', 'token', 'type', 'url'],
      { 'x-kubernetes-preserve-unknown-fields': true },
    ),
    columns: [
      { name: 'State', type: 'string', jsonPath: '.status.state' },
      { name: 'Domain', type: 'string', jsonPath: '.spec.dnsName' },
      age,
    ],
  }),
];

const podTemplate = open({ description: 'PodTemplateSpec' });

const kueue = (
  kind: string,
  plural: string,
  scope: 'Namespaced' | 'Cluster',
  shortNames: string[],
  spec: object,
  columns: object[] = [],
) =>
  crd({
    group: 'kueue.x-k8s.io',
    kind,
    plural,
    scope,
    versions: ['v1beta1'],
    shortNames,
    spec: spec as never,
    columns: [...(columns as never[]), age],
  });

export const KUEUE_CRDS: KubeObject[] = [
  kueue(
    'ClusterQueue',
    'clusterqueues',
    'Cluster',
    ['cq'],
    obj(
      {
        cohort: str(),
        namespaceSelector: open(),
        queueingStrategy: str({ enum: ['StrictFIFO', 'BestEffortFIFO'], default: 'BestEffortFIFO' }),
        resourceGroups: arr(open()),
        preemption: open(),
      },
      [],
      { 'x-kubernetes-preserve-unknown-fields': true },
    ),
    [
      { name: 'Cohort', type: 'string', jsonPath: '.spec.cohort' },
      { name: 'Strategy', type: 'string', priority: 1, jsonPath: '.spec.queueingStrategy' },
      { name: 'Pending Workloads', type: 'integer', jsonPath: '.status.pendingWorkloads' },
      { name: 'Admitted Workloads', type: 'integer', priority: 1, jsonPath: '.status.admittedWorkloads' },
    ],
  ),
  kueue(
    'LocalQueue',
    'localqueues',
    'Namespaced',
    ['queue', 'queues', 'lq'],
    obj({ clusterQueue: str() }, ['clusterQueue'], { 'x-kubernetes-preserve-unknown-fields': true }),
    [
      { name: 'ClusterQueue', type: 'string', jsonPath: '.spec.clusterQueue' },
      { name: 'Pending Workloads', type: 'integer', jsonPath: '.status.pendingWorkloads' },
      { name: 'Admitted Workloads', type: 'integer', jsonPath: '.status.admittedWorkloads' },
    ],
  ),
  kueue(
    'ResourceFlavor',
    'resourceflavors',
    'Cluster',
    ['flavor', 'flavors', 'rf'],
    obj(
      {
        nodeLabels: { type: 'object', additionalProperties: str() },
        nodeTaints: arr(open()),
        tolerations: arr(open()),
      },
      [],
      { 'x-kubernetes-preserve-unknown-fields': true },
    ),
  ),
  kueue(
    'Workload',
    'workloads',
    'Namespaced',
    ['wl'],
    obj(
      {
        queueName: str(),
        priority: int(),
        priorityClassName: str(),
        podSets: arr(obj({ name: str(), count: int(), template: podTemplate }, ['count', 'template'])),
      },
      ['podSets'],
      { 'x-kubernetes-preserve-unknown-fields': true },
    ),
    [
      { name: 'Queue', type: 'string', jsonPath: '.spec.queueName' },
      { name: 'Reserved in', type: 'string', jsonPath: '.status.admission.clusterQueue' },
      { name: 'Admitted', type: 'string', jsonPath: '.status.conditions[?(@.type=="Admitted")].status' },
      { name: 'Finished', type: 'string', jsonPath: '.status.conditions[?(@.type=="Finished")].status' },
    ],
  ),
  kueue('WorkloadPriorityClass', 'workloadpriorityclasses', 'Cluster', [], {
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
  }),
  kueue(
    'AdmissionCheck',
    'admissionchecks',
    'Cluster',
    [],
    obj({ controllerName: str(), parameters: open() }, ['controllerName'], {
      'x-kubernetes-preserve-unknown-fields': true,
    }),
  ),
];

export const VPC_CNI_CRDS: KubeObject[] = [
  crd({
    group: 'crd.k8s.amazonaws.com',
    kind: 'ENIConfig',
    plural: 'eniconfigs',
    scope: 'Cluster',
    versions: ['v1alpha1'],
    spec: obj({ securityGroups: arr(str()), subnet: str() }, [], { 'x-kubernetes-preserve-unknown-fields': true }),
  }),
  crd({
    group: 'networking.k8s.aws',
    kind: 'PolicyEndpoint',
    plural: 'policyendpoints',
    scope: 'Namespaced',
    versions: ['v1alpha1'],
    spec: obj(
      {
        podSelector: open(),
        policyRef: obj({ name: str(), namespace: str() }, ['name', 'namespace']),
        ingress: arr(open()),
        egress: arr(open()),
      },
      ['policyRef'],
      { 'x-kubernetes-preserve-unknown-fields': true },
    ),
  }),
];

export const S3_CSI_CRDS: KubeObject[] = [
  crd({
    group: 's3.csi.aws.com',
    kind: 'MountpointS3PodAttachment',
    plural: 'mountpoints3podattachments',
    scope: 'Cluster',
    versions: ['v2'],
    shortNames: ['s3pa'],
    spec: obj(
      {
        nodeName: str(),
        persistentVolumeName: str(),
        volumeID: str(),
        mountOptions: str(),
        mountpointS3PodAttachments: open(),
      },
      ['nodeName', 'persistentVolumeName', 'volumeID'],
      { 'x-kubernetes-preserve-unknown-fields': true },
    ),
  }),
];
