/**
 * True when `actual` carries every tag of `wanted` with its value (other tags may be there too);
 * false for a resource that is not there (`undefined`). An observe that finds a resource it makes in
 * two calls — create, then tag — asks this, not only whether it exists: a crash between the calls
 * leaves it untagged, and tags are how InstantStart finds (and deletes) what it made.
 *
 * @example
 * carriesTags({ a: '1', b: '2' }, { a: '1' }); // → true
 * carriesTags({}, { a: '1' });                 // → false
 */
export function carriesTags(
  actual: Readonly<Record<string, string>> | undefined,
  wanted: Readonly<Record<string, string>>,
): boolean {
  if (!actual) return false;
  return Object.entries(wanted).every(([key, value]) => Object.hasOwn(actual, key) && actual[key] === value);
}
