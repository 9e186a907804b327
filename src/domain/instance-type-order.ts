/**
 * The order people pick instance types in: accelerated types (GPU, Trainium) first, then by family
 * (g5 before g6 before p4d before p5: letters, then generation as a number), then by size (large <
 * xlarge < 2xlarge < … < 48xlarge). One comparator for every face: the UI sorts with it, and REST
 * and MCP listings can too.
 */

interface Orderable {
  instanceType: string;
  acceleratorCount?: number | undefined;
}

/** `ml.p5.48xlarge` → family `p5`, size `48xlarge` (a bare `p5.48xlarge` works too). */
export function splitInstanceType(instanceType: string): { family: string; size: string } {
  const parts = instanceType.split('.');
  const [family = '', size = ''] = parts[0] === 'ml' ? parts.slice(1) : parts;
  return { family, size };
}

/** nano < micro < small < medium < large < xlarge < 2xlarge < … ; `metal` sizes last. */
export function sizeRank(size: string): number {
  const named = ['nano', 'micro', 'small', 'medium', 'large', 'xlarge'];
  const i = named.indexOf(size);
  if (i >= 0) return i;
  const multiple = /^(\d+)xlarge$/.exec(size);
  if (multiple) return named.length - 1 + Number(multiple[1]);
  return Number.MAX_SAFE_INTEGER;
}

const collator = new Intl.Collator('en', { numeric: true });

/**
 * Sort comparator: accelerators first, then family, then size.
 *
 * @example
 * [{ instanceType: 'ml.c5.xlarge' }, { instanceType: 'ml.p5.48xlarge', acceleratorCount: 8
 * }].sort(compareInstanceTypes)
 * // p5.48xlarge first
 */
export function compareInstanceTypes(a: Orderable, b: Orderable): number {
  const accelerated = Number((b.acceleratorCount ?? 0) > 0) - Number((a.acceleratorCount ?? 0) > 0);
  if (accelerated !== 0) return accelerated;
  const x = splitInstanceType(a.instanceType);
  const y = splitInstanceType(b.instanceType);
  return (
    collator.compare(x.family, y.family) ||
    sizeRank(x.size) - sizeRank(y.size) ||
    collator.compare(a.instanceType, b.instanceType)
  );
}
