import { splitInstanceType } from './instance-type-order.js';
import type { InstanceTypeView } from './schemas/preflight.js';

/**
 * The family of a SageMaker instance type: what lies between `ml.` and the size.
 *
 * @example
 * instanceFamily('ml.p5.48xlarge') // 'p5'
 * instanceFamily('ml.trn1n.32xlarge') // 'trn1n'
 */
export function instanceFamily(instanceType: string): string {
  return splitInstanceType(instanceType).family;
}

/** What a list of instance types may be narrowed to (GET /instance-types, list_instance_types). */
export interface InstanceTypeFilter {
  /** true: only types with accelerators; false: only types without. */
  accelerators?: boolean;
  family?: string;
}

/** The types that pass the filter, in their order. */
export function filterInstanceTypes(types: InstanceTypeView[], filter: InstanceTypeFilter): InstanceTypeView[] {
  return types.filter(
    (t) =>
      (filter.accelerators === undefined || (t.acceleratorCount ?? 0) > 0 === filter.accelerators) &&
      (filter.family === undefined || instanceFamily(t.instanceType) === filter.family),
  );
}
