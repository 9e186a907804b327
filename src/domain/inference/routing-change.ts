import type { FieldProblem } from '../errors.js';
import { routingOf, type IntelligentRoutingSpec } from '../kube/inference-operator.js';

/**
 * Intelligent routing is fixed once an endpoint is deployed: the operator refuses adding
 * `intelligentRoutingSpec` to a deployed endpoint, removing it, or changing its strategy (AWS's
 * HyperPod inference docs; the CRD's description of `intelligentRoutingSpec.enabled`). We refuse the
 * same change before it is sent, by the request field that asks for it, so nothing is changed.
 *
 * @example
 * const problem = routingChangeRefusal(current, managedEndpointManifest(req, facts));
 * if (problem) throw new InputError({ message: `${problem.path}: ${problem.message}`, problems: [problem] });
 */
export function routingChangeRefusal(
  current: { spec: { intelligentRoutingSpec?: IntelligentRoutingSpec } },
  next: { spec: { intelligentRoutingSpec?: IntelligentRoutingSpec } },
): FieldProblem | undefined {
  const was = routingOf(current.spec);
  const wants = routingOf(next.spec);
  if (was === wants) return undefined;
  if (!was)
    return {
      path: 'routing',
      message: 'cannot be added to a deployed endpoint: intelligent routing is set when the endpoint is first deployed',
    };
  if (!wants)
    return {
      path: 'routing',
      message: `cannot be removed: this endpoint routes by ${was}, which is fixed once set (delete and redeploy to change it)`,
    };
  return {
    path: 'routing.strategy',
    message: `cannot be changed from ${was} to ${wants}: intelligent routing is fixed once set (delete and redeploy to change it)`,
  };
}
