import { z } from 'zod';
import { accepted, idempotencyKey } from '../../api/accepted.js';
import { ClusterRefSchema, RegionSchema } from '../../domain/schemas/common.js';
import { ModelDownloadListSchema, StartModelDownloadRequestSchema } from '../../domain/schemas/model-downloads.js';
import { AcceptedSchema } from '../../domain/schemas/operations.js';
import type { RouteContext } from '../capability.js';
import { MODEL_DOWNLOAD_PATHS } from './paths.js';
import type { ModelDownloadsService } from './service.js';

const ClusterParams = z.object({ name: ClusterRefSchema });
const RegionQuery = z.object({ region: RegionSchema.optional() }).strict();

export function registerModelDownloadRoutes({
  app,
  routes,
  service,
  region,
}: RouteContext<ModelDownloadsService>): void {
  routes.define(
    app,
    {
      method: 'GET',
      url: MODEL_DOWNLOAD_PATHS.list,
      operationId: 'listModelDownloads',
      tags: ['model-downloads'],
      summary:
        'Model downloads of a cluster: each with its status, progress (files and bytes landed in S3), its Job read live, and what landed',
      params: ClusterParams,
      query: RegionQuery,
      responses: {
        200: { description: "The cluster's model downloads, newest first", schema: ModelDownloadListSchema },
      },
    },
    async ({ params, query }) => service().list(region(query.region), params.name),
  );

  routes.define(
    app,
    {
      method: 'POST',
      url: MODEL_DOWNLOAD_PATHS.list,
      operationId: 'startModelDownload',
      tags: ['model-downloads'],
      summary: "Download a Hugging Face Hub model into one of the cluster's S3 storages (a Job running hf download)",
      description:
        'Checks the model on the Hugging Face Hub first (HF_ENDPOINT of the server, default https://huggingface.co): it must exist at the revision (422 naming modelId or revision), ' +
        'and a gated or private model needs a token whose account is granted access (422 naming token) — nothing is created otherwise. The storage must be an S3 storage of the cluster, Bound and writable (422 naming storage). ' +
        'A token is put in a Kubernetes Secret, referenced by the Job (secretKeyRef HF_TOKEN) and deleted when the download ends; it is never stored, logged or returned. ' +
        'Files land under <storage prefix>/models/<owner>/<name>/<revision>/ (or <storage prefix>/<prefix>/); the operation follows the Job to its end and its result lists what landed.',
      params: ClusterParams,
      body: StartModelDownloadRequestSchema,
      responses: { 202: { description: 'Operation accepted', schema: AcceptedSchema } },
    },
    async ({ params, body, request }) =>
      accepted(await service().start(region(body.region), params.name, body, idempotencyKey(request))),
  );
}
