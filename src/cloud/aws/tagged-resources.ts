import { DescribeTagsCommand, DescribeNatGatewaysCommand } from '@aws-sdk/client-ec2';
import { DescribeClusterCommand, ListClustersCommand } from '@aws-sdk/client-eks';
import { DescribeFileSystemsCommand, TagResourceCommand, UntagResourceCommand } from '@aws-sdk/client-fsx';
import {
  GetOpenIDConnectProviderCommand,
  ListOpenIDConnectProvidersCommand,
  ListRolesCommand,
  ListRoleTagsCommand,
} from '@aws-sdk/client-iam';
import {
  DeleteBucketTaggingCommand,
  GetBucketTaggingCommand,
  ListBucketsCommand,
  PutBucketTaggingCommand,
} from '@aws-sdk/client-s3';
import {
  ListClustersCommand as ListHyperPodClustersCommand,
  ListMlflowTrackingServersCommand,
  ListTagsCommand,
} from '@aws-sdk/client-sagemaker';
import type { DataResource, TaggedResource, TaggedResourcesPort, TagQuery } from '../ports.js';
import { mapLimited } from './catalog/paginate.js';
import type { AwsClients } from './clients.js';
import { awsCall, hasCode } from './errors.js';

/** Tag reads in flight at once (one per bucket, role, server): bounded, as every fan-out is. */
const READS_AT_ONCE = 4;

type Pairs = Array<{ Key?: string; Value?: string }> | undefined;
const fromPairs = (tags: Pairs): Record<string, string> =>
  Object.fromEntries((tags ?? []).map((t) => [t.Key ?? '', t.Value ?? '']));
const fromMap = (tags: Record<string, string> | undefined): Record<string, string> => ({ ...(tags ?? {}) });

/** What EC2's DescribeTags calls a resource type, as a person names it. */
const EC2_KINDS: Record<string, string> = {
  vpc: 'VPC',
  subnet: 'subnet',
  'internet-gateway': 'internet gateway',
  natgateway: 'NAT gateway',
  'elastic-ip': 'Elastic IP',
  'route-table': 'route table',
  'security-group': 'security group',
  'vpc-endpoint': 'VPC endpoint',
  'network-interface': 'network interface',
};

/**
 * Every resource that carries one tag, read service by service: S3, SageMaker (HyperPod clusters,
 * MLflow tracking servers), IAM (roles, OIDC providers), EC2 (DescribeTags: every taggable type at
 * once), EKS and FSx. The Resource Groups Tagging API would answer most of this in one call, but it
 * does not cover IAM in every Region and its SDK client is not a dependency of the product; a delete
 * reads this once or twice, so the per-service reads are affordable.
 *
 * IAM lists no tags with ListRoles: the roles whose names may be ours (`query.roleName`) get a
 * ListRoleTags each — the tag decides, the name only spares an account's other roles the call.
 */
export class TaggedResources implements TaggedResourcesPort {
  constructor(private readonly clients: AwsClients) {}

  async list(region: string, query: TagQuery): Promise<TaggedResource[]> {
    const asked = (service: TaggedResource['service']) => !query.services || query.services.includes(service);
    const none = async (): Promise<TaggedResource[]> => [];
    const parts = await Promise.all([
      asked('s3') ? this.buckets(region) : none(),
      asked('sagemaker') ? this.hyperpodClusters(region) : none(),
      asked('sagemaker') ? this.mlflowServers(region) : none(),
      asked('iam') ? this.roles(query) : none(),
      asked('iam') ? this.oidcProviders() : none(),
      asked('ec2') ? this.ec2(region, query) : none(),
      asked('eks') ? this.eksClusters(region) : none(),
      asked('fsx') ? this.fileSystems(region) : none(),
    ]);
    return parts.flat().filter((r) => r.tags[query.key] === query.value);
  }

  async tagsOf(region: string, resource: DataResource): Promise<Record<string, string> | undefined> {
    if (resource.service === 'fsx') return (await this.fileSystem(region, resource.id))?.tags;
    try {
      const r = await awsCall('s3', 'GetBucketTagging', () =>
        this.clients.s3(region).send(new GetBucketTaggingCommand({ Bucket: resource.id })),
      );
      return fromPairs(r.TagSet);
    } catch (err) {
      if (hasCode(err, 'NoSuchTagSet')) return {};
      if (hasCode(err, 'NoSuchBucket')) return undefined;
      throw err;
    }
  }

  async tag(region: string, resource: DataResource, tags: Record<string, string>): Promise<void> {
    if (resource.service === 'fsx') {
      const fs = await this.fileSystem(region, resource.id);
      if (fs)
        await awsCall('fsx', 'TagResource', () =>
          this.clients.fsx(region).send(
            new TagResourceCommand({
              ResourceARN: fs.arn,
              Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })),
            }),
          ),
        );
      return;
    }
    const current = await this.tagsOf(region, resource);
    if (current) await this.putBucketTags(region, resource.id, { ...current, ...tags });
  }

  async untag(region: string, resource: DataResource, keys: readonly string[]): Promise<void> {
    if (resource.service === 'fsx') {
      const fs = await this.fileSystem(region, resource.id);
      if (fs)
        await awsCall('fsx', 'UntagResource', () =>
          this.clients.fsx(region).send(new UntagResourceCommand({ ResourceARN: fs.arn, TagKeys: [...keys] })),
        );
      return;
    }
    // S3 has no per-key untag: the bucket's other tags are put back without ours.
    const current = await this.tagsOf(region, resource);
    if (!current || !keys.some((k) => k in current)) return;
    await this.putBucketTags(
      region,
      resource.id,
      Object.fromEntries(Object.entries(current).filter(([k]) => !keys.includes(k))),
    );
  }

  /** The bucket's whole tag set (S3 replaces it); none left: the tag set goes. */
  private async putBucketTags(region: string, bucket: string, tags: Record<string, string>): Promise<void> {
    const s3 = this.clients.s3(region);
    const set = Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));
    if (set.length === 0)
      await awsCall('s3', 'DeleteBucketTagging', () => s3.send(new DeleteBucketTaggingCommand({ Bucket: bucket })));
    else
      await awsCall('s3', 'PutBucketTagging', () =>
        s3.send(new PutBucketTaggingCommand({ Bucket: bucket, Tagging: { TagSet: set } })),
      );
  }

  private async fileSystem(
    region: string,
    id: string,
  ): Promise<{ arn: string; tags: Record<string, string> } | undefined> {
    try {
      const r = await awsCall('fsx', 'DescribeFileSystems', () =>
        this.clients.fsx(region).send(new DescribeFileSystemsCommand({ FileSystemIds: [id] })),
      );
      const fs = r.FileSystems?.[0];
      return fs?.ResourceARN ? { arn: fs.ResourceARN, tags: fromPairs(fs.Tags) } : undefined;
    } catch (err) {
      if (hasCode(err, 'FileSystemNotFound')) return undefined;
      throw err;
    }
  }

  /** The Region's general purpose buckets (ListBuckets filtered by BucketRegion), each with its tags. */
  private async buckets(region: string): Promise<TaggedResource[]> {
    const s3 = this.clients.s3(region);
    const names: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await awsCall('s3', 'ListBuckets', () =>
        s3.send(new ListBucketsCommand({ BucketRegion: region, MaxBuckets: 1000, ContinuationToken })),
      );
      for (const b of page.Buckets ?? []) if (b.Name) names.push(b.Name);
      ContinuationToken = page.ContinuationToken;
    } while (ContinuationToken);
    return mapLimited(names, READS_AT_ONCE, async (bucket): Promise<TaggedResource> => {
      try {
        const r = await awsCall('s3', 'GetBucketTagging', () =>
          s3.send(new GetBucketTaggingCommand({ Bucket: bucket })),
        );
        return { service: 's3', kind: 'S3 bucket', id: bucket, tags: fromPairs(r.TagSet) };
      } catch (err) {
        // No tags at all, or deleted between the list and the read.
        if (hasCode(err, 'NoSuchTagSet', 'NoSuchBucket'))
          return { service: 's3', kind: 'S3 bucket', id: bucket, tags: {} };
        throw err;
      }
    });
  }

  private async sagemakerTags(region: string, arn: string): Promise<Record<string, string> | undefined> {
    const sm = this.clients.sagemaker(region);
    const tags: Record<string, string> = {};
    let NextToken: string | undefined;
    try {
      do {
        const r = await awsCall('sagemaker', 'ListTags', () =>
          sm.send(new ListTagsCommand({ ResourceArn: arn, NextToken, MaxResults: 50 })),
        );
        Object.assign(tags, fromPairs(r.Tags));
        NextToken = r.NextToken;
      } while (NextToken);
    } catch (err) {
      // Deleted between the list and the read (SageMaker answers ValidationException for an unknown ARN).
      if (hasCode(err, 'ValidationException', 'ResourceNotFound')) return undefined;
      throw err;
    }
    return tags;
  }

  private async hyperpodClusters(region: string): Promise<TaggedResource[]> {
    const sm = this.clients.sagemaker(region);
    const found: Array<{ name: string; arn: string; status: string }> = [];
    let NextToken: string | undefined;
    do {
      const r = await awsCall('sagemaker', 'ListClusters', () =>
        sm.send(new ListHyperPodClustersCommand({ NextToken, MaxResults: 100 })),
      );
      for (const c of r.ClusterSummaries ?? [])
        found.push({ name: c.ClusterName!, arn: c.ClusterArn!, status: c.ClusterStatus ?? 'Unknown' });
      NextToken = r.NextToken;
    } while (NextToken);
    return this.withSagemakerTags(region, 'HyperPod cluster', found);
  }

  private async mlflowServers(region: string): Promise<TaggedResource[]> {
    const sm = this.clients.sagemaker(region);
    const found: Array<{ name: string; arn: string; status: string }> = [];
    let NextToken: string | undefined;
    do {
      const r = await awsCall('sagemaker', 'ListMlflowTrackingServers', () =>
        sm.send(new ListMlflowTrackingServersCommand({ NextToken, MaxResults: 100 })),
      );
      for (const s of r.TrackingServerSummaries ?? [])
        found.push({
          name: s.TrackingServerName!,
          arn: s.TrackingServerArn!,
          status: s.TrackingServerStatus ?? 'Unknown',
        });
      NextToken = r.NextToken;
    } while (NextToken);
    return this.withSagemakerTags(region, 'MLflow tracking server', found);
  }

  /** SageMaker resources listed without their tags: each one's tags read (bounded), those still there kept. */
  private async withSagemakerTags(
    region: string,
    kind: string,
    found: Array<{ name: string; arn: string; status: string }>,
  ): Promise<TaggedResource[]> {
    const tagged = await mapLimited(found, READS_AT_ONCE, async (r): Promise<TaggedResource | undefined> => {
      const tags = await this.sagemakerTags(region, r.arn);
      return tags ? { service: 'sagemaker', kind, id: r.name, status: r.status, arn: r.arn, tags } : undefined;
    });
    return tagged.filter((r): r is TaggedResource => r !== undefined);
  }

  private async roles(query: TagQuery): Promise<TaggedResource[]> {
    const iam = this.clients.iam();
    const names: string[] = [];
    let Marker: string | undefined;
    do {
      const r = await awsCall('iam', 'ListRoles', () => iam.send(new ListRolesCommand({ Marker, MaxItems: 1000 })));
      for (const role of r.Roles ?? [])
        if (role.RoleName && (query.roleName?.(role.RoleName) ?? true)) names.push(role.RoleName);
      Marker = r.IsTruncated ? r.Marker : undefined;
    } while (Marker);
    const tagged = await mapLimited(names, READS_AT_ONCE, async (roleName): Promise<TaggedResource | undefined> => {
      try {
        const r = await awsCall('iam', 'ListRoleTags', () =>
          iam.send(new ListRoleTagsCommand({ RoleName: roleName, MaxItems: 50 })),
        );
        return { service: 'iam', kind: 'IAM role', id: roleName, tags: fromPairs(r.Tags) };
      } catch (err) {
        if (hasCode(err, 'NoSuchEntity', 'NoSuchEntityException')) return undefined;
        throw err;
      }
    });
    return tagged.filter((r): r is TaggedResource => r !== undefined);
  }

  private async oidcProviders(): Promise<TaggedResource[]> {
    const iam = this.clients.iam();
    const listed = await awsCall('iam', 'ListOpenIDConnectProviders', () =>
      iam.send(new ListOpenIDConnectProvidersCommand({})),
    );
    const arns = (listed.OpenIDConnectProviderList ?? []).map((p) => p.Arn!).filter(Boolean);
    const tagged = await mapLimited(arns, READS_AT_ONCE, async (arn): Promise<TaggedResource | undefined> => {
      try {
        const p = await awsCall('iam', 'GetOpenIDConnectProvider', () =>
          iam.send(new GetOpenIDConnectProviderCommand({ OpenIDConnectProviderArn: arn })),
        );
        return { service: 'iam', kind: 'IAM OIDC provider', id: arn, tags: fromPairs(p.Tags) };
      } catch (err) {
        if (hasCode(err, 'NoSuchEntity', 'NoSuchEntityException')) return undefined;
        throw err;
      }
    });
    return tagged.filter((r): r is TaggedResource => r !== undefined);
  }

  /**
   * DescribeTags answers every taggable EC2 resource at once. A NAT gateway stays listed (state
   * deleted) for about an hour after it is gone: that is not a resource, so their states are read.
   */
  private async ec2(region: string, query: TagQuery): Promise<TaggedResource[]> {
    const ec2 = this.clients.ec2(region);
    const rows: Array<{ id: string; type: string }> = [];
    let NextToken: string | undefined;
    do {
      const r = await awsCall('ec2', 'DescribeTags', () =>
        ec2.send(
          new DescribeTagsCommand({
            Filters: [
              { Name: 'key', Values: [query.key] },
              { Name: 'value', Values: [query.value] },
            ],
            NextToken,
            MaxResults: 1000,
          }),
        ),
      );
      for (const t of r.Tags ?? []) if (t.ResourceId) rows.push({ id: t.ResourceId, type: t.ResourceType ?? '' });
      NextToken = r.NextToken;
    } while (NextToken);
    const nats = rows.filter((r) => r.type === 'natgateway').map((r) => r.id);
    const natState = new Map<string, string>();
    if (nats.length) {
      const r = await awsCall('ec2', 'DescribeNatGateways', () =>
        ec2.send(new DescribeNatGatewaysCommand({ NatGatewayIds: nats })),
      );
      for (const n of r.NatGateways ?? []) natState.set(n.NatGatewayId!, n.State ?? '');
    }
    return rows
      .filter((r) => r.type !== 'natgateway' || (natState.has(r.id) && natState.get(r.id) !== 'deleted'))
      .map((r) => ({
        service: 'ec2',
        kind: EC2_KINDS[r.type] ?? r.type,
        id: r.id,
        ...(natState.get(r.id) ? { status: natState.get(r.id) } : {}),
        tags: { [query.key]: query.value },
      }));
  }

  private async eksClusters(region: string): Promise<TaggedResource[]> {
    const eks = this.clients.eks(region);
    const names: string[] = [];
    let nextToken: string | undefined;
    do {
      const r = await awsCall('eks', 'ListClusters', () =>
        eks.send(new ListClustersCommand({ nextToken, maxResults: 100 })),
      );
      names.push(...(r.clusters ?? []));
      nextToken = r.nextToken;
    } while (nextToken);
    const tagged = await mapLimited(names, READS_AT_ONCE, async (name): Promise<TaggedResource | undefined> => {
      try {
        const c = (await awsCall('eks', 'DescribeCluster', () => eks.send(new DescribeClusterCommand({ name }))))
          .cluster;
        return {
          service: 'eks',
          kind: 'EKS cluster',
          id: name,
          status: c?.status ?? 'Unknown',
          tags: fromMap(c?.tags),
        };
      } catch (err) {
        if (hasCode(err, 'ResourceNotFoundException')) return undefined;
        throw err;
      }
    });
    return tagged.filter((r): r is TaggedResource => r !== undefined);
  }

  private async fileSystems(region: string): Promise<TaggedResource[]> {
    const out: TaggedResource[] = [];
    let NextToken: string | undefined;
    do {
      const r = await awsCall('fsx', 'DescribeFileSystems', () =>
        this.clients.fsx(region).send(new DescribeFileSystemsCommand({ NextToken })),
      );
      for (const f of r.FileSystems ?? []) {
        out.push({
          service: 'fsx',
          kind: 'FSx file system',
          id: f.FileSystemId!,
          status: f.Lifecycle ?? 'Unknown',
          tags: fromPairs(f.Tags),
        });
      }
      NextToken = r.NextToken;
    } while (NextToken);
    return out;
  }
}
