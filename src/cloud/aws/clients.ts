import { EC2Client } from '@aws-sdk/client-ec2';
import { EKSClient } from '@aws-sdk/client-eks';
import { FSxClient } from '@aws-sdk/client-fsx';
import { IAMClient } from '@aws-sdk/client-iam';
import { S3Client } from '@aws-sdk/client-s3';
import { SageMakerClient } from '@aws-sdk/client-sagemaker';
import { ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import { STSClient } from '@aws-sdk/client-sts';

/**
 * One place that builds AWS SDK v3 clients, cached per service and Region. The clients read the
 * standard settings themselves (credential chain, `AWS_ENDPOINT_URL[_<SERVICE>]`), which is how the
 * same code reaches the sandbox or real AWS. Retries use the SDK's standard mode (exponential backoff
 * with jitter, a retry quota), so occasional throttling is absorbed before an operation phase sees it;
 * the engine retries what still gets through. (Adaptive mode's client-side rate limiter slowed a
 * 30 %-throttled create five-fold without making it any more reliable.)
 *
 * @example
 * const aws = new AwsClients({ defaultRegion: 'us-west-2' });
 * await aws.eks().send(new ListClustersCommand({}));
 */
export class AwsClients {
  readonly defaultRegion: string;
  private readonly cache = new Map<string, unknown>();
  private readonly maxAttempts: number;

  constructor({ defaultRegion, maxAttempts = 6 }: { defaultRegion: string; maxAttempts?: number }) {
    this.defaultRegion = defaultRegion;
    this.maxAttempts = maxAttempts;
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
  /** IAM is global; its client lives in the default Region. */
  iam(): IAMClient {
    return this.client('iam', undefined, (cfg) => new IAMClient(cfg));
  }

  private client<T>(service: string, region: string | undefined, make: (cfg: { region: string; maxAttempts: number; retryMode: string }) => T): T {
    const r = region ?? this.defaultRegion;
    const key = `${service}:${r}`;
    let c = this.cache.get(key) as T | undefined;
    if (!c) {
      c = make({ region: r, maxAttempts: this.maxAttempts, retryMode: 'standard' });
      this.cache.set(key, c);
    }
    return c;
  }
}
