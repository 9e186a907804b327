import { isDeepStrictEqual } from 'node:util';
import type { StatusCause } from '../errors.js';
import type { KubeObject, ResourceType } from '../types.js';

/**
 * The HyperPod inference operator's validating webhook (its manager runs webhooks: `ENABLE_WEBHOOKS`
 * in the chart's manager.yaml, aws/sagemaker-hyperpod-cli 011ca92), for InferenceEndpointConfig and
 * JumpStartModel creates and updates. The rules come from the CRD's own words:
 * - `intelligentRoutingSpec`: "This feature is currently not supported for existing deployments" and
 *   "Once set, the enabled field cannot be modified" — adding the spec to an endpoint that had none,
 *   or changing it (its `enabled` or `routingStrategy`) once set, is refused;
 * - `instanceType` "is mutually exclusive with instanceTypes", `nodeAffinity` "is mutually exclusive
 *   with instanceType and instanceTypes fields" — a spec naming more than one is refused.
 * Assumed: the wording and that the refusal is a 422 Invalid naming the field (a kubebuilder
 * webhook's `apierrors.NewInvalid`), which the API server reports as the webhook's denial; the
 * webhook is called only while its CRDs are served (the add-on installs both).
 */

const GROUP = 'inference.sagemaker.aws.amazon.com';
const KINDS = new Set(['inferenceendpointconfigs', 'jumpstartmodels']);

type Any = Record<string, any>;
const spec = (o: KubeObject | undefined): Any => (o?.spec ?? {}) as Any;
const forbidden = (field: string, message: string): StatusCause => ({
  field,
  reason: 'FieldValueForbidden',
  message: `Forbidden: ${message}`,
});

/** The webhook's name, as the API server quotes it when the webhook denies a request. */
export const INFERENCE_WEBHOOK = 'vinferenceendpointconfig.inference.sagemaker.aws.amazon.com';

/** What the webhook refuses in `next` (an update when `current` is given); empty when it allows it. */
export function inferenceAdmissionCauses(type: ResourceType, next: KubeObject, current?: KubeObject): StatusCause[] {
  if (type.group !== GROUP || !KINDS.has(type.resource)) return [];
  const causes: StatusCause[] = [];
  const s = spec(next);
  if (type.resource === 'inferenceendpointconfigs') {
    const placement = ['instanceType', 'instanceTypes', 'nodeAffinity'].filter((f) =>
      f === 'instanceTypes'
        ? Array.isArray(s[f]) && s[f].length > 0
        : s[f] !== undefined && s[f] !== null && s[f] !== '',
    );
    if (placement.length > 1)
      causes.push(
        forbidden(
          `spec.${placement[1]}`,
          `instanceType, instanceTypes and nodeAffinity are mutually exclusive: set only one of them (found ${placement.join(', ')})`,
        ),
      );
  }
  if (current) {
    const before = spec(current).intelligentRoutingSpec as Any | undefined;
    const after = s.intelligentRoutingSpec as Any | undefined;
    const field = 'spec.intelligentRoutingSpec';
    if (!before && after)
      causes.push(forbidden(field, 'intelligent routing cannot be added to an existing deployment'));
    else if (before && !isDeepStrictEqual(routing(before), routing(after)))
      causes.push(forbidden(field, 'intelligentRoutingSpec cannot be modified once set'));
  }
  return causes;
}

/** The parts of the routing spec that are fixed once set (its own autoscaling may change). */
const routing = (r: Any | undefined) =>
  r ? { enabled: r.enabled ?? false, routingStrategy: r.routingStrategy ?? 'prefixaware' } : undefined;
