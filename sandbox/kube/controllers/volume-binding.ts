import type { KubeCluster } from '../cluster.js';
import { deleteObject } from '../api/deletion.js';
import type { KubeObject } from '../types.js';
import { recordEvent } from './events.js';
import { parseQuantity } from './quantity.js';
import { matchesSelector, save, T, type Any } from './util.js';

/**
 * The binding half of kube-controller-manager's PersistentVolume controller, for statically
 * provisioned volumes (what EKS does with the S3 and FSx volumes InstantStart makes; the sandbox
 * provisions nothing dynamically):
 * - a new volume becomes Available;
 * - a claim naming a volume (`spec.volumeName`) binds it when the volume is free or reserved for
 *   that claim (`claimRef`) and fits it (storage class, access modes, capacity, volume mode);
 * - a claim naming none binds the smallest free volume that fits (one reserved for it first);
 * - a bind writes both sides as the binder does: the volume's claimRef (with the claim's uid) and
 *   phase Bound, then the claim's volumeName, capacity, access modes, phase Bound and the
 *   `pv.kubernetes.io/bind-completed` annotation;
 * - a bound claim whose volume is gone (or bound to another claim) is Lost; a volume whose claim
 *   is gone is Released (reclaim policy Retain) or deleted (Delete).
 *
 * Differences from EKS: a claim without storageClassName is matched as class "" (the sandbox does
 * not run the DefaultStorageClass admission), and claims of a class with a provisioner stay Pending.
 */

const BINDER = 'persistentvolume-controller';
const BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
const BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
/** The binder resyncs every 15 s: a claim that cannot bind is reported at that pace, not every tick. */
const RESYNC_MS = 15_000;

const phaseOf = (o: KubeObject): string | undefined => (o.status as Any | undefined)?.phase;
const specOf = (o: KubeObject): Any => (o.spec as Any | undefined) ?? {};
const classOf = (o: KubeObject): string => specOf(o).storageClassName ?? '';
const claimKey = (namespace: string | undefined, name: string | undefined) => `${namespace ?? 'default'}/${name ?? ''}`;

export function bindVolumes(cluster: KubeCluster): void {
  const volumes = new Map(cluster.objects.list(T.persistentvolumes).map((pv) => [pv.metadata.name!, pv]));
  const claims = cluster.objects.list(T.persistentvolumeclaims);
  const claimsByKey = new Map(claims.map((c) => [claimKey(c.metadata.namespace, c.metadata.name), c]));

  for (const [name, pv] of volumes) {
    if (pv.metadata.deletionTimestamp) continue;
    volumes.set(name, releaseOrMakeAvailable(cluster, pv, claimsByKey));
  }
  for (const claim of claims) {
    if (claim.metadata.deletionTimestamp) continue;
    const volumeName: string | undefined = specOf(claim).volumeName;
    if (phaseOf(claim) === 'Bound' || phaseOf(claim) === 'Lost') {
      keepOrLose(cluster, claim, volumeName ? volumes.get(volumeName) : undefined);
      continue;
    }
    const pv = volumeName ? volumes.get(volumeName) : bestMatch(claim, [...volumes.values()]);
    if (!pv) {
      reportUnbound(
        cluster,
        claim,
        volumeName ? `Cannot bind to requested volume "${volumeName}": it does not exist` : undefined,
      );
      continue;
    }
    const mismatch = whyNot(claim, pv);
    if (mismatch) {
      reportUnbound(cluster, claim, `Cannot bind to requested volume "${pv.metadata.name}": ${mismatch}`);
      continue;
    }
    volumes.set(pv.metadata.name!, bind(cluster, claim, pv, !volumeName));
  }
}

/** A volume with no live claim: Available when free or reserved by name only, else Released or deleted. */
function releaseOrMakeAvailable(cluster: KubeCluster, pv: KubeObject, claims: Map<string, KubeObject>): KubeObject {
  const ref = specOf(pv).claimRef as Any | undefined;
  const claim = ref ? claims.get(claimKey(ref.namespace, ref.name)) : undefined;
  const claimGone = ref?.uid !== undefined && claim?.metadata.uid !== ref.uid;
  if (!claimGone) {
    // Free, reserved for a claim still to come, or bound to a claim that lives: Available until the bind.
    return phaseOf(pv) === undefined || phaseOf(pv) === 'Pending'
      ? save(cluster, T.persistentvolumes, pv, { ...pv, status: { phase: 'Available' } })
      : pv;
  }
  if (specOf(pv).persistentVolumeReclaimPolicy === 'Delete') {
    deleteObject(cluster, T.persistentvolumes, pv, 'Background');
    return pv;
  }
  if (phaseOf(pv) === 'Released') return pv;
  recordEvent(
    cluster,
    pv,
    'Normal',
    'Released',
    `Claim ${ref!.namespace}/${ref!.name} was deleted; the volume keeps its data (Retain)`,
    BINDER,
    { once: true },
  );
  return save(cluster, T.persistentvolumes, pv, { ...pv, status: { phase: 'Released' } });
}

/** A bound claim stays Bound while its volume is bound to it; it is Lost once the volume is gone or taken. */
function keepOrLose(cluster: KubeCluster, claim: KubeObject, pv: KubeObject | undefined): void {
  const ref = pv ? (specOf(pv).claimRef as Any | undefined) : undefined;
  const intact = ref?.uid === claim.metadata.uid;
  const phase = intact ? 'Bound' : 'Lost';
  if (phaseOf(claim) === phase) return;
  if (phase === 'Lost')
    recordEvent(
      cluster,
      claim,
      'Warning',
      'ClaimLost',
      'Bound claim has lost its PersistentVolume. Data on the volume is lost!',
      BINDER,
      { once: true },
    );
  save(cluster, T.persistentvolumeclaims, claim, { ...claim, status: { ...(claim.status as Any | undefined), phase } });
}

/** The smallest free volume that fits the claim; one reserved for this claim wins over any other. */
function bestMatch(claim: KubeObject, volumes: KubeObject[]): KubeObject | undefined {
  const fitting = volumes.filter(
    (pv) =>
      !pv.metadata.deletionTimestamp &&
      phaseOf(pv) !== 'Bound' &&
      phaseOf(pv) !== 'Released' &&
      whyNot(claim, pv) === undefined,
  );
  const reserved = fitting.find((pv) => (specOf(pv).claimRef as Any | undefined) !== undefined);
  if (reserved) return reserved;
  return fitting.sort((a, b) => capacityOf(a) - capacityOf(b))[0];
}

const capacityOf = (pv: KubeObject) => parseQuantity(specOf(pv).capacity?.storage);

/** Why the volume cannot bind the claim, in the binder's words; undefined when it can. */
function whyNot(claim: KubeObject, pv: KubeObject): string | undefined {
  const ref = specOf(pv).claimRef as Any | undefined;
  if (
    ref &&
    (ref.name !== claim.metadata.name ||
      (ref.namespace ?? 'default') !== (claim.metadata.namespace ?? 'default') ||
      (ref.uid && ref.uid !== claim.metadata.uid))
  ) {
    return 'volume already bound to a different claim.';
  }
  if (phaseOf(pv) === 'Released' || phaseOf(pv) === 'Failed') return `volume is ${phaseOf(pv)}`;
  if (classOf(pv) !== classOf(claim)) return 'storageClassName does not match';
  const wanted = (specOf(claim).accessModes ?? []) as string[];
  const offered = (specOf(pv).accessModes ?? []) as string[];
  if (!wanted.every((m) => offered.includes(m))) return 'incompatible accessMode';
  if (capacityOf(pv) < parseQuantity(specOf(claim).resources?.requests?.storage)) return 'requested PV is too small';
  if ((specOf(pv).volumeMode ?? 'Filesystem') !== (specOf(claim).volumeMode ?? 'Filesystem'))
    return 'incompatible volumeMode';
  const selector = specOf(claim).selector;
  if (selector && !matchesSelector(pv.metadata.labels, selector)) return "volume does not match the claim's selector";
  return undefined;
}

/** Both sides of a bind, volume first (as the binder writes them). */
function bind(cluster: KubeCluster, claim: KubeObject, pv: KubeObject, volumeChosenByController: boolean): KubeObject {
  const ref = specOf(pv).claimRef as Any | undefined;
  const claimRef = {
    kind: 'PersistentVolumeClaim',
    namespace: claim.metadata.namespace ?? 'default',
    name: claim.metadata.name,
    uid: claim.metadata.uid,
    apiVersion: 'v1',
    resourceVersion: claim.metadata.resourceVersion,
  };
  const pvAnnotations = ref ? pv.metadata.annotations : { ...pv.metadata.annotations, [BOUND_BY_CONTROLLER]: 'yes' };
  const boundPv = save(cluster, T.persistentvolumes, pv, {
    ...pv,
    metadata: { ...pv.metadata, ...(pvAnnotations ? { annotations: pvAnnotations } : {}) },
    spec: { ...specOf(pv), claimRef },
    status: { phase: 'Bound' },
  });
  const claimAnnotations = {
    ...claim.metadata.annotations,
    [BIND_COMPLETED]: 'yes',
    ...(volumeChosenByController ? { [BOUND_BY_CONTROLLER]: 'yes' } : {}),
  };
  save(cluster, T.persistentvolumeclaims, claim, {
    ...claim,
    metadata: { ...claim.metadata, annotations: claimAnnotations },
    spec: { ...specOf(claim), volumeName: pv.metadata.name },
    status: { phase: 'Bound', accessModes: specOf(pv).accessModes, capacity: specOf(pv).capacity },
  });
  return boundPv;
}

/** A claim left Pending says why, at the binder's resync pace. */
function reportUnbound(cluster: KubeCluster, claim: KubeObject, mismatch: string | undefined): void {
  if (mismatch) {
    recordEvent(cluster, claim, 'Warning', 'VolumeMismatch', mismatch, BINDER, { minIntervalMs: RESYNC_MS });
  } else if (classOf(claim) === '') {
    recordEvent(
      cluster,
      claim,
      'Normal',
      'FailedBinding',
      'no persistent volumes available for this claim and no storage class is set',
      BINDER,
      { minIntervalMs: RESYNC_MS },
    );
  }
  if (phaseOf(claim) !== 'Pending')
    save(cluster, T.persistentvolumeclaims, claim, { ...claim, status: { phase: 'Pending' } });
}
