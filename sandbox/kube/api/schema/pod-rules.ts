import type { StatusCause } from '../../errors.js';
import { duplicate, enumCause, invalidValue, notFoundValue, notSupported, portRange, required } from './causes.js';
import { dns1123Label } from './names.js';
import { isPlainObject } from './walk.js';

/**
 * The pod spec rules kube-apiserver applies to Pods and to the pod templates of Deployments,
 * ReplicaSets, StatefulSets, DaemonSets and Jobs: containers with names and images, ports in range,
 * known policies, volume mounts naming declared volumes, valid quantities with requests ≤ limits.
 */

type Any = Record<string, any>;

const QUANTITY = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const SUFFIX: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/** A resource quantity (`500m`, `4Gi`, `1e3`, `2`) as a number, or undefined when it is not one. */
export function parseQuantity(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const m = QUANTITY.exec(value.trim());
  if (!m || !/^[+-]?(\d+\.?\d*|\.\d+)$/.test(m[1]!)) return undefined;
  const base = Number(m[1]);
  const suffix = m[2]!;
  if (suffix in SUFFIX) return base * SUFFIX[suffix]!;
  const exp = /^[eE]([-+]?\d+)$/.exec(suffix);
  return exp ? base * 10 ** Number(exp[1]) : undefined;
}

/** Quantity syntax and sign (its JSON type is the schema's business). */
export function quantityCauses(field: string, value: unknown): StatusCause[] {
  if (typeof value !== 'string' && typeof value !== 'number') return [];
  const n = parseQuantity(value);
  if (n === undefined)
    return [
      invalidValue(
        field,
        value,
        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
      ),
    ];
  return n < 0 ? [invalidValue(field, value, 'must be greater than or equal to 0')] : [];
}

function resources(c: Any, at: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const limits = (isPlainObject(c.resources?.limits) ? c.resources.limits : {}) as Any;
  const requests = (isPlainObject(c.resources?.requests) ? c.resources.requests : {}) as Any;
  for (const [name, q] of Object.entries(limits)) causes.push(...quantityCauses(`${at}.resources.limits[${name}]`, q));
  for (const [name, q] of Object.entries(requests)) {
    causes.push(...quantityCauses(`${at}.resources.requests[${name}]`, q));
    const request = parseQuantity(q);
    const limit = parseQuantity(limits[name]);
    if (request !== undefined && limit !== undefined && request > limit) {
      causes.push(
        invalidValue(
          `${at}.resources.requests`,
          String(q),
          `must be less than or equal to ${name} limit of ${String(limits[name])}`,
        ),
      );
    }
  }
  return causes;
}

function container(c: Any, at: string, names: Set<string>, volumes: Set<string>): StatusCause[] {
  if (!isPlainObject(c)) return [];
  const causes: StatusCause[] = [];
  if (typeof c.name !== 'string' || c.name === '') causes.push(required(`${at}.name`));
  else if (names.has(c.name)) causes.push(duplicate(`${at}.name`, c.name));
  else {
    names.add(c.name);
    for (const detail of dns1123Label(c.name)) causes.push(invalidValue(`${at}.name`, c.name, detail));
  }
  if (typeof c.image !== 'string' || c.image.trim() === '') causes.push(required(`${at}.image`));
  causes.push(...enumCause(`${at}.imagePullPolicy`, c.imagePullPolicy, ['Always', 'IfNotPresent', 'Never']));
  (Array.isArray(c.ports) ? (c.ports as Any[]) : []).forEach((p, i) => {
    causes.push(...portRange(`${at}.ports[${i}].containerPort`, p?.containerPort));
    if (p?.hostPort !== 0) causes.push(...portRange(`${at}.ports[${i}].hostPort`, p?.hostPort));
    causes.push(...enumCause(`${at}.ports[${i}].protocol`, p?.protocol, ['SCTP', 'TCP', 'UDP']));
  });
  (Array.isArray(c.volumeMounts) ? (c.volumeMounts as Any[]) : []).forEach((m, i) => {
    if (typeof m?.name === 'string' && m.name !== '' && !volumes.has(m.name))
      causes.push(notFoundValue(`${at}.volumeMounts[${i}].name`, m.name));
  });
  causes.push(...resources(c, at));
  return causes;
}

/** `restartPolicies`: what this owner allows (`Always` for Deployments, `OnFailure`/`Never` for Jobs, all three for Pods). */
export function validatePodSpec(
  spec: unknown,
  at: string,
  restartPolicies: string[] = ['Always', 'OnFailure', 'Never'],
): StatusCause[] {
  if (!isPlainObject(spec)) return [required(at)];
  const s = spec as Any;
  const causes: StatusCause[] = [];
  const volumes = new Set<string>();
  (Array.isArray(s.volumes) ? (s.volumes as Any[]) : []).forEach((v, i) => {
    if (typeof v?.name !== 'string' || v.name === '') return;
    if (volumes.has(v.name)) causes.push(duplicate(`${at}.volumes[${i}].name`, v.name));
    else
      for (const detail of dns1123Label(v.name)) causes.push(invalidValue(`${at}.volumes[${i}].name`, v.name, detail));
    volumes.add(v.name);
  });
  const names = new Set<string>();
  if (!Array.isArray(s.containers) || s.containers.length === 0) causes.push(required(`${at}.containers`));
  (Array.isArray(s.initContainers) ? (s.initContainers as Any[]) : []).forEach((c, i) =>
    causes.push(...container(c, `${at}.initContainers[${i}]`, names, volumes)),
  );
  (Array.isArray(s.containers) ? (s.containers as Any[]) : []).forEach((c, i) =>
    causes.push(...container(c, `${at}.containers[${i}]`, names, volumes)),
  );
  if (s.restartPolicy !== undefined && !restartPolicies.includes(s.restartPolicy))
    causes.push(notSupported(`${at}.restartPolicy`, s.restartPolicy, restartPolicies));
  causes.push(
    ...enumCause(`${at}.dnsPolicy`, s.dnsPolicy, ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None']),
  );
  (Array.isArray(s.tolerations) ? (s.tolerations as Any[]) : []).forEach((t, i) => {
    causes.push(...enumCause(`${at}.tolerations[${i}].operator`, t?.operator, ['Equal', 'Exists']));
    causes.push(
      ...enumCause(`${at}.tolerations[${i}].effect`, t?.effect === '' ? undefined : t?.effect, [
        'NoSchedule',
        'PreferNoSchedule',
        'NoExecute',
      ]),
    );
    if (t?.operator === 'Exists' && t?.value)
      causes.push(
        invalidValue(`${at}.tolerations[${i}].operator`, t.operator, "value must be empty when `operator` is 'Exists'"),
      );
  });
  return causes;
}
