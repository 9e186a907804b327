/** IPv4 CIDR arithmetic for VPCs and subnets. */
export interface Cidr {
  network: number;
  prefix: number;
}

const CIDR_RE = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

export function parseCidr(text: string): Cidr | undefined {
  const m = CIDR_RE.exec(text);
  if (!m) return undefined;
  const octets = m.slice(1, 5).map(Number);
  const prefix = Number(m[5]);
  if (octets.some((o) => o > 255) || prefix > 32) return undefined;
  const ip = ((octets[0]! << 24) | (octets[1]! << 16) | (octets[2]! << 8) | octets[3]!) >>> 0;
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return { network: (ip & mask) >>> 0, prefix };
}

/** True when the address part has no bits set beyond the prefix (AWS rejects `10.0.0.1/16`). */
export function isCanonical(text: string): boolean {
  const c = parseCidr(text);
  return !!c && formatCidr(c) === text;
}

export function formatIp(n: number): string {
  return [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');
}

export function formatCidr(c: Cidr): string {
  return `${formatIp(c.network)}/${c.prefix}`;
}

export const size = (c: Cidr): number => 2 ** (32 - c.prefix);

export function contains(outer: Cidr, inner: Cidr): boolean {
  return (
    inner.prefix >= outer.prefix &&
    inner.network >= outer.network &&
    inner.network + size(inner) <= outer.network + size(outer)
  );
}

export function overlaps(a: Cidr, b: Cidr): boolean {
  return a.network < b.network + size(b) && b.network < a.network + size(a);
}

/** AWS reserves the first four addresses and the last one of every subnet. */
export const RESERVED_PER_SUBNET = 5;
export const FIRST_USABLE_OFFSET = 4;
