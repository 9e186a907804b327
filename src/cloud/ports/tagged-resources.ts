/** Resources found by a tag, service by service (S3, SageMaker, IAM, EC2, EKS, FSx): what a cluster made, and data kept. */

/** One resource carrying a tag, whichever service holds it. */
export interface TaggedResource {
  service: 's3' | 'sagemaker' | 'iam' | 'ec2' | 'eks' | 'fsx';
  /** What it is, as a person says it: S3 bucket, IAM role, VPC, MLflow tracking server, … */
  kind: string;
  /** Its name or id: the bucket, role or server name, vpc-…, fs-…, an OIDC provider's ARN. */
  id: string;
  /** Its state, where the service has one (NAT gateway, FSx lifecycle, cluster status). */
  status?: string;
  /** Its ARN, where a record of ours names it by ARN (an MLflow server: a cluster's default link). */
  arn?: string;
  tags: Record<string, string>;
}

export interface TagQuery {
  key: string;
  value: string;
  /** IAM roles whose names may be ours (their tags are then read); absent: every role's tags are read. */
  roleName?: (name: string) => boolean;
  /** Only these services (absent: all of them). */
  services?: ReadonlyArray<TaggedResource['service']>;
}

/** A bucket or file system, the resources that hold a storage's data. */
export interface DataResource {
  service: 's3' | 'fsx';
  id: string;
}

export interface TaggedResourcesPort {
  /** Every resource of the Region (and IAM's, account-wide) whose tag `key` is `value`, read service by service. */
  list(region: string, query: TagQuery): Promise<TaggedResource[]>;
  /** The tags of one S3 bucket or FSx file system; undefined when it does not exist. */
  tagsOf(region: string, resource: DataResource): Promise<Record<string, string> | undefined>;
  /** Adds (or overwrites) tags on an S3 bucket or FSx file system, keeping its others. */
  tag(region: string, resource: DataResource, tags: Record<string, string>): Promise<void>;
  /** Removes the tags `keys` from an S3 bucket or FSx file system (what "forget" does); a missing one is fine. */
  untag(region: string, resource: DataResource, keys: readonly string[]): Promise<void>;
}
