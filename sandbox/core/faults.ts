import { z } from 'zod';
import { uuid } from './ids.js';

/**
 * Fault injection (`POST /_sandbox/faults`): lets tests and demos prove the product copes with
 * throttling, server errors, failed creates, capacity shortfalls, node faults and a cloud that
 * does not answer at all.
 */
export const faultSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('throttle'),
    service: z.string().min(1).describe('signing name, e.g. sagemaker, eks, ec2, iam, sts, s3'),
    operation: z.string().min(1).optional().describe('only this operation; all of the service when absent'),
    rate: z.number().gt(0).max(1).describe('fraction of matching calls throttled, spread evenly'),
    count: z.number().int().positive().optional().describe('stop after throttling this many calls'),
  }),
  z.object({
    type: z.literal('error'),
    service: z.string().min(1),
    operation: z.string().min(1),
    code: z.string().min(1).default('InternalFailure'),
    status: z.number().int().min(400).max(599).default(500),
    message: z.string().default('We encountered an internal error. Please try again.'),
    count: z.number().int().positive().default(1).describe('fail the next N calls'),
  }),
  z.object({
    type: z.literal('insufficient-capacity'),
    region: z.string().optional(),
    availabilityZone: z.string().min(1),
    instanceType: z.string().min(1).describe('ml.* or EC2 name; both spellings match'),
    available: z.number().int().min(0).default(0).describe('instances that can still launch there'),
  }),
  z.object({
    type: z.literal('create-failure'),
    service: z.enum(['eks', 'sagemaker']),
    name: z.string().optional().describe('only the create of this resource name (for an add-on: of this EKS cluster)'),
    addonName: z
      .string()
      .min(1)
      .optional()
      .describe('eks only: the create of this add-on fails (CREATE_FAILED) instead of a cluster create'),
    message: z.string().min(1),
  }),
  z.object({
    type: z.literal('hang'),
    service: z
      .string()
      .min(1)
      .describe(
        'signing name (eks, sagemaker, ec2, iam, sts, s3, …), or kubernetes for the Kubernetes APIs of the sandbox EKS clusters',
      ),
    operation: z
      .string()
      .min(1)
      .optional()
      .describe('only this operation (for kubernetes: the HTTP method, e.g. GET); all of the service when absent'),
    seconds: z
      .number()
      .positive()
      .max(3600)
      .describe('real seconds from now during which matching calls get no answer'),
    skip: z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe('let the first N matching calls through, answered (hang, say, the second of two deletes)'),
    lands: z
      .boolean()
      .default(false)
      .describe(
        'AWS calls: served at once, only the answer is held: the cloud acted and the client never heard (a crash between the two)',
      ),
  }),
  z.object({
    type: z.literal('connection-reset'),
    service: z
      .string()
      .min(1)
      .describe('signing name, or kubernetes for the Kubernetes APIs of the sandbox EKS clusters'),
    operation: z
      .string()
      .min(1)
      .optional()
      .describe('only this operation (for kubernetes: the HTTP method, e.g. GET); all of the service when absent'),
    count: z.number().int().positive().default(1).describe('reset the connections of the next N matching calls'),
  }),
  z.object({
    type: z.literal('kube-compaction'),
    cluster: z.string().min(1).optional().describe('EKS cluster name; any cluster when absent'),
    count: z.number().int().positive().default(1).describe('compact before this many continued lists'),
  }),
  z.object({
    type: z.literal('image-pull'),
    image: z
      .string()
      .min(1)
      .describe(
        'the image as a pod names it (`vllm/vllm-openai:v0.10.1`); a trailing * matches every image starting so',
      ),
    cluster: z.string().min(1).optional().describe('EKS cluster name; any cluster when absent'),
    reason: z
      .enum(['not-found', 'unauthorized'])
      .default('not-found')
      .describe("the registry's answer: no such image or tag, or the node may not pull it"),
  }),
  z.object({
    type: z.literal('node-fault'),
    region: z.string().optional(),
    cluster: z.string().min(1).describe('HyperPod cluster name'),
    instanceId: z.string().min(1),
    health: z
      .enum(['UnschedulablePendingReboot', 'UnschedulablePendingReplacement'])
      .default('UnschedulablePendingReboot'),
    reason: z.string().default('Xid 79: GPU has fallen off the bus'),
  }),
]);

export type FaultSpec = z.infer<typeof faultSchema>;
/** `endsAt` (epoch ms, real time) is set on hang faults. */
export type Fault = FaultSpec & { id: string; triggered: number; endsAt?: number };
type OfType<T extends FaultSpec['type']> = Fault & { type: T };

/** Applies node faults immediately; the HyperPod service registers it. */
export type NodeFaultApplier = (fault: OfType<'node-fault'>) => void;

const baseInstanceType = (t: string) => t.replace(/^ml\./, '');

export class FaultRegistry {
  private faults: Fault[] = [];
  /** Per-throttle-fault accumulators: throttling "rate" calls out of every 1, deterministically. */
  private accumulators = new Map<string, number>();
  /** Per hang fault: its end timer and the calls it holds (each waits for its release). */
  private hangs = new Map<string, { timer: NodeJS.Timeout; held: Set<() => void>; passed: number }>();
  nodeFaultApplier: NodeFaultApplier | undefined;

  add(spec: FaultSpec): Fault {
    const fault = { ...spec, id: uuid(), triggered: 0 } as Fault;
    if (fault.type === 'node-fault') {
      if (!this.nodeFaultApplier) throw new Error('node faults need the SageMaker service');
      this.nodeFaultApplier(fault);
      fault.triggered = 1;
      return fault; // one-shot: applied now, not kept
    }
    if (fault.type === 'hang') {
      fault.endsAt = Date.now() + fault.seconds * 1000;
      const timer = setTimeout(() => this.clear(fault.id), fault.seconds * 1000);
      timer.unref();
      this.hangs.set(fault.id, { timer, held: new Set(), passed: 0 });
    }
    this.faults.push(fault);
    return fault;
  }

  /**
   * For a call about to be served: a promise that settles when the hang fault matching it ends (its
   * time is up, or it is cleared), or undefined when no hang fault matches. The server answers only
   * then — and drops the call if the client gave up meanwhile, as a black-holed network would.
   */
  hold(service: string, operation: string): { until: Promise<void>; lands: boolean } | undefined {
    const f = this.faults.find(
      (x): x is OfType<'hang'> =>
        x.type === 'hang' && x.service === service && (x.operation === undefined || x.operation === operation),
    );
    const hang = f && this.hangs.get(f.id);
    if (!f || !hang) return undefined;
    if (hang.passed < f.skip) {
      hang.passed++;
      return undefined;
    }
    f.triggered++;
    return { until: new Promise((resolve) => hang.held.add(resolve)), lands: f.lands };
  }

  /**
   * Consumes one use of a connection-reset fault matching this call: true when the server must close
   * the call's connection without answering — as a server does when it closes an idle keep-alive
   * connection just as the client sends on it, or a load balancer resets it. The call never happens.
   */
  takeReset(service: string, operation: string): boolean {
    const f = this.faults.find(
      (x): x is OfType<'connection-reset'> =>
        x.type === 'connection-reset' &&
        x.service === service &&
        (x.operation === undefined || x.operation === operation) &&
        x.triggered < x.count,
    );
    if (!f) return false;
    f.triggered++;
    this.dropSpent();
    return true;
  }

  list(): Fault[] {
    return [...this.faults];
  }

  clear(id?: string): number {
    const before = this.faults.length;
    this.faults = id ? this.faults.filter((f) => f.id !== id) : [];
    if (!id) this.accumulators.clear();
    for (const [hangId, hang] of this.hangs) {
      if (id !== undefined && hangId !== id) continue;
      clearTimeout(hang.timer);
      for (const release of hang.held) release();
      this.hangs.delete(hangId);
    }
    return before - this.faults.length;
  }

  /** Called for every AWS call before the handler runs. */
  intercept(
    service: string,
    operation: string,
  ): { kind: 'throttle' } | { kind: 'error'; code: string; status: number; message: string } | undefined {
    for (const f of this.faults) {
      if (f.type === 'error' && f.service === service && f.operation === operation && f.triggered < f.count) {
        f.triggered++;
        this.dropSpent();
        return { kind: 'error', code: f.code, status: f.status, message: f.message };
      }
      if (f.type === 'throttle' && f.service === service && (f.operation === undefined || f.operation === operation)) {
        if (f.count !== undefined && f.triggered >= f.count) continue;
        const acc = (this.accumulators.get(f.id) ?? 0) + f.rate;
        if (acc >= 1 - 1e-9) {
          this.accumulators.set(f.id, acc - 1);
          f.triggered++;
          this.dropSpent();
          return { kind: 'throttle' };
        }
        this.accumulators.set(f.id, acc);
      }
    }
    return undefined;
  }

  /**
   * Whether the kubelets of an EKS cluster fail to pull this image, and how (an image-pull fault
   * lasts until cleared: pods naming the image stay in ImagePullBackOff).
   */
  imagePullFailure(cluster: string, image: string): 'not-found' | 'unauthorized' | undefined {
    const f = this.faults.find(
      (x): x is OfType<'image-pull'> =>
        x.type === 'image-pull' &&
        (x.cluster === undefined || x.cluster === cluster) &&
        (x.image.endsWith('*') ? image.startsWith(x.image.slice(0, -1)) : image === x.image),
    );
    if (f) f.triggered++;
    return f?.reason;
  }

  /**
   * Consumes one use of a kube-compaction fault for this EKS cluster: true when the cluster's object
   * history must be compacted before the list request now being served.
   */
  takeCompaction(cluster: string): boolean {
    const f = this.faults.find(
      (x): x is OfType<'kube-compaction'> =>
        x.type === 'kube-compaction' && (x.cluster === undefined || x.cluster === cluster) && x.triggered < x.count,
    );
    if (!f) return false;
    f.triggered++;
    if (f.triggered >= f.count) this.faults = this.faults.filter((x) => x !== f);
    return true;
  }

  /**
   * Consumes a create-failure fault for this service/resource, returning its message. Faults naming
   * an add-on match only that add-on's create (on cluster `name`), never a cluster create.
   */
  takeCreateFailure(service: 'eks' | 'sagemaker', name: string, addonName?: string): string | undefined {
    const f = this.faults.find(
      (x): x is OfType<'create-failure'> =>
        x.type === 'create-failure' &&
        x.service === service &&
        (x.name === undefined || x.name === name) &&
        x.addonName === addonName,
    );
    if (!f) return undefined;
    this.faults = this.faults.filter((x) => x !== f);
    return f.message;
  }

  /**
   * How many more instances of a type can launch in an AZ: Infinity unless an
   * insufficient-capacity fault says otherwise. Launching consumes from the fault's budget.
   */
  capacityAvailable(region: string, availabilityZone: string, instanceType: string): number {
    const f = this.capacityFault(region, availabilityZone, instanceType);
    return f ? f.available : Infinity;
  }

  consumeCapacity(region: string, availabilityZone: string, instanceType: string, count: number): void {
    const f = this.capacityFault(region, availabilityZone, instanceType);
    if (f) f.available = Math.max(0, f.available - count);
  }

  private capacityFault(
    region: string,
    availabilityZone: string,
    instanceType: string,
  ): OfType<'insufficient-capacity'> | undefined {
    return this.faults.find(
      (x): x is OfType<'insufficient-capacity'> =>
        x.type === 'insufficient-capacity' &&
        (x.region === undefined || x.region === region) &&
        x.availabilityZone === availabilityZone &&
        baseInstanceType(x.instanceType) === baseInstanceType(instanceType),
    );
  }

  private dropSpent(): void {
    this.faults = this.faults.filter(
      (f) =>
        !(
          ((f.type === 'error' || f.type === 'connection-reset') && f.triggered >= f.count) ||
          (f.type === 'throttle' && f.count !== undefined && f.triggered >= f.count)
        ),
    );
  }
}
