import { createHash, randomBytes } from 'node:crypto';
import { keyed } from '../../../core/keyed.js';
import type { OperationHandler, RequestContext } from '../../../core/service.js';
import { validateInput } from '../../../core/validation.js';
import { bucketExists } from '../../s3/public.js';
import { checkRole } from '../checks.js';
import { conflict, inUse, notFound, validation } from '../errors.js';
import { page, sorted } from '../paging.js';
import { toMillis } from '../schemas.js';
import { SAGEMAKER_VALIDATION } from '../training-plans/schemas.js';
import { beginTransition } from './lifecycle.js';
import { renderSummary, renderTrackingServer } from './render.js';
import { createSchema, listSchema, nameOnlySchema, presignSchema, updateSchema } from './schemas.js';
import {
  emptyTrackingStore,
  findServer,
  isServing,
  mlflowRegion,
  serversIn,
  type StoredTrackingServer,
} from './state.js';

/**
 * SageMaker's managed MLflow tracking servers: create, describe, list, update, start, stop, delete
 * and the presigned UI URL. Every check comes first (shape, the S3 artifact store, the role SageMaker
 * assumes, the state the server is in), then the server moves through its statuses on the clock
 * (lifecycle.ts). A server's MLflow data (mlflow/tracking.ts) lives and dies with it.
 */

/** MLflow lines SageMaker runs: 2.13 and later 2.x, and 3.x. */
const SUPPORTED_VERSION = /^(2\.(1[3-9]|[2-9]\d)|3\.\d+)(\.\d+)*$/;
const DEFAULT_VERSION = '3.0';
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

const serverNotFound = (name: string) => notFound(`Tracking server with name '${name}' does not exist.`);

function lookup(ctx: RequestContext, name: string): StoredTrackingServer {
  const server = findServer(ctx.state, ctx.region, name);
  if (!server) throw serverNotFound(name);
  return server;
}

/** An `s3://bucket/prefix` artifact store in a bucket that exists. */
function checkArtifactStore(ctx: RequestContext, uri: string): void {
  const m = /^s3:\/\/([^/]+)\/?(.*)$/.exec(uri);
  if (!m) throw validation(`ArtifactStoreUri '${uri}' must be an Amazon S3 URI (s3://<bucket>/<prefix>).`);
  if (!bucketExists(ctx.state, m[1]!))
    throw validation(`The S3 bucket '${m[1]}' in ArtifactStoreUri does not exist or is not accessible.`);
}

/** `t-` and 12 letters or digits, as AWS names a server's host; stable for a name, ARN and creation time. */
function serverHostId(arn: string, now: number): string {
  const digest = createHash('sha256').update(`${arn}|${now}`).digest();
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return `t-${[...digest.subarray(0, 12)].map((b) => alphabet[b % alphabet.length]).join('')}`;
}

const who = (ctx: RequestContext) => ({ arn: ctx.principal.arn, principalId: ctx.principal.userId });

const createTrackingServer: OperationHandler = (input, ctx) => {
  const req = validateInput(createSchema, input, SAGEMAKER_VALIDATION);
  if (findServer(ctx.state, ctx.region, req.TrackingServerName)) {
    throw inUse(`Tracking server with name '${req.TrackingServerName}' already exists.`);
  }
  checkArtifactStore(ctx, req.ArtifactStoreUri);
  if (req.MlflowVersion !== undefined && !SUPPORTED_VERSION.test(req.MlflowVersion)) {
    throw validation(`MlflowVersion '${req.MlflowVersion}' is not supported. Use 2.13 or later, or 3.x.`);
  }
  checkRole(ctx.state, req.RoleArn, 'sagemaker.amazonaws.com', 'RoleArn');
  const now = ctx.now();
  const arn = `arn:aws:sagemaker:${ctx.region}:${ctx.accountId}:mlflow-tracking-server/${req.TrackingServerName}`;
  // Without a window AWS picks one; a stable pick per server keeps describes equal across restarts.
  const day = DAYS[createHash('sha256').update(arn).digest()[0]! % 7]!;
  const server: StoredTrackingServer = {
    name: req.TrackingServerName,
    arn,
    region: ctx.region,
    url: `https://${serverHostId(arn, now)}.${ctx.region}.experiments.sagemaker.aws`,
    artifactStoreUri: req.ArtifactStoreUri,
    size: req.TrackingServerSize ?? 'Small',
    mlflowVersion: req.MlflowVersion ?? DEFAULT_VERSION,
    roleArn: req.RoleArn,
    automaticModelRegistration: req.AutomaticModelRegistration ?? false,
    weeklyMaintenanceWindowStart: req.WeeklyMaintenanceWindowStart ?? `${day}:03:30`,
    s3BucketOwnerAccountId: req.S3BucketOwnerAccountId ?? ctx.accountId,
    s3BucketOwnerVerification: req.S3BucketOwnerVerification ?? true,
    status: 'Creating',
    createdAt: now,
    lastModifiedAt: now,
    createdBy: who(ctx),
    lastModifiedBy: who(ctx),
    tags: req.Tags ?? [],
    tracking: emptyTrackingStore(req.ArtifactStoreUri, now),
  };
  beginTransition(server, 'Creating', now);
  keyed.set(mlflowRegion(ctx.state, ctx.region).servers, server.name, server);
  return { TrackingServerArn: arn };
};

const describeTrackingServer: OperationHandler = (input, ctx) => {
  const req = validateInput(nameOnlySchema, input, SAGEMAKER_VALIDATION);
  return renderTrackingServer(lookup(ctx, req.TrackingServerName));
};

const listTrackingServers: OperationHandler = (input, ctx) => {
  const req = validateInput(listSchema, input, SAGEMAKER_VALIDATION);
  const after = toMillis(req.CreatedAfter);
  const before = toMillis(req.CreatedBefore);
  if ([after, before].some((t) => t !== undefined && Number.isNaN(t)))
    throw validation('CreatedAfter and CreatedBefore must be valid timestamps.');
  const matching = serversIn(ctx.state, ctx.region).filter(
    (s) =>
      (after === undefined || s.createdAt > after) &&
      (before === undefined || s.createdAt < before) &&
      (req.TrackingServerStatus === undefined || s.status === req.TrackingServerStatus) &&
      (req.MlflowVersion === undefined || s.mlflowVersion === req.MlflowVersion),
  );
  const by = req.SortBy ?? 'CreationTime';
  const key = (s: StoredTrackingServer) => (by === 'Name' ? s.name : by === 'Status' ? s.status : s.createdAt);
  // Newest first unless asked otherwise; names break ties so pages never shuffle.
  const ordered = sorted(
    sorted(matching, (s) => s.name, 'Ascending'),
    key,
    req.SortOrder ?? 'Descending',
  );
  const { items, NextToken } = page(ordered, req, 100);
  return { TrackingServerSummaries: items.map(renderSummary), ...(NextToken ? { NextToken } : {}) };
};

const updateTrackingServer: OperationHandler = (input, ctx) => {
  const req = validateInput(updateSchema, input, SAGEMAKER_VALIDATION);
  const server = lookup(ctx, req.TrackingServerName);
  if (!isServing(server.status))
    throw conflict(`Tracking server '${server.name}' is ${server.status}; it can be updated only when it is running.`);
  if (req.ArtifactStoreUri !== undefined) checkArtifactStore(ctx, req.ArtifactStoreUri);
  const now = ctx.now();
  if (req.ArtifactStoreUri !== undefined) server.artifactStoreUri = req.ArtifactStoreUri;
  if (req.TrackingServerSize !== undefined) server.size = req.TrackingServerSize;
  if (req.AutomaticModelRegistration !== undefined) server.automaticModelRegistration = req.AutomaticModelRegistration;
  if (req.WeeklyMaintenanceWindowStart !== undefined)
    server.weeklyMaintenanceWindowStart = req.WeeklyMaintenanceWindowStart;
  if (req.S3BucketOwnerAccountId !== undefined) server.s3BucketOwnerAccountId = req.S3BucketOwnerAccountId;
  if (req.S3BucketOwnerVerification !== undefined) server.s3BucketOwnerVerification = req.S3BucketOwnerVerification;
  server.lastModifiedAt = now;
  server.lastModifiedBy = who(ctx);
  beginTransition(server, 'Updating', now);
  return { TrackingServerArn: server.arn };
};

const startTrackingServer: OperationHandler = (input, ctx) => {
  const req = validateInput(nameOnlySchema, input, SAGEMAKER_VALIDATION);
  const server = lookup(ctx, req.TrackingServerName);
  if (server.status !== 'Stopped' && server.status !== 'StartFailed')
    throw conflict(`Tracking server '${server.name}' is ${server.status}; only a Stopped server can be started.`);
  server.lastModifiedBy = who(ctx);
  beginTransition(server, 'Starting', ctx.now());
  return { TrackingServerArn: server.arn };
};

const stopTrackingServer: OperationHandler = (input, ctx) => {
  const req = validateInput(nameOnlySchema, input, SAGEMAKER_VALIDATION);
  const server = lookup(ctx, req.TrackingServerName);
  if (!isServing(server.status) && server.status !== 'StopFailed')
    throw conflict(`Tracking server '${server.name}' is ${server.status}; only a running server can be stopped.`);
  server.lastModifiedBy = who(ctx);
  beginTransition(server, 'Stopping', ctx.now());
  return { TrackingServerArn: server.arn };
};

const deleteTrackingServer: OperationHandler = (input, ctx) => {
  const req = validateInput(nameOnlySchema, input, SAGEMAKER_VALIDATION);
  const server = lookup(ctx, req.TrackingServerName);
  // A repeated delete answers the same; the server is gone when the first one finishes.
  if (server.status !== 'Deleting') beginTransition(server, 'Deleting', ctx.now());
  return { TrackingServerArn: server.arn };
};

const createPresignedUrl: OperationHandler = (input, ctx) => {
  const req = validateInput(presignSchema, input, SAGEMAKER_VALIDATION);
  const server = lookup(ctx, req.TrackingServerName);
  return { AuthorizedUrl: `${server.url}/auth?authToken=${randomBytes(24).toString('base64url')}` };
};

export const mlflowOperations: Record<string, OperationHandler> = {
  CreateMlflowTrackingServer: createTrackingServer,
  DescribeMlflowTrackingServer: describeTrackingServer,
  ListMlflowTrackingServers: listTrackingServers,
  UpdateMlflowTrackingServer: updateTrackingServer,
  StartMlflowTrackingServer: startTrackingServer,
  StopMlflowTrackingServer: stopTrackingServer,
  DeleteMlflowTrackingServer: deleteTrackingServer,
  CreatePresignedMlflowTrackingServerUrl: createPresignedUrl,
};
