import { isServing, type StoredTrackingServer } from './state.js';

/** Wire shapes (Dates, which the JSON protocol renders as epoch seconds). */

const MAINTENANCE = new Set(['MaintenanceInProgress', 'MaintenanceComplete', 'MaintenanceFailed']);

const userContext = (who: { arn: string; principalId: string }) => ({
  IamIdentity: { Arn: who.arn, PrincipalId: who.principalId },
});

export function renderTrackingServer(s: StoredTrackingServer) {
  return {
    TrackingServerArn: s.arn,
    TrackingServerName: s.name,
    ArtifactStoreUri: s.artifactStoreUri,
    TrackingServerSize: s.size,
    MlflowVersion: s.mlflowVersion,
    RoleArn: s.roleArn,
    TrackingServerStatus: s.status,
    ...(MAINTENANCE.has(s.status) ? { TrackingServerMaintenanceStatus: s.status } : {}),
    IsActive: isServing(s.status) ? 'Active' : 'Inactive',
    TrackingServerUrl: s.url,
    WeeklyMaintenanceWindowStart: s.weeklyMaintenanceWindowStart,
    AutomaticModelRegistration: s.automaticModelRegistration,
    CreationTime: new Date(s.createdAt),
    CreatedBy: userContext(s.createdBy),
    LastModifiedTime: new Date(s.lastModifiedAt),
    LastModifiedBy: userContext(s.lastModifiedBy),
    S3BucketOwnerAccountId: s.s3BucketOwnerAccountId,
    S3BucketOwnerVerification: s.s3BucketOwnerVerification,
  };
}

export function renderSummary(s: StoredTrackingServer) {
  return {
    TrackingServerArn: s.arn,
    TrackingServerName: s.name,
    CreationTime: new Date(s.createdAt),
    LastModifiedTime: new Date(s.lastModifiedAt),
    TrackingServerStatus: s.status,
    IsActive: isServing(s.status) ? 'Active' : 'Inactive',
    MlflowVersion: s.mlflowVersion,
  };
}
