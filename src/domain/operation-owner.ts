import type { CloudKind } from './schemas/operations.js';

/** Where a server acts: its cloud, the AWS account its credentials belong to, and its default Region. */
export interface CloudIdentity {
  cloud: CloudKind;
  accountId: string;
  region: string;
}

/** Where one operation was recorded to act; an absent field is unknown (journaled before it was recorded). */
export interface OperationPlace {
  cloud?: CloudKind;
  accountId?: string;
  region?: string;
}

/** "AWS account 123456789012 (us-east-1)", "the sandbox cloud (us-west-2)", or the unknown case. */
export function describePlace(place: OperationPlace): string {
  if (place.cloud === undefined)
    return 'an unknown cloud (it was recorded before InstantStart kept the cloud of each operation)';
  const region = place.region ? `, ${place.region}` : '';
  if (place.cloud === 'sandbox') return `the sandbox cloud (account ${place.accountId ?? 'unknown'}${region})`;
  return `AWS account ${place.accountId ?? 'unknown'}${place.region ? ` (${place.region})` : ''}`;
}

/**
 * Why a server acting as `server` must not resume, retry or cancel an operation recorded at `place`;
 * undefined when it may. The Region does not matter: one server acts in every Region of its account.
 *
 * An operation of unknown cloud comes from a journal older than the per-cloud data directories; such a
 * journal is moved into the sandbox's directory (the sandbox was the default cloud), so only a sandbox
 * server adopts it — never one acting on real AWS.
 *
 * @example
 * foreignOperationReason('op-1', { cloud: 'sandbox', accountId: '000000000000' }, { cloud: 'aws', accountId:
 * '123456789012', region: 'us-east-1' });
 * // → 'Operation op-1 belongs to the sandbox cloud (account 000000000000); this server acts on AWS account
 * 123456789012 (us-east-1). …'
 */
export function foreignOperationReason(id: string, place: OperationPlace, server: CloudIdentity): string | undefined {
  if (place.cloud === undefined) {
    if (server.cloud === 'sandbox') return undefined;
  } else if (place.cloud === server.cloud && (place.accountId === undefined || place.accountId === server.accountId)) {
    return undefined;
  }
  return (
    `Operation ${id} belongs to ${describePlace(place)}; this server acts on ${describePlace(server)}. ` +
    "Only a server on that cloud and account may resume, retry or cancel it (instantstart serve --cloud … with that account's credentials)."
  );
}
