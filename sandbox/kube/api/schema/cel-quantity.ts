/**
 * Kubernetes resource quantities for the CEL quantity library (`quantity("1.5Gi")`,
 * `isQuantity(s)`), parsed as apimachinery's resource.ParseQuantity reads them: a signed decimal
 * number, then a binary suffix (Ki … Ei), a decimal suffix (n u m "" k M G T P E) or an exponent
 * (`e3`, `E-2`). The value is kept exactly, in nano-units as a BigInt (quantities finer than 1n
 * round up, as the API server rounds them), so comparisons and `isInteger` are exact.
 */

const NUMBER = /^([+-]?)(\d+\.?\d*|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;
const BINARY: Record<string, bigint> = { Ki: 1n, Mi: 2n, Gi: 3n, Ti: 4n, Pi: 5n, Ei: 6n };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const NANO = 1_000_000_000n;

export class Quantity {
  private constructor(
    /** The value in units of 10^-9. */
    readonly nanos: bigint,
    readonly text: string,
  ) {}

  /** The quantity `text` stands for, or undefined when it is not one. */
  static parse(text: string): Quantity | undefined {
    const m = NUMBER.exec(text);
    if (!m) return undefined;
    const [, sign, digits, suffix = ''] = m as unknown as [string, string, string, string | undefined];
    const [whole = '', fraction = ''] = digits.split('.');
    let mantissa = BigInt(`${whole || '0'}${fraction}`);
    let exponent = -fraction.length;
    if (suffix in BINARY) mantissa *= 1024n ** BINARY[suffix]!;
    else if (suffix in DECIMAL) exponent += DECIMAL[suffix]!;
    else exponent += Number(suffix.slice(1));
    // To nano-units: mantissa × 10^(exponent + 9), rounded up (away from zero) below one nano.
    const shift = exponent + 9;
    let nanos: bigint;
    if (shift >= 0) nanos = mantissa * 10n ** BigInt(shift);
    else {
      const divisor = 10n ** BigInt(-shift);
      nanos = mantissa / divisor + (mantissa % divisor === 0n ? 0n : 1n);
    }
    return new Quantity(sign === '-' ? -nanos : nanos, text);
  }

  compareTo(other: Quantity): bigint {
    return this.nanos === other.nanos ? 0n : this.nanos < other.nanos ? -1n : 1n;
  }

  isInteger(): boolean {
    return this.nanos % NANO === 0n;
  }

  /** The whole value; an error (as the library's) when it is not whole. */
  asInteger(): bigint {
    if (!this.isInteger()) throw new Error('cannot convert value to integer');
    return this.nanos / NANO;
  }

  asApproximateFloat(): number {
    return Number(this.nanos) / 1e9;
  }

  sign(): bigint {
    return this.nanos === 0n ? 0n : this.nanos < 0n ? -1n : 1n;
  }

  plus(other: Quantity | bigint): Quantity {
    const add = typeof other === 'bigint' ? other * NANO : other.nanos;
    return Quantity.ofNanos(this.nanos + add);
  }

  minus(other: Quantity | bigint): Quantity {
    const sub = typeof other === 'bigint' ? other * NANO : other.nanos;
    return Quantity.ofNanos(this.nanos - sub);
  }

  /** A quantity from nano-units, written in the plainest decimal form. */
  static ofNanos(nanos: bigint): Quantity {
    const negative = nanos < 0n;
    const abs = negative ? -nanos : nanos;
    const whole = abs / NANO;
    const rest = (abs % NANO).toString().padStart(9, '0').replace(/0+$/, '');
    return new Quantity(nanos, `${negative ? '-' : ''}${whole}${rest ? `.${rest}` : ''}`);
  }

  toString(): string {
    return this.text;
  }
}
