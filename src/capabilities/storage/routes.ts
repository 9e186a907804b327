import { z } from 'zod';
import { accepted, idempotencyKey } from '../../api/accepted.js';
import { ClusterRefSchema, RegionSchema } from '../../domain/schemas/common.js';
import { AcceptedSchema } from '../../domain/schemas/operations.js';
import {
  AddStorageRequestSchema,
  BrowseStorageAnswerSchema,
  BrowseStorageQuerySchema,
  ForgetKeptStorageAnswerSchema,
  ForgetKeptStorageQuerySchema,
  RemoveStorageQuerySchema,
  StorageListSchema,
  StorageNameSchema,
} from '../../domain/schemas/storage.js';
import type { RouteContext } from '../capability.js';
import { STORAGE_PATHS } from './paths.js';
import type { StorageService } from './service.js';

const ClusterParams = z.object({ name: ClusterRefSchema });
const StorageParams = z.object({ name: ClusterRefSchema, storage: StorageNameSchema });
const RegionQuery = z.object({ region: RegionSchema.optional() }).strict();

export function registerStorageRoutes({ app, routes, service, region }: RouteContext<StorageService>): void {
  routes.define(
    app,
    {
      method: 'GET',
      url: STORAGE_PATHS.list,
      operationId: 'listStorage',
      tags: ['storage'],
      summary:
        "The cluster's storages (S3 via Mountpoint, FSx for Lustre), read live from Kubernetes: data location, access, claim phase and the pods that mount each",
      description:
        'Every PersistentVolume of the s3.csi.aws.com or fsx.csi.aws.com driver with its claim, including those create-cluster made. Also says whether each CSI driver feature is on.',
      params: ClusterParams,
      query: RegionQuery,
      responses: { 200: { description: 'Storages of the cluster', schema: StorageListSchema } },
    },
    async ({ params, query }) => service().list(region(query.region), params.name),
  );

  routes.define(
    app,
    {
      method: 'POST',
      url: STORAGE_PATHS.list,
      operationId: 'addStorage',
      tags: ['storage'],
      summary:
        'Add storage: an S3 bucket (new or existing, one prefix of it, read-only or read-write) or an FSx for Lustre file system (new or existing)',
      description:
        "Refused before any change (4xx naming the field) when the kind's CSI driver feature is off (s3-csi-driver, fsx-csi-driver), an existing bucket is missing or unreachable, a new bucket's name is taken, " +
        "or an existing file system is not an AVAILABLE Lustre file system in the cluster's VPC. The operation makes the bucket or file system when asked, lets the S3 CSI driver's role reach the bucket " +
        '(one inline policy per storage), then applies the PersistentVolume and its claim and waits until the claim is Bound.',
      params: ClusterParams,
      body: AddStorageRequestSchema,
      responses: { 202: { description: 'Operation accepted', schema: AcceptedSchema } },
    },
    async ({ params, body, request }) =>
      accepted(await service().add(region(body.region), params.name, body, idempotencyKey(request))),
  );

  routes.define(
    app,
    {
      method: 'DELETE',
      url: STORAGE_PATHS.one,
      operationId: 'removeStorage',
      tags: ['storage'],
      summary:
        'Remove a storage: its claim and volume; the bucket or file system is kept unless deleteData=true with confirm naming it',
      description:
        "Refused (422 naming force) while running pods mount the storage, unless force=true. deleteData=true deletes the bucket (or, for a storage of one prefix, the objects under it) or the file system; confirm must name it exactly as the list's dataName.",
      params: StorageParams,
      query: RemoveStorageQuerySchema,
      responses: { 202: { description: 'Operation accepted', schema: AcceptedSchema } },
    },
    async ({ params, query, request }) =>
      accepted(
        await service().remove(region(query.region), params.name, params.storage, query, idempotencyKey(request)),
      ),
  );

  routes.define(
    app,
    {
      method: 'DELETE',
      url: STORAGE_PATHS.kept,
      operationId: 'forgetKeptStorage',
      tags: ['storage'],
      summary:
        "Forget a kept storage (one removed keeping its data): it is no longer listed, nor kept by the cluster's delete",
      description:
        "Data InstantStart made for this storage is released: its InstantStart tags are removed, it stays in the account as the user's own, and no cluster delete touches it. " +
        "Data that is the cluster's own (its shared bucket, or another storage's) goes with the cluster from now on. Data InstantStart did not make is left alone. 404 when no such kept storage.",
      params: StorageParams,
      query: ForgetKeptStorageQuerySchema,
      responses: { 200: { description: 'Forgotten', schema: ForgetKeptStorageAnswerSchema } },
    },
    async ({ params, query }) =>
      service().forgetKept(region(query.region), params.name, params.storage, query.namespace),
  );

  routes.define(
    app,
    {
      method: 'GET',
      url: STORAGE_PATHS.objects,
      operationId: 'browseStorage',
      tags: ['storage'],
      summary: "One page of a storage's contents: folders (common prefixes) and objects with sizes and dates",
      description:
        'ListObjectsV2 under the storage\'s bucket and prefix with delimiter "/"; page with nextToken. FSx for Lustre cannot be browsed through AWS APIs: the answer says so (browsable: false).',
      params: StorageParams,
      query: BrowseStorageQuerySchema,
      responses: { 200: { description: "A page of the storage's contents", schema: BrowseStorageAnswerSchema } },
    },
    async ({ params, query }) => service().browse(region(query.region), params.name, params.storage, query),
  );
}
