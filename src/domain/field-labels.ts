/**
 * Field paths as people read them. Schemas and preflight problems name fields by their JSON path
 * (`instanceCount`, `storage.fsx.sizeGiB`) so that agents and forms can find the input at fault; a
 * person reads "Instance count must be at least 1", not "instanceCount: must be at least 1".
 */

/** Words a camelCase split gets wrong or too long. */
const LABELS: Readonly<Record<string, string>> = {
  name: 'Name',
  availabilityZone: 'Availability Zone',
  trainingPlanArn: 'Training plan',
  networkInterface: 'Network interface (EFA)',
  fsx: 'FSx for Lustre',
  s3: 'S3 bucket',
  sizeGiB: 'size (GiB)',
  nodeIds: 'Nodes',
};

/** `instanceCount` → "Instance count"; `storage.fsx.sizeGiB` → "Storage FSx for Lustre size (GiB)"; list indexes are left out. */
export function fieldLabel(path: string): string {
  const words = path
    .split('.')
    .filter((part) => part !== '' && !/^\d+$/.test(part))
    .map((part) =>
      Object.hasOwn(LABELS, part) ? LABELS[part]! : part.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase(),
    );
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * One field problem as a sentence: a message that already is one (it starts with a capital, as
 * preflight's do) stands alone; a fragment ("must be at least 1") gets the field's label in front.
 *
 * @example
 * readableFieldMessage('instanceCount', 'must be at least 1') // "Instance count must be at least 1"
 * readableFieldMessage('instanceCount', 'The quota … is 10.') // "The quota … is 10."
 */
export function readableFieldMessage(path: string, message: string): string {
  if (!path || /^[A-Z]/.test(message)) return message;
  return `${fieldLabel(path)} ${message}`;
}
