import { InputError } from '../errors.js';

/**
 * IPv4 addresses and CIDR blocks as plain numbers. Addresses are unsigned 32-bit integers held in
 * ordinary JS numbers and handled with arithmetic (not bitwise operators, which are signed 32-bit
 * and would turn 128.0.0.0 and above negative). Parsing is strict on purpose: a CIDR we accept is
 * one EC2 accepts, so a typo fails here with a field name instead of later as an AWS error.
 */

/** A CIDR block: its first address and prefix length, e.g. 10.0.0.0/16 → `{ base: 167772160, prefix: 16 }`. */
export interface Cidr {
  readonly base: number;
  readonly prefix: number;
}

const ADDRESS_SPACE = 2 ** 32;
// No leading zeros: "010" reads as octal in some tools (inet_aton) and decimal in others.
const OCTET = /^(0|[1-9]\d{0,2})$/;

/**
 * Parses a dotted-quad IPv4 address into an unsigned 32-bit number.
 * `path` names the request field in the error.
 *
 * @example
 * parseIpv4('10.0.16.0') // 167776256
 */
export function parseIpv4(text: string, path = 'address'): number {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => OCTET.test(p))) {
    throw InputError.field(
      path,
      `'${text}' is not an IPv4 address such as 10.0.0.0 (four numbers 0–255 without leading zeros)`,
    );
  }
  let value = 0;
  for (const part of parts) {
    const octet = Number(part);
    if (octet > 255) throw InputError.field(path, `'${text}' is not an IPv4 address: ${part} is greater than 255`);
    value = value * 256 + octet;
  }
  return value;
}

/**
 * Formats an unsigned 32-bit number as a dotted-quad address.
 *
 * @example
 * formatIpv4(167776256) // '10.0.16.0'
 */
export function formatIpv4(value: number): string {
  if (!Number.isInteger(value) || value < 0 || value >= ADDRESS_SPACE) {
    throw new RangeError(`${value} is not an IPv4 address (an integer from 0 to 2^32 - 1)`);
  }
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

/**
 * Parses `a.b.c.d/n`. Host bits must be zero: EC2 refuses `10.0.0.1/16`, and silently rounding it
 * down would hide a typo, so the error suggests the block the user probably meant.
 *
 * @example
 * parseCidr('10.0.0.0/16') // { base: 167772160, prefix: 16 }
 * parseCidr('10.0.0.1/16', 'vpcCidr') // throws InputError "vpcCidr: … did you mean 10.0.0.0/16?"
 */
export function parseCidr(text: string, path = 'cidr'): Cidr {
  const match = /^([^/]+)\/(0|[1-9]\d?)$/.exec(text);
  if (!match) throw InputError.field(path, `'${text}' is not a CIDR block such as 10.0.0.0/16`);
  const prefix = Number(match[2]);
  if (prefix > 32) throw InputError.field(path, `'${text}' has prefix length ${prefix}; IPv4 prefixes go from 0 to 32`);
  const address = parseIpv4(match[1]!, path);
  const size = 2 ** (32 - prefix);
  const base = address - (address % size);
  if (base !== address) {
    throw InputError.field(path, `'${text}' has host bits set; did you mean ${formatCidr({ base, prefix })}?`);
  }
  return { base, prefix };
}

/** @example formatCidr({ base: 167772160, prefix: 16 }) // '10.0.0.0/16' */
export function formatCidr(cidr: Cidr): string {
  return `${formatIpv4(cidr.base)}/${cidr.prefix}`;
}

/** Number of addresses in the block. @example cidrSize(parseCidr('10.0.0.0/20')) // 4096 */
export function cidrSize(cidr: Cidr): number {
  return 2 ** (32 - cidr.prefix);
}

/** One past the last address, so ranges compare as half-open intervals [base, end). */
export function cidrEnd(cidr: Cidr): number {
  return cidr.base + cidrSize(cidr);
}

/**
 * Whether `inner` lies wholly inside `outer` (a block contains itself).
 *
 * @example
 * cidrContains(parseCidr('10.0.0.0/16'), parseCidr('10.0.16.0/20')) // true
 */
export function cidrContains(outer: Cidr, inner: Cidr): boolean {
  return inner.base >= outer.base && cidrEnd(inner) <= cidrEnd(outer);
}

/**
 * Whether two blocks share at least one address. (Two CIDR blocks either nest or are disjoint.)
 *
 * @example
 * cidrsOverlap(parseCidr('10.0.0.0/16'), parseCidr('10.0.255.0/24')) // true
 */
export function cidrsOverlap(a: Cidr, b: Cidr): boolean {
  return a.base < cidrEnd(b) && b.base < cidrEnd(a);
}

/**
 * The `index`-th block of length `prefix` inside `parent`, counting from 0.
 *
 * @example
 * formatCidr(subnetAt(parseCidr('10.0.0.0/16'), 20, 1)) // '10.0.16.0/20'
 */
export function subnetAt(parent: Cidr, prefix: number, index: number): Cidr {
  const count = subnetCount(parent, prefix);
  if (!Number.isInteger(index) || index < 0 || index >= count) {
    throw new RangeError(`${formatCidr(parent)} has ${count} /${prefix} blocks; there is no block number ${index}`);
  }
  return { base: parent.base + index * 2 ** (32 - prefix), prefix };
}

/** How many /`prefix` blocks fit in `parent` (0 when `parent` is smaller). @example subnetCount(parseCidr('10.0.0.0/16'), 20) // 16 */
export function subnetCount(parent: Cidr, prefix: number): number {
  return prefix < parent.prefix ? 0 : 2 ** (prefix - parent.prefix);
}

/** Orders blocks by first address, then larger block first; the "CIDR order" of listings. */
export function compareCidrs(a: Cidr, b: Cidr): number {
  return a.base - b.base || a.prefix - b.prefix;
}
