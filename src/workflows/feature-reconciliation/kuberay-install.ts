import type { KubePort } from '../../cloud/ports.js';
import { KUBERAY } from '../../domain/features/kuberay.js';
import { KUBERAY_CRD_VERSIONS } from '../../domain/features/kuberay-crds.js';
import {
  CUSTOM_RESOURCE_DEFINITION,
  type KubeCustomResourceDefinition,
} from '../../domain/kube/custom-resource-definition.js';
import { DEPLOYMENT, type KubeDeployment } from '../../domain/kube/deployment.js';
import { list, rec, str, MANAGED_BY } from '../../domain/kube/kind.js';

/**
 * Whose KubeRay a cluster runs, read before InstantStart applies or removes its own: the ray.io
 * CRDs and every KubeRay operator Deployment, found by the labels upstream's installs give it —
 * the Helm chart (`app.kubernetes.io/name: kuberay-operator`, `helm.sh/chart`, `app.kubernetes.io/
 * instance`) and the kustomization (`app.kubernetes.io/name: kuberay`). An object without our
 * `app.kubernetes.io/managed-by: instantstart` label is someone else's: such a KubeRay is left in
 * charge (never replaced, never removed) and the feature reads as provided by it. Our own install
 * is upgraded when it lags the pinned one (another operator image, or a CRD without a version the
 * pinned CRDs serve, e.g. `v1alpha1`).
 */

const CRD_NAMES = ['rayclusters.ray.io', 'rayjobs.ray.io', 'rayservices.ray.io'];
const OPERATOR_SELECTOR = 'app.kubernetes.io/name in (kuberay,kuberay-operator)';
const OPERATOR_IMAGE = /(^|\/)kuberay\/operator(:|@|$)/;

export type KubeRayInstall =
  | { owner: 'none' }
  | { owner: 'instantstart'; version?: string; outdated?: string }
  | { owner: 'other'; version?: string; description: string };

const ours = (o: { metadata: { labels?: Record<string, string> } }) =>
  o.metadata.labels?.['app.kubernetes.io/managed-by'] === MANAGED_BY['app.kubernetes.io/managed-by'];

/** The operator image of a Deployment, when one of its containers runs KubeRay's. */
function operatorImage(d: KubeDeployment): string | undefined {
  const containers = list(rec(rec(rec(d.spec.template).spec)).containers).map(rec);
  return containers.map((c) => str(c.image)).find((image): image is string => !!image && OPERATOR_IMAGE.test(image));
}

/** `v1.5.1` from `quay.io/kuberay/operator:v1.5.1`, or from the Helm chart label `kuberay-operator-1.5.1`. */
function versionOf(d: KubeDeployment): string | undefined {
  const tag = /:([^:@/]+)(@.*)?$/.exec(operatorImage(d) ?? '')?.[1];
  if (tag) return tag;
  const chart = /^kuberay-operator-(\d[\w.+-]*)$/.exec(d.metadata.labels?.['helm.sh/chart'] ?? '')?.[1];
  return chart ? `v${chart}` : undefined;
}

function describe(crds: KubeCustomResourceDefinition[], operators: KubeDeployment[]): string {
  const op = operators[0];
  if (!op)
    return `CRDs ${crds.map((c) => c.metadata.name).join(', ')} installed by another tool (no KubeRay operator Deployment found)`;
  const labels = op.metadata.labels ?? {};
  const how =
    labels['app.kubernetes.io/managed-by'] === 'Helm'
      ? `Helm release ${labels['app.kubernetes.io/instance'] ?? op.metadata.name}`
      : labels['app.kubernetes.io/managed-by']
        ? `managed by ${labels['app.kubernetes.io/managed-by']}`
        : 'installed by another tool';
  return `operator Deployment ${op.metadata.namespace}/${op.metadata.name}, ${how}`;
}

/** Why our own install lags the pinned one (undefined when it does not). */
function lag(crds: KubeCustomResourceDefinition[], operators: KubeDeployment[]): string | undefined {
  for (const crd of crds) {
    const missing = KUBERAY_CRD_VERSIONS.filter((v) => !crd.spec.servedVersions.includes(v));
    if (missing.length) return `CRD ${crd.metadata.name} does not serve ${missing.join(', ')}`;
  }
  const image = operators.map(operatorImage).find(Boolean);
  if (image && image !== KUBERAY.image) return `the operator runs ${image}, not ${KUBERAY.image}`;
  return undefined;
}

export async function readKubeRayInstall(kube: KubePort): Promise<KubeRayInstall> {
  const [crds, operators] = await Promise.all([
    Promise.all(CRD_NAMES.map((name) => kube.find(CUSTOM_RESOURCE_DEFINITION, name))).then((found) =>
      found.filter((c): c is KubeCustomResourceDefinition => !!c),
    ),
    kube
      .list(DEPLOYMENT, { labelSelector: OPERATOR_SELECTOR })
      .then((found) => found.filter((d) => operatorImage(d) !== undefined || !ours(d))),
  ]);
  const foreignCrds = crds.filter((c) => !ours(c));
  const foreignOperators = operators.filter((d) => !ours(d));
  if (foreignCrds.length || foreignOperators.length) {
    const version = foreignOperators.map(versionOf).find(Boolean);
    return {
      owner: 'other',
      ...(version ? { version } : {}),
      description: describe(foreignCrds.length ? foreignCrds : crds, foreignOperators),
    };
  }
  if (crds.length === 0 && operators.length === 0) return { owner: 'none' };
  const version = operators.map(versionOf).find(Boolean);
  const outdated = lag(crds, operators);
  return { owner: 'instantstart', ...(version ? { version } : {}), ...(outdated ? { outdated } : {}) };
}

/** How the faces name a KubeRay someone else installed. */
export const providedByWords = (install: Extract<KubeRayInstall, { owner: 'other' }>): string =>
  `an existing KubeRay${install.version ? ` ${install.version}` : ''} (${install.description})`;
