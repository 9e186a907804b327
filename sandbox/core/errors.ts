/**
 * One error type for every service: handlers throw it, and each protocol renders it in its own
 * wire shape (JSON `__type`, EC2 `<Response><Errors>`, awsQuery `<ErrorResponse>`, S3 `<Error>`).
 */
export class AwsError extends Error {
  readonly code: string;
  readonly status: number;
  /** Extra members some error shapes carry (S3 `BucketName`, EKS `clusterName`, …). */
  readonly extra: Record<string, string>;
  /** Response headers the error carries (S3's `x-amz-bucket-region` on a redirect). */
  readonly headers: Record<string, string>;

  constructor(
    code: string,
    message: string,
    status = 400,
    extra: Record<string, string> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AwsError';
    this.code = code;
    this.status = status;
    this.extra = extra;
    this.headers = headers;
  }

  /** awsQuery puts Sender/Receiver in the error; 5xx is the service's fault. */
  get fault(): 'Sender' | 'Receiver' {
    return this.status >= 500 ? 'Receiver' : 'Sender';
  }
}

export const isAwsError = (e: unknown): e is AwsError => e instanceof AwsError;
