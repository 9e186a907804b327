import type { KubeObject } from '../kube-object.js';
import { health, kubeKind, parseBase, type KubeHealth, type KubeResource } from './kind.js';

/** ServiceAccount: the identity of an agent InstantStart installs (pod identity maps it to an IAM role). */

export type KubeServiceAccount = KubeResource;

export const parseServiceAccount = (raw: unknown): KubeServiceAccount => parseBase(raw, { apiVersion: 'v1', kind: 'ServiceAccount' });

export const SERVICE_ACCOUNT = kubeKind<KubeServiceAccount>({ apiVersion: 'v1', kind: 'ServiceAccount', plural: 'serviceaccounts', namespaced: true }, parseServiceAccount);

export const serviceAccountManifest = (namespace: string, name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } });

/** A service account has no status: it exists or it does not. */
export const serviceAccountHealth = (sa: KubeServiceAccount): KubeHealth => health('healthy', 'present', `ServiceAccount ${sa.metadata.namespace ?? ''}/${sa.metadata.name} exists.`);
