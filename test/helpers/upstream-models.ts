import { NodePool } from '@kubernetes-models/karpenter/karpenter.sh/v1/NodePool';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject';

/**
 * Validators of upstream schemas that nobody here wrote, for tests: `@kubernetes-models/karpenter`'s
 * NodePool (generated from Karpenter's CRD) and `@kubernetes-models/keda`'s ScaledObject (generated
 * from KEDA's). Each answers the JSON-schema problems of an object (none: an empty list). They check
 * types, enums, patterns and required fields — not CEL rules and not unknown fields, which the
 * sandbox API server's typed CRDs check (test/kube/upstream-crds.test.ts).
 */

type Validatable = { validate(): void };

function problems(model: Validatable): string[] {
  try {
    model.validate();
    return [];
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return message.split(', ').map((m) => m.trim());
  }
}

/** Problems of a karpenter.sh/v1 NodePool by @kubernetes-models/karpenter. */
export const nodePoolProblems = (obj: object): string[] => problems(new NodePool(structuredClone(obj) as never));

/** Problems of a keda.sh/v1alpha1 ScaledObject by @kubernetes-models/keda. */
export const scaledObjectProblems = (obj: object): string[] =>
  problems(new ScaledObject(structuredClone(obj) as never));
