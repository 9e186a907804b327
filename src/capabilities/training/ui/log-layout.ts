/**
 * Where each log line sits when long lines wrap: a line of n characters in a view `columns` characters wide takes
 * ceil(n / columns) rows (at least one). Prefix sums make "which row does line i start at" O(1) and "which line
 * holds row r" a binary search, so a virtualised list of 50 000 lines places only the rows in view.
 */
export interface WrappedLayout {
  totalRows: number;
  /** The first row of line i. */
  rowOf(i: number): number;
  /** How many rows line i takes. */
  rowsOf(i: number): number;
  /** The line that holds row r (the last line for a row past the end). */
  lineAtRow(r: number): number;
}

export function wrappedLayout(count: number, lengthOf: (i: number) => number, columns: number): WrappedLayout {
  const starts = new Float64Array(count + 1);
  const width = Math.max(1, Math.floor(columns));
  for (let i = 0; i < count; i++) starts[i + 1] = starts[i]! + Math.max(1, Math.ceil(lengthOf(i) / width));
  return {
    totalRows: starts[count]!,
    rowOf: (i) => starts[Math.max(0, Math.min(count, i))]!,
    rowsOf: (i) => starts[i + 1]! - starts[i]!,
    lineAtRow(r) {
      if (count === 0) return 0;
      // The last line whose first row is at or before r.
      let lo = 0;
      let hi = count - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid]! <= r) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    },
  };
}
