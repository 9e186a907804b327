import type { KubeCluster } from '../cluster.js';
import { installSelfManagedAddons } from './addons.js';
import { BOOTSTRAP_RBAC } from './bootstrap-rbac.js';
import { ipAt, parseCidr } from './services.js';
import { ensure, save, T, type Any } from './util.js';

/**
 * What a new EKS cluster has before anyone touches it: the namespaces default, kube-system,
 * kube-public and kube-node-lease; the `kubernetes` Service on the first address of the service
 * CIDR; the `gp2` StorageClass (no longer marked default on clusters created at 1.30 or later);
 * the default ClusterRoles (cluster-admin, admin, edit, view) and the system:masters binding; and,
 * unless bootstrapSelfManagedAddons was false, the self-managed vpc-cni, kube-proxy and CoreDNS.
 * Every namespace — also those made later — gets a `default` ServiceAccount and the
 * `kube-root-ca.crt` ConfigMap.
 */

export interface ClusterSetup {
  serviceCidr: string;
  kubernetesVersion: string;
  selfManagedAddons: boolean;
  /** The cluster CA (PEM) that kube-root-ca.crt publishes; none in unit tests. */
  caPem?: string;
}

const SYSTEM_NAMESPACES = ['default', 'kube-node-lease', 'kube-public', 'kube-system'];

/** `.10` of the service CIDR: where kube-dns answers. */
export const clusterDnsIp = (serviceCidr: string) => ipAt(parseCidr(serviceCidr).base, 10);

export function bootstrap(cluster: KubeCluster, setup: ClusterSetup): void {
  for (const name of SYSTEM_NAMESPACES) {
    ensure(cluster, T.namespaces, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, labels: { 'kubernetes.io/metadata.name': name } },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
  }
  const apiIp = ipAt(parseCidr(setup.serviceCidr).base, 1);
  ensure(cluster, T.services, {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: {
      type: 'ClusterIP',
      clusterIP: apiIp,
      clusterIPs: [apiIp],
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      internalTrafficPolicy: 'Cluster',
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 443 }],
      sessionAffinity: 'None',
    },
    status: { loadBalancer: {} },
  });
  const minor = Number(setup.kubernetesVersion.split('.')[1] ?? 0);
  ensure(cluster, T.storageclasses, {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: {
      name: 'gp2',
      ...(minor < 30 ? { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } : {}),
    },
    provisioner: 'kubernetes.io/aws-ebs',
    parameters: { fsType: 'ext4', type: 'gp2' },
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'WaitForFirstConsumer',
  });
  for (const o of BOOTSTRAP_RBAC) ensure(cluster, o.kind === 'ClusterRole' ? T.clusterroles : T.clusterrolebindings, o);
  if (setup.selfManagedAddons)
    installSelfManagedAddons(cluster, setup.kubernetesVersion, clusterDnsIp(setup.serviceCidr));
  ensureNamespaceBasics(cluster, setup.caPem);
}

/** The namespace controller's and service-account controller's part: Active phase, a `default` ServiceAccount, the root CA ConfigMap. */
export function ensureNamespaceBasics(cluster: KubeCluster, caPem: string | undefined): void {
  for (const ns of cluster.objects.list(T.namespaces)) {
    if (ns.metadata.deletionTimestamp) continue;
    const name = ns.metadata.name!;
    if (
      (ns.status as Any | undefined)?.phase !== 'Active' ||
      ns.metadata.labels?.['kubernetes.io/metadata.name'] !== name
    ) {
      save(cluster, T.namespaces, ns, {
        ...ns,
        status: { ...((ns.status ?? {}) as Any), phase: 'Active' },
        metadata: { ...ns.metadata, labels: { ...(ns.metadata.labels ?? {}), 'kubernetes.io/metadata.name': name } },
      });
    }
    ensure(cluster, T.serviceaccounts, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'default', namespace: name },
    });
    if (caPem)
      ensure(cluster, T.configmaps, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: 'kube-root-ca.crt',
          namespace: name,
          annotations: {
            'kubernetes.io/description':
              'The CA bundle that verifies the API server at its in-cluster addresses (the kubernetes Service, kubernetes.default.svc).',
          },
        },
        data: { 'ca.crt': caPem },
      });
  }
}
