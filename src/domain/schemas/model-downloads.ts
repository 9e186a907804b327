import { z } from 'zod';
import { ClusterRefSchema, RegionSchema } from './common.js';

// operations.ts lists the operation kinds, whose input schemas are here: importing it back would be a cycle.
const OperationStatusSchema = z
  .string()
  .describe("The operation's status: pending, running, cancelling, succeeded, failed or cancelled.");
const OperationErrorSchema = z.object({ phase: z.string().optional(), code: z.string(), message: z.string() });

/**
 * Model downloads: a Hugging Face Hub model, at a revision, copied into one of the cluster's
 * storages by a Kubernetes Job running `hf download` (docs/MODEL-DOWNLOADS.md). Validation lives
 * here once: REST, OpenAPI, the MCP tools and the UI derive from these schemas. No message here
 * ever repeats what was sent (a token must not come back in an error).
 */

const REPO_PART = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,94}[A-Za-z0-9])?$/;

/** The Hub's repository id rules: `owner/name`, each 1–96 of letters, digits, `-`, `_`, `.`, not starting or ending with `-`/`.`, no `--` or `..`. */
export const ModelIdSchema = z
  .string('must be a model id')
  .max(193, 'must be at most 193 characters (owner/name, each at most 96)')
  .refine((id) => id.split('/').length === 2, 'must be owner/name, e.g. Qwen/Qwen2.5-0.5B-Instruct')
  .refine(
    (id) => id.split('/').every((part) => REPO_PART.test(part)),
    'must be owner/name where each part is 1–96 letters, digits, -, _ or ., starting and ending with a letter or digit',
  )
  .refine(
    (id) => !id.includes('--') && !id.includes('..'),
    'must not contain -- or .. (the Hub forbids them in repository names)',
  )
  .describe('Hugging Face Hub model id, owner/name, e.g. Qwen/Qwen2.5-0.5B-Instruct.');

/** A branch, tag or commit: git ref characters the Hub uses, no `..`, no leading or trailing `/`. */
export const RevisionSchema = z
  .string('must be a revision')
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._\-/]*$/,
    'must be a branch, tag or commit: letters, digits, ., _, - and /, starting with a letter or digit',
  )
  .refine(
    (r) => !r.includes('..') && !r.endsWith('/') && !r.includes('//') && !r.endsWith('.lock'),
    'must be a valid git ref (no .., no empty segment, no trailing / or .lock)',
  )
  .describe('Branch, tag or 40-hex commit of the model (default main).');

/** The storage to write into: the name of its PersistentVolumeClaim in the namespace `default` (as the storage list names it). */
export const DownloadStorageSchema = z
  .string('must be a storage name')
  .min(1, 'must not be empty')
  .max(63, 'must be at most 63 characters (a Kubernetes name)')
  .regex(
    /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/,
    "must be a storage name as the cluster's storage list shows it (lower-case letters, digits and hyphens)",
  )
  .describe('The S3 storage to write into (list_storage). Its PersistentVolumeClaim is in namespace default.');

/** A path inside the storage: relative, `/`-separated segments of safe characters, no `.`/`..`. */
export const DownloadPrefixSchema = z
  .string('must be a path inside the storage')
  .min(1, 'must not be empty (leave it out for the default path)')
  .max(512, 'must be at most 512 characters')
  .refine((p) => !p.startsWith('/'), 'must be relative to the storage: write models/llama, not /models/llama')
  .refine((p) => /^[A-Za-z0-9._\-/]+$/.test(p), 'must use letters, digits, ., _, - and / only')
  .refine(
    (p) =>
      p
        .replace(/\/+$/, '')
        .split('/')
        .every((s) => s !== '' && s !== '.' && s !== '..'),
    'must not contain empty, . or .. path segments',
  )
  .transform((p) => p.replace(/\/+$/, ''))
  .describe('Where the files go inside the storage, e.g. models/my-llama. Default: models/<owner>/<name>/<revision>.');

/** A Hub access token: shape only (the Hub decides whether it is good); never echoed back. */
export const HubTokenSchema = z
  .string('must be a Hugging Face access token')
  .min(8, 'must be a Hugging Face access token (hf_…)')
  .max(512, 'must be at most 512 characters')
  .regex(/^[\x21-\x7e]+$/, 'must be a Hugging Face access token: visible ASCII characters, no spaces')
  .describe(
    'Hugging Face access token (hf_…) for gated or private models. Kept only in a Kubernetes Secret that the download Job reads and that is deleted when the download ends; never stored by InstantStart, logged or returned.',
  );

export const StartModelDownloadRequestSchema = z
  .object({
    region: RegionSchema.optional().describe("AWS Region of the cluster; defaults to the server's region."),
    modelId: ModelIdSchema,
    revision: RevisionSchema.optional(),
    storage: DownloadStorageSchema,
    prefix: DownloadPrefixSchema.optional(),
    token: HubTokenSchema.optional(),
  })
  .strict()
  .describe(
    "Download a Hugging Face Hub model into one of the cluster's S3 storages. The model is checked on the Hub first (exists, revision, size, gate); then a Job runs `hf download` into the storage.",
  );
export type StartModelDownloadRequest = z.output<typeof StartModelDownloadRequestSchema>;

/**
 * The model-download operation's input: what the request resolved to before anything was created.
 * It names the Secret holding the token (when one was given), never the token.
 */
export const ModelDownloadInputSchema = z.object({
  cluster: ClusterRefSchema,
  region: RegionSchema,
  modelId: ModelIdSchema,
  revision: RevisionSchema.describe('The revision as asked (main when none was).'),
  commit: z
    .string()
    .regex(/^[0-9a-f]{40}$/)
    .describe(
      'The commit the revision resolved to on the Hub when the download was checked; the Job downloads exactly it.',
    ),
  storage: DownloadStorageSchema,
  namespace: z.string().describe("Namespace of the storage's claim, where the Job and the Secret run."),
  claimName: z.string(),
  bucket: z.string().describe("The storage's S3 bucket."),
  bucketRegion: RegionSchema.optional().describe(
    "The bucket's Region (the volume's `region` mount option), when it is not the cluster's.",
  ),
  path: z
    .string()
    .describe('Where the files go inside the storage (models/<owner>/<name>/<revision> unless a prefix was given).'),
  keyPrefix: z
    .string()
    .describe("The S3 key prefix the files land under: the storage's own prefix, then path, then /."),
  jobName: z.string(),
  tokenSecret: z
    .string()
    .optional()
    .describe('Name of the Kubernetes Secret holding the token (key HF_TOKEN), when a token was given.'),
  image: z.string().describe('The downloader image (INSTANTSTART_MODEL_DOWNLOAD_IMAGE).'),
  hubEndpoint: z
    .string()
    .optional()
    .describe('HF_ENDPOINT for the Job, when the server uses another Hub than https://huggingface.co.'),
  expectedFiles: z.number().int().min(0),
  expectedBytes: z.number().int().min(0),
});
export type ModelDownloadInput = z.output<typeof ModelDownloadInputSchema>;

export const LandedFileSchema = z.object({
  path: z.string().describe("Path below the download's folder, e.g. model.safetensors."),
  size: z.number().int().describe('Bytes, as S3 lists them.'),
});
export type LandedFile = z.infer<typeof LandedFileSchema>;

export const DownloadProgressSchema = z
  .object({
    files: z.number().int().describe('Model files that have landed in the storage so far.'),
    totalFiles: z.number().int().describe('Files of the model at that revision (from the Hub).'),
    bytes: z.number().int().describe('Bytes landed so far.'),
    totalBytes: z.number().int().describe('Bytes of the model at that revision (from the Hub).'),
  })
  .describe("What has landed in the storage (ListObjectsV2 of the download's folder), against what the Hub lists.");
export type DownloadProgress = z.infer<typeof DownloadProgressSchema>;

export const ModelDownloadJobSchema = z
  .object({
    name: z.string(),
    namespace: z.string(),
    state: z
      .enum(['Pending', 'Running', 'Succeeded', 'Failed', 'Gone'])
      .describe('Read live from Kubernetes; Gone once the Job was deleted (finished Jobs expire after a day).'),
    message: z.string().optional().describe('Why, when Kubernetes says (e.g. BackoffLimitExceeded).'),
  })
  .describe('The Kubernetes Job doing the download, as Kubernetes reports it now.');

export const ModelDownloadViewSchema = z
  .object({
    operationId: z.string(),
    status: OperationStatusSchema,
    modelId: z.string(),
    revision: z.string(),
    commit: z.string(),
    storage: z.string(),
    path: z.string(),
    destination: z.string().describe('s3://bucket/prefix/ the files land under.'),
    createdAt: z.string(),
    finishedAt: z.string().optional(),
    progress: DownloadProgressSchema.optional().describe(
      'What has landed: from the result once succeeded, read live from S3 while unfinished; absent for a failed or cancelled download (what it left is in the storage).',
    ),
    job: ModelDownloadJobSchema.optional().describe("Absent when the cluster's Kubernetes API could not be read."),
    files: z.array(LandedFileSchema).optional().describe('What landed (succeeded downloads).'),
    error: OperationErrorSchema.optional(),
  })
  .describe('One model download: the operation, its Job read live, and what has landed.');
export type ModelDownloadView = z.infer<typeof ModelDownloadViewSchema>;

export const ModelDownloadListSchema = z.object({
  cluster: z.string(),
  region: z.string(),
  downloads: z
    .array(ModelDownloadViewSchema)
    .describe('Newest first (the 200 newest model-download operations of the server).'),
});
export type ModelDownloadList = z.infer<typeof ModelDownloadListSchema>;

/** The operation's result: what landed. */
export const ModelDownloadResultSchema = z.object({
  modelId: z.string(),
  revision: z.string(),
  commit: z.string(),
  storage: z.string(),
  destination: z.string(),
  files: z.array(LandedFileSchema),
  totalFiles: z.number().int(),
  totalBytes: z.number().int(),
});
