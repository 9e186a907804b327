import type { KubeObject } from '../kube-object.js';
import {
  health,
  kubeKind,
  parseBase,
  rec,
  str,
  MANAGED_BY,
  type KubeHealth,
  type KubeResource,
  type Loose,
} from './kind.js';

/** Namespace: InstantStart makes `aws-hyperpod` for HyperPod's agents (the rest come with EKS and the add-ons). */

export type KubeNamespace = KubeResource & { status: Loose & { phase: string } };

export function parseNamespace(raw: unknown): KubeNamespace {
  const base = parseBase(raw, { apiVersion: 'v1', kind: 'Namespace' });
  const status = rec(base.status);
  return { ...base, status: { ...status, phase: str(status.phase) ?? 'Active' } };
}

export const NAMESPACE = kubeKind<KubeNamespace>(
  { apiVersion: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false, health: namespaceHealth },
  parseNamespace,
);

export const namespaceManifest = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels: { ...MANAGED_BY } },
});

export function namespaceHealth(ns: KubeNamespace): KubeHealth {
  if (ns.status.phase === 'Terminating')
    return health(
      'transitional',
      'terminating',
      `Namespace ${ns.metadata.name} is being deleted; nothing new can be created in it.`,
    );
  return health('healthy', 'active', `Namespace ${ns.metadata.name} is active.`);
}
