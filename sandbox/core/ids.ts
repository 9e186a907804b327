import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** `vpc-0a1b2c…` style ids: AWS uses 17 lowercase hex digits after the prefix. */
export function resourceId(prefix: string, hexDigits = 17): string {
  return `${prefix}-${randomBytes(Math.ceil(hexDigits / 2))
    .toString('hex')
    .slice(0, hexDigits)}`;
}

export function hexId(hexDigits: number): string {
  return randomBytes(Math.ceil(hexDigits / 2))
    .toString('hex')
    .slice(0, hexDigits);
}

/** Upper-case alphanumerics, as in EKS OIDC issuer ids or access key ids. */
export function upperId(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[bytes[i]! % alphabet.length];
  return out;
}

export const requestId = (): string => randomUUID();
export const uuid = (): string => randomUUID();

/** A stable digest of request parameters, for the call log and idempotency tokens. */
export function paramsDigest(params: unknown): string {
  return createHash('sha256').update(stableStringify(params)).digest('hex').slice(0, 16);
}

/** JSON with sorted keys, so equal parameters give equal digests whatever their order. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Buffer.isBuffer(value)) return JSON.stringify(`<${value.length} bytes>`);
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
}

/** A deterministic number in [0, 1) from a string: used for stable pseudo-random durations. */
export function unitHash(text: string): number {
  const h = createHash('sha256').update(text).digest();
  return h.readUInt32BE(0) / 0x1_0000_0000;
}

export function arn(service: string, region: string, accountId: string, resource: string): string {
  return `arn:aws:${service}:${region}:${accountId}:${resource}`;
}
