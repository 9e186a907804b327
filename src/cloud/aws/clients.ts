import { EC2Client } from '@aws-sdk/client-ec2';
import { EKSClient } from '@aws-sdk/client-eks';
import { FSxClient } from '@aws-sdk/client-fsx';
import { IAMClient } from '@aws-sdk/client-iam';
import { PricingClient } from '@aws-sdk/client-pricing';
import { S3Client } from '@aws-sdk/client-s3';
import { SageMakerClient } from '@aws-sdk/client-sagemaker';
import { ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import { STSClient } from '@aws-sdk/client-sts';
import { cloudTimeout } from '../../domain/errors.js';
import { tell, type CloudObserver } from '../observer.js';
import { resolveCloudTimeouts, secondsOf, type CloudTimeouts } from '../timeouts.js';

/** Where the product reads prices (any Region's) from: the Price List API's first endpoint. */
export const PRICING_API_REGION = 'us-east-1';

/** What every client is built with: Region, retries and the per-attempt connection and request limits. */
interface ClientConfig {
  region: string;
  maxAttempts: number;
  retryMode: string;
  requestHandler: { connectionTimeout: number; requestTimeout: number; throwOnRequestTimeout: boolean };
}

/**
 * One place that builds AWS SDK v3 clients, cached per service and Region. The clients read the
 * standard settings themselves (credential chain, `AWS_ENDPOINT_URL[_<SERVICE>]`), which is how the
 * same code reaches the sandbox or real AWS. Retries use the SDK's standard mode (exponential backoff
 * with jitter, a retry quota), so occasional throttling is absorbed before an operation phase sees it;
 * the engine retries what still gets through. (Adaptive mode's client-side rate limiter slowed a
 * 30 %-throttled create five-fold without making it any more reliable.)
 *
 * Every call has a deadline ({@link CloudTimeouts}): a connection must open within `connectMs`, and
 * the call — the SDK's retries included — must answer within `requestMs`, or it fails with a
 * retryable `TimeoutError` CloudError naming the service and operation.
 *
 * @example
 * const aws = new AwsClients({ defaultRegion: 'us-west-2', timeouts: { requestMs: 5000 } });
 * await aws.eks().send(new ListClustersCommand({}));
 */
export class AwsClients {
  readonly defaultRegion: string;
  private readonly cache = new Map<string, unknown>();
  private readonly maxAttempts: number;
  readonly timeouts: CloudTimeouts;
  /** Told of every request sent through these clients and of every Kubernetes apply (src/cloud/observer.ts). */
  readonly observer: CloudObserver | undefined;

  constructor({
    defaultRegion,
    maxAttempts = 6,
    timeouts = {},
    observer,
  }: { defaultRegion: string; maxAttempts?: number; timeouts?: Partial<CloudTimeouts>; observer?: CloudObserver }) {
    this.defaultRegion = defaultRegion;
    this.maxAttempts = maxAttempts;
    this.timeouts = resolveCloudTimeouts(timeouts);
    this.observer = observer;
  }

  ec2(region?: string): EC2Client {
    return this.client('ec2', region, (cfg) => new EC2Client(cfg));
  }
  eks(region?: string): EKSClient {
    return this.client('eks', region, (cfg) => new EKSClient(cfg));
  }
  sagemaker(region?: string): SageMakerClient {
    return this.client('sagemaker', region, (cfg) => new SageMakerClient(cfg));
  }
  quotas(region?: string): ServiceQuotasClient {
    return this.client('quotas', region, (cfg) => new ServiceQuotasClient(cfg));
  }
  s3(region?: string): S3Client {
    return this.client('s3', region, (cfg) => new S3Client(cfg));
  }
  fsx(region?: string): FSxClient {
    return this.client('fsx', region, (cfg) => new FSxClient(cfg));
  }
  sts(region?: string): STSClient {
    return this.client('sts', region, (cfg) => new STSClient(cfg));
  }
  /**
   * The Price List API has endpoints in us-east-1, eu-central-1 and ap-south-1 only (its API reference);
   * every Region's prices are read from us-east-1.
   */
  pricing(): PricingClient {
    return this.client('pricing', PRICING_API_REGION, (cfg) => new PricingClient(cfg));
  }
  /** IAM is global; its client lives in the default Region. */
  iam(): IAMClient {
    return this.client('iam', undefined, (cfg) => new IAMClient(cfg));
  }

  private client<T extends SendingClient>(
    service: string,
    region: string | undefined,
    make: (cfg: ClientConfig) => T,
  ): T {
    const r = region ?? this.defaultRegion;
    const key = `${service}:${r}`;
    let c = this.cache.get(key) as T | undefined;
    if (!c) {
      const { connectMs, requestMs } = this.timeouts;
      // Per attempt: connect within connectMs, answer within requestMs (throwOnRequestTimeout turns the
      // SDK's warning into an error). Per call, retries included: the deadline below.
      c = make({
        region: r,
        maxAttempts: this.maxAttempts,
        retryMode: 'standard',
        requestHandler: { connectionTimeout: connectMs, requestTimeout: requestMs, throwOnRequestTimeout: true },
      });
      withDeadline(c, service, requestMs);
      if (this.observer?.awsRequest || this.observer?.awsResponse)
        observe(c as unknown as ObservableClient, service, r, this.observer);
      this.cache.set(key, c);
    }
    return c;
  }
}

type SendOptions = { abortSignal?: AbortSignal } & Record<string, unknown>;
interface SendingClient {
  send(command: object, options?: SendOptions): Promise<unknown>;
}
/** The part of an SDK client's middleware stack `observe` uses (the SDK's own types are per service). */
interface ObservableClient {
  middlewareStack: { add(middleware: ObservingMiddleware, options: { step: 'initialize'; name: string }): void };
}
type ObservingMiddleware = (
  next: (args: { input: unknown }) => Promise<unknown>,
  context: { commandName?: string },
) => (args: { input: unknown }) => Promise<unknown>;

/**
 * Tells the observer each command's input as the SDK's first middleware step sees it (once per call, not per retry),
 * then its answer's request id: the `$metadata.requestId` the SDK reads from the last attempt's answer (AWS's
 * `x-amzn-RequestId` header, or S3's `x-amz-request-id`), on success and on a service error alike.
 */
function observe(client: ObservableClient, service: string, region: string, observer: CloudObserver): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const operation = (context.commandName ?? '').replace(/Command$/, '');
      tell(observer.awsRequest, { service, region, operation, input: args.input });
      if (!observer.awsResponse) return next(args);
      try {
        const out = await next(args);
        const requestId = (out as { output?: { $metadata?: { requestId?: string } } })?.output?.$metadata?.requestId;
        tell(observer.awsResponse, { service, region, operation, ...(requestId ? { requestId } : {}) });
        return out;
      } catch (err) {
        const e = err as { name?: string; $metadata?: { requestId?: string } };
        const requestId = e?.$metadata?.requestId;
        tell(observer.awsResponse, {
          service,
          region,
          operation,
          ...(requestId ? { requestId } : {}),
          errorCode: e?.name ?? 'Error',
        });
        throw err;
      }
    },
    { step: 'initialize', name: 'instantstartCloudObserver' },
  );
}

/**
 * Bounds every `send` of `client` to `ms` in all, SDK retries included, through the SDK's own
 * `abortSignal` (the retry loop and the HTTP handler both honour it, so nothing keeps running once
 * the deadline passes). A call that runs out of time — or whose connection or answer timed out in
 * every attempt — fails with the `TimeoutError` CloudError for that service and operation.
 */
function withDeadline(client: SendingClient, service: string, ms: number): void {
  const send = client.send.bind(client) as (...args: unknown[]) => Promise<unknown>;
  client.send = function sendWithDeadline(command: object, options?: SendOptions, ...rest: unknown[]) {
    // The callback forms of send are not used here; pass them through untouched.
    if (typeof options === 'function' || rest.length > 0) return send(command, options, ...rest);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), ms);
    const outer = options?.abortSignal;
    const forward = () => controller.abort(outer?.reason);
    outer?.addEventListener('abort', forward, { once: true });
    const started = Date.now();
    return send(command, { ...options, abortSignal: controller.signal })
      .catch((err: unknown) => {
        const timedOut =
          (controller.signal.aborted && !outer?.aborted) || (err as { name?: string })?.name === 'TimeoutError';
        if (!timedOut) throw err;
        const operation = command.constructor.name.replace(/Command$/, '');
        throw cloudTimeout(service, operation, secondsOf(controller.signal.aborted ? ms : Date.now() - started));
      })
      .finally(() => {
        clearTimeout(timer);
        outer?.removeEventListener('abort', forward);
      });
  };
}
