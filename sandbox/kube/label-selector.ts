/**
 * Label selectors (`matchLabels` + `matchExpressions`) and node-selector requirements, shared by
 * the API's validation and the controllers.
 */
type Any = Record<string, any>;

/** A label selector (matchLabels + matchExpressions) against labels; an empty selector matches everything. */
export function matchesSelector(labels: Record<string, string> | undefined, selector: Any | undefined): boolean {
  const l = labels ?? {};
  return (
    Object.entries((selector?.matchLabels ?? {}) as Record<string, string>).every(([k, v]) => l[k] === v) &&
    ((selector?.matchExpressions ?? []) as Any[]).every((e) =>
      matchesRequirement(k8sHas(l, e.key), l[e.key], e.operator, e.values),
    )
  );
}

const k8sHas = (labels: Record<string, string>, key: string) => Object.prototype.hasOwnProperty.call(labels, key);

/** One requirement of a label or node selector (In, NotIn, Exists, DoesNotExist, and the node-only Gt/Lt). */
export function matchesRequirement(
  has: boolean,
  value: string | undefined,
  operator: string,
  values: unknown,
): boolean {
  const list = (Array.isArray(values) ? values : []) as string[];
  switch (operator) {
    case 'In':
      return has && list.includes(value!);
    case 'NotIn':
      return !has || !list.includes(value!);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
      return has && Number.parseInt(value!, 10) > Number.parseInt(list[0] ?? '', 10);
    case 'Lt':
      return has && Number.parseInt(value!, 10) < Number.parseInt(list[0] ?? '', 10);
    default:
      return false;
  }
}
