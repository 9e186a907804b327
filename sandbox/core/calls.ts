/**
 * The call log behind `GET /_sandbox/calls`: every AWS request the sandbox received, and every
 * Kubernetes write (`?service=kubernetes`), so tests can count mutations ("a retry must not create
 * twice") and users can see what the product did.
 * It lives in memory and is bounded; a sandbox restart starts a new log.
 */
export interface CallRecord {
  seq: number;
  /** Real wall-clock time of the call (ISO 8601). */
  time: string;
  /** Sandbox time of the call (ISO 8601). */
  sandboxTime: string;
  service: string;
  operation: string;
  region: string;
  paramsDigest: string;
  /** The resource the call names, when its parameters name one (see `callSubject`): which add-on, role, bucket or cluster. */
  subject?: string;
  mutating: boolean;
  status: number;
  errorCode?: string;
  /** The request id the answer carried (`x-amzn-RequestId` / `x-amz-request-id`): what the product's audit keeps. */
  requestId?: string;
}

const MUTATING =
  /^(Create|Delete|Update|Put|Attach|Detach|Associate|Disassociate|Batch(Add|Delete|Reboot|Replace)|Start|Stop|Request|Tag|Untag|Allocate|Release|Authorize|Revoke|Modify|Replace|Complete|Abort|Upload|Copy|Add|Remove|Set|Enable|Disable|Reboot|Terminate|Run|Accept|Reject|Register|Deregister|Restore)/;

/** Parameters that name what a call is about, most specific first (an add-on's call also names its cluster). */
const SUBJECT_KEYS = ['addonName', 'RoleName', 'Bucket', 'ClusterName', 'TrackingServerName', 'FileSystemId', 'name'];

/** The resource a call names, so that a test can tell which add-on (role, bucket…) a call was about and in what order. */
export function callSubject(params: unknown): string | undefined {
  if (!params || typeof params !== 'object') return undefined;
  for (const key of SUBJECT_KEYS) {
    const value = Object.hasOwn(params, key) ? (params as Record<string, unknown>)[key] : undefined;
    if (typeof value === 'string' && value) return value;
  }
  return undefined;
}

export function isMutatingOperation(operation: string): boolean {
  return MUTATING.test(operation);
}

/** The call-log service of Kubernetes writes (sandbox/kube/call-entry.ts). */
export const KUBERNETES = 'kubernetes';

export interface CallQuery {
  service?: string;
  operation?: string;
  region?: string;
  mutating?: boolean;
  /** Only calls with `seq` greater than this. */
  after?: number;
}

export class CallLog {
  private records: CallRecord[] = [];
  private nextSeq = 1;

  constructor(private readonly capacity = 50_000) {}

  record(entry: Omit<CallRecord, 'seq'>): CallRecord {
    const rec = { seq: this.nextSeq++, ...entry };
    this.records.push(rec);
    if (this.records.length > this.capacity) this.records.splice(0, this.records.length - this.capacity);
    return rec;
  }

  /** Kubernetes writes (service `kubernetes`) are listed only when asked for by service: the log stayed AWS's before they were added. */
  query(q: CallQuery = {}): CallRecord[] {
    return this.records.filter(
      (r) =>
        (q.service === undefined ? r.service !== KUBERNETES : r.service === q.service) &&
        (q.operation === undefined || r.operation === q.operation) &&
        (q.region === undefined || r.region === q.region) &&
        (q.mutating === undefined || r.mutating === q.mutating) &&
        (q.after === undefined || r.seq > q.after),
    );
  }

  clear(): void {
    this.records = [];
  }
}
