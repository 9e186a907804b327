/**
 * The tolerations of a pod placed on one instance group: exactly the group's taints (its
 * KubernetesConfig.Taints, which HyperPod keeps on every node of the group), so the pod is let onto
 * the nodes its `sagemaker.amazonaws.com/instance-group-name` nodeSelector picks and onto no other
 * tainted node. Training jobs, endpoint model servers and pool workers all place their pods this way.
 *
 * Each toleration matches its taint as kube-scheduler's TaintToleration filter does
 * (k8s.io/api v1.34 `core/v1/toleration.go` `ToleratesTaint`): `Equal` compares key and value, `Exists`
 * (for a taint with no value) matches the key whatever its value; the effect is named, so a
 * toleration of a NoSchedule taint does not also let the pod stay through a NoExecute one.
 */

/** A taint as the group's facts carry it (HyperPod's `Key`/`Value`/`Effect`, lower-cased). */
export type GroupTaint = { key: string; value?: string; effect: string };

export type Toleration = Record<string, string>;

/**
 * @example
 * groupTolerations([{ key: 'team', value: 'ml', effect: 'NoSchedule' }, { key: 'gpu', effect: 'NoExecute' }])
 * // [{ key: 'team', operator: 'Equal', value: 'ml', effect: 'NoSchedule' },
 * //  { key: 'gpu', operator: 'Exists', effect: 'NoExecute' }]
 */
export function groupTolerations(taints: ReadonlyArray<GroupTaint> | undefined): Toleration[] {
  return (taints ?? []).map((t) => ({
    key: t.key,
    operator: t.value !== undefined ? 'Equal' : 'Exists',
    ...(t.value !== undefined ? { value: t.value } : {}),
    effect: t.effect,
  }));
}
