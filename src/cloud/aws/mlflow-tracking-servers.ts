import {
  CreateMlflowTrackingServerCommand,
  DeleteMlflowTrackingServerCommand,
  DescribeMlflowTrackingServerCommand,
  ListMlflowTrackingServersCommand,
  ListTagsCommand,
} from '@aws-sdk/client-sagemaker';
import type { MlflowTrackingServer, MlflowTrackingServerSpec, MlflowTrackingServerSummary } from '../ports.js';
import type { AwsClients } from './clients.js';
import { awsCall, hasCode } from './errors.js';

const NOT_FOUND = ['ResourceNotFound', 'ResourceNotFoundException'];

/** SageMaker's managed MLflow tracking servers (the control plane, through the SageMaker SDK). */
export class MlflowTrackingServers {
  constructor(private readonly clients: AwsClients) {}

  /** Every tracking server in the Region (all pages), newest first. */
  async list(region: string): Promise<MlflowTrackingServerSummary[]> {
    const out: MlflowTrackingServerSummary[] = [];
    let NextToken: string | undefined;
    do {
      const r = await awsCall('sagemaker', 'ListMlflowTrackingServers', () =>
        this.clients.sagemaker(region).send(
          new ListMlflowTrackingServersCommand({
            NextToken,
            MaxResults: 100,
            SortBy: 'CreationTime',
            SortOrder: 'Descending',
          }),
        ),
      );
      for (const s of r.TrackingServerSummaries ?? []) {
        out.push({
          arn: s.TrackingServerArn!,
          name: s.TrackingServerName!,
          status: s.TrackingServerStatus ?? 'Unknown',
          active: s.IsActive === 'Active',
          ...(s.MlflowVersion ? { mlflowVersion: s.MlflowVersion } : {}),
          ...(s.CreationTime ? { createdAt: s.CreationTime } : {}),
          ...(s.LastModifiedTime ? { lastModifiedAt: s.LastModifiedTime } : {}),
        });
      }
      NextToken = r.NextToken;
    } while (NextToken);
    return out;
  }

  async describe(region: string, name: string): Promise<MlflowTrackingServer | undefined> {
    try {
      const s = await awsCall('sagemaker', 'DescribeMlflowTrackingServer', () =>
        this.clients.sagemaker(region).send(new DescribeMlflowTrackingServerCommand({ TrackingServerName: name })),
      );
      return {
        arn: s.TrackingServerArn!,
        name: s.TrackingServerName ?? name,
        status: s.TrackingServerStatus ?? 'Unknown',
        active: s.IsActive === 'Active',
        ...(s.TrackingServerUrl ? { url: s.TrackingServerUrl } : {}),
        ...(s.ArtifactStoreUri ? { artifactStoreUri: s.ArtifactStoreUri } : {}),
        ...(s.TrackingServerSize ? { size: s.TrackingServerSize } : {}),
        ...(s.MlflowVersion ? { mlflowVersion: s.MlflowVersion } : {}),
        ...(s.RoleArn ? { roleArn: s.RoleArn } : {}),
        ...(s.AutomaticModelRegistration !== undefined
          ? { automaticModelRegistration: s.AutomaticModelRegistration }
          : {}),
        ...(s.WeeklyMaintenanceWindowStart ? { weeklyMaintenanceWindowStart: s.WeeklyMaintenanceWindowStart } : {}),
        ...(s.CreationTime ? { createdAt: s.CreationTime } : {}),
        ...(s.LastModifiedTime ? { lastModifiedAt: s.LastModifiedTime } : {}),
      };
    } catch (err) {
      if (hasCode(err, ...NOT_FOUND)) return undefined;
      throw err;
    }
  }

  async create(region: string, spec: MlflowTrackingServerSpec): Promise<string> {
    const r = await awsCall('sagemaker', 'CreateMlflowTrackingServer', () =>
      this.clients.sagemaker(region).send(
        new CreateMlflowTrackingServerCommand({
          TrackingServerName: spec.name,
          ArtifactStoreUri: spec.artifactStoreUri,
          RoleArn: spec.roleArn,
          TrackingServerSize: spec.size,
          MlflowVersion: spec.mlflowVersion,
          AutomaticModelRegistration: spec.automaticModelRegistration,
          WeeklyMaintenanceWindowStart: spec.weeklyMaintenanceWindowStart,
          Tags: spec.tags ? Object.entries(spec.tags).map(([Key, Value]) => ({ Key, Value })) : undefined,
        }),
      ),
    );
    return r.TrackingServerArn!;
  }

  /** Every tag of the server (all pages); undefined when it does not exist. */
  async tags(region: string, arn: string): Promise<Record<string, string> | undefined> {
    const tags: Record<string, string> = {};
    let NextToken: string | undefined;
    try {
      do {
        const r = await awsCall('sagemaker', 'ListTags', () =>
          this.clients.sagemaker(region).send(new ListTagsCommand({ ResourceArn: arn, NextToken, MaxResults: 50 })),
        );
        for (const t of r.Tags ?? []) if (t.Key !== undefined) tags[t.Key] = t.Value ?? '';
        NextToken = r.NextToken;
      } while (NextToken);
    } catch (err) {
      if (hasCode(err, ...NOT_FOUND, 'ValidationException')) return undefined;
      throw err;
    }
    return tags;
  }

  async delete(region: string, name: string): Promise<void> {
    try {
      await awsCall('sagemaker', 'DeleteMlflowTrackingServer', () =>
        this.clients.sagemaker(region).send(new DeleteMlflowTrackingServerCommand({ TrackingServerName: name })),
      );
    } catch (err) {
      if (!hasCode(err, ...NOT_FOUND)) throw err;
    }
  }
}
