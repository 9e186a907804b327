import { matchesSelector } from '../../label-selector.js';
import type { StatusCause } from '../../errors.js';
import type { KubeObject } from '../../types.js';
import { enumCause, invalidValue, nonNegative, required } from './causes.js';
import { labelValue, qualifiedName } from './names.js';
import { validatePodSpec } from './pod-rules.js';
import { isPlainObject } from './walk.js';

/**
 * Deployments, ReplicaSets, StatefulSets, DaemonSets and Jobs as kube-apiserver validates them:
 * a non-empty selector that matches the pod template's labels, a valid pod template, counts that
 * are not negative, known strategies.
 */

type Any = Record<string, any>;

/** Whether a LabelSelector (`matchLabels`, `matchExpressions`) selects these labels; malformed parts select nothing extra. */
export function selectorMatches(selector: Any, labels: Record<string, string>): boolean {
  return matchesSelector(labels, {
    matchLabels: isPlainObject(selector.matchLabels) ? selector.matchLabels : {},
    matchExpressions: Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [],
  });
}

function selectorCauses(selector: Any, at: string): StatusCause[] {
  const causes: StatusCause[] = [];
  for (const [k, v] of Object.entries(
    (isPlainObject(selector.matchLabels) ? selector.matchLabels : {}) as Record<string, unknown>,
  )) {
    for (const detail of qualifiedName(k)) causes.push(invalidValue(`${at}.matchLabels`, k, detail));
    if (typeof v === 'string')
      for (const detail of labelValue(v)) causes.push(invalidValue(`${at}.matchLabels`, v, detail));
  }
  ((Array.isArray(selector.matchExpressions) ? selector.matchExpressions : []) as Any[]).forEach((e, i) => {
    const path = `${at}.matchExpressions[${i}]`;
    const values = Array.isArray(e?.values) ? e.values : [];
    if (!['In', 'NotIn', 'Exists', 'DoesNotExist'].includes(e?.operator))
      causes.push(invalidValue(`${path}.operator`, e?.operator, 'not a valid selector operator'));
    else if ((e.operator === 'In' || e.operator === 'NotIn') && values.length === 0)
      causes.push(required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
    else if ((e.operator === 'Exists' || e.operator === 'DoesNotExist') && values.length > 0)
      causes.push(
        invalidValue(`${path}.values`, values, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
      );
  });
  return causes;
}

/** The selector + template pair every controller-owned workload has. */
function selectedTemplate(spec: Any, kind: string, restartPolicies: string[]): StatusCause[] {
  const causes: StatusCause[] = [];
  const selector = spec.selector as Any | undefined;
  const empty =
    isPlainObject(selector) &&
    Object.keys(selector.matchLabels ?? {}).length === 0 &&
    (selector.matchExpressions ?? []).length === 0;
  if (!isPlainObject(selector)) causes.push(required('spec.selector'));
  else if (empty) causes.push(invalidValue('spec.selector', selector, `empty selector is invalid for ${kind}`));
  else causes.push(...selectorCauses(selector, 'spec.selector'));
  if (!isPlainObject(spec.template)) return [...causes, required('spec.template')];
  const labels = (isPlainObject(spec.template.metadata?.labels) ? spec.template.metadata.labels : {}) as Record<
    string,
    string
  >;
  if (isPlainObject(selector) && !empty && !selectorMatches(selector, labels)) {
    causes.push(invalidValue('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'));
  }
  causes.push(...validatePodSpec(spec.template.spec, 'spec.template.spec', restartPolicies));
  return causes;
}

const specOf = (obj: KubeObject): Any | undefined => (isPlainObject(obj.spec) ? (obj.spec as Any) : undefined);

export function deploymentCauses(obj: KubeObject): StatusCause[] {
  const spec = specOf(obj);
  if (!spec) return [required('spec')];
  return [
    ...nonNegative('spec.replicas', spec.replicas),
    ...selectedTemplate(spec, 'deployment', ['Always']),
    ...enumCause('spec.strategy.type', spec.strategy?.type, ['Recreate', 'RollingUpdate']),
    ...nonNegative('spec.minReadySeconds', spec.minReadySeconds),
    ...nonNegative('spec.revisionHistoryLimit', spec.revisionHistoryLimit),
  ];
}

export function replicaSetCauses(obj: KubeObject): StatusCause[] {
  const spec = specOf(obj);
  if (!spec) return [required('spec')];
  return [...nonNegative('spec.replicas', spec.replicas), ...selectedTemplate(spec, 'replicaset', ['Always'])];
}

export function statefulSetCauses(obj: KubeObject): StatusCause[] {
  const spec = specOf(obj);
  if (!spec) return [required('spec')];
  return [
    ...nonNegative('spec.replicas', spec.replicas),
    ...selectedTemplate(spec, 'statefulset', ['Always']),
    ...enumCause('spec.podManagementPolicy', spec.podManagementPolicy, ['OrderedReady', 'Parallel']),
    ...enumCause('spec.updateStrategy.type', spec.updateStrategy?.type, ['RollingUpdate', 'OnDelete']),
  ];
}

export function daemonSetCauses(obj: KubeObject): StatusCause[] {
  const spec = specOf(obj);
  if (!spec) return [required('spec')];
  return [
    ...selectedTemplate(spec, 'daemonset', ['Always']),
    ...enumCause('spec.updateStrategy.type', spec.updateStrategy?.type, ['RollingUpdate', 'OnDelete']),
  ];
}

export function jobCauses(obj: KubeObject): StatusCause[] {
  const spec = specOf(obj);
  if (!spec) return [required('spec')];
  const causes: StatusCause[] = [];
  for (const f of ['parallelism', 'completions', 'backoffLimit']) causes.push(...nonNegative(`spec.${f}`, spec[f]));
  if (typeof spec.activeDeadlineSeconds === 'number' && spec.activeDeadlineSeconds <= 0)
    causes.push(invalidValue('spec.activeDeadlineSeconds', spec.activeDeadlineSeconds, 'must be greater than 0'));
  causes.push(...enumCause('spec.completionMode', spec.completionMode, ['NonIndexed', 'Indexed']));
  if (!isPlainObject(spec.template)) return [...causes, required('spec.template')];
  // The API server generates a Job's selector; a selector the user wrote must match the template.
  const labels = (spec.template.metadata?.labels ?? {}) as Record<string, string>;
  if (spec.manualSelector === true && isPlainObject(spec.selector) && !selectorMatches(spec.selector, labels)) {
    causes.push(invalidValue('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'));
  }
  const policy = spec.template.spec?.restartPolicy;
  if (policy === undefined)
    causes.push(required('spec.template.spec.restartPolicy', 'valid values: "OnFailure", "Never"'));
  causes.push(...validatePodSpec(spec.template.spec, 'spec.template.spec', ['OnFailure', 'Never']));
  return causes;
}
