import { z } from 'zod';
import { ClusterRefSchema, RegionSchema } from './common.js';

/**
 * Storage of a cluster: S3 buckets mounted through the Mountpoint for Amazon S3 CSI driver and FSx for
 * Lustre file systems mounted through the FSx CSI driver, each a statically provisioned
 * PersistentVolume and the claim bound to it. A storage is named by its claim (namespace + name):
 * that is what pods mount and what other capabilities (model downloads) write into.
 * Validation lives here once: REST, OpenAPI, the MCP tools and the UI derive from these schemas.
 */

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** The claim's name; the volume's name derives from it, so it is a DNS label (63), not a subdomain. */
export const StorageNameSchema = z
  .string('must be a name')
  .min(1, 'must not be empty')
  .max(63, 'must be at most 63 characters (a Kubernetes name)')
  .regex(
    DNS_LABEL,
    'must be a Kubernetes name: lower-case letters, digits and hyphens, starting and ending with a letter or digit',
  )
  .describe('Storage name: the claim pods mount. Lower-case letters, digits, hyphens; up to 63.');

export const StorageNamespaceSchema = z
  .string('must be a namespace name')
  .min(1, 'must not be empty')
  .max(63, 'must be at most 63 characters (a Kubernetes namespace name)')
  .regex(DNS_LABEL, 'must be a Kubernetes namespace name: lower-case letters, digits and hyphens')
  .describe("The claim's namespace. Pods in it can mount the storage.");

/** S3's bucket naming rules for general purpose buckets (S3 User Guide → Bucket naming rules). */
export const BucketNameSchema = z
  .string('must be a bucket name')
  .min(3, 'must be at least 3 characters (an S3 bucket name)')
  .max(63, 'must be at most 63 characters (an S3 bucket name)')
  .regex(
    /^[a-z0-9][a-z0-9.-]*[a-z0-9]$/,
    'must be an S3 bucket name: lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit',
  )
  .refine((b) => !b.includes('..'), 'must not contain two dots in a row (S3 bucket naming rules)')
  .refine((b) => !/^\d+\.\d+\.\d+\.\d+$/.test(b), 'must not look like an IP address (S3 bucket naming rules)')
  .refine(
    (b) => !/^(xn--|sthree-|amzn-s3-demo-)/.test(b),
    'must not start with xn--, sthree- or amzn-s3-demo- (reserved by S3)',
  )
  .refine(
    (b) => !/(-s3alias|--ol-s3|\.mrap|--x-s3|--table-s3)$/.test(b),
    'must not end with -s3alias, --ol-s3, .mrap, --x-s3 or --table-s3 (reserved by S3)',
  )
  .describe('S3 bucket name (3–63 lower-case letters, digits, dots, hyphens).');

/**
 * A key prefix inside a bucket, as Mountpoint's `prefix` option wants it: no leading `/`, ending in
 * `/` (added when missing), no empty, `.` or `..` segments. The empty prefix is the whole bucket.
 */
export const PrefixSchema = z
  .string('must be a key prefix')
  .max(512, 'must be at most 512 characters')
  .refine(
    (p) => !p.startsWith('/'),
    'must not start with / (S3 keys have no leading slash): write models/llama, not /models/llama',
  )
  .refine(
    (p) =>
      !p
        .split('/')
        .slice(0, -1)
        .some((s) => s === '' || s === '.' || s === '..') &&
      p.split('/').at(-1) !== '.' &&
      p.split('/').at(-1) !== '..',
    'must not contain empty, . or .. path segments',
  )
  .refine((p) => !/[\u0000-\u001f\u007f]/.test(p), 'must not contain control characters')
  .transform((p) => (p === '' || p.endsWith('/') ? p : `${p}/`))
  .describe(
    "Key prefix the storage shows, e.g. models/. Mountpoint's prefix option; a trailing / is added; empty or absent = the whole bucket.",
  );

export const FileSystemIdSchema = z
  .string('must be a file system id')
  .regex(/^fs-[0-9a-f]{8,21}$/, 'must be an FSx file system id such as fs-0123456789abcdef0')
  .describe('FSx for Lustre file system id (fs-…).');

/** FSx for Lustre SSD sizes (PERSISTENT_2): 1200 GiB or multiples of 2400. */
export const LustreCapacityGiBSchema = z
  .number('must be a number of GiB')
  .int('must be a whole number of GiB')
  .min(1200, 'must be at least 1200 GiB')
  .max(100800, 'must be at most 100800 GiB')
  .refine((n) => n === 1200 || n % 2400 === 0, 'must be 1200 GiB or a multiple of 2400 GiB (FSx for Lustre SSD sizes)')
  .describe('FSx for Lustre capacity in GiB: 1200, 2400, 4800, … (1200 or multiples of 2400).');

export const StorageKindSchema = z
  .enum(['s3', 'fsx'], 'must be s3 or fsx')
  .describe('s3: a bucket (Mountpoint CSI driver); fsx: FSx for Lustre (FSx CSI driver).');
export type StorageKind = z.infer<typeof StorageKindSchema>;

const S3_ONLY = ['bucket', 'createBucket', 'prefix', 'readOnly'] as const;
const FSX_ONLY = ['fileSystemId', 'createFileSystem', 'storageCapacityGiB'] as const;

export const AddStorageRequestSchema = z
  .object({
    region: RegionSchema.optional().describe("AWS Region of the cluster; defaults to the server's region."),
    kind: StorageKindSchema,
    name: StorageNameSchema,
    namespace: StorageNamespaceSchema.default('default'),
    bucket: BucketNameSchema.optional().describe(
      's3: the bucket to mount. Without createBucket it must exist and be reachable; with createBucket it names the new bucket (absent: a name is derived from the cluster and storage name).',
    ),
    createBucket: z
      .boolean('must be true or false')
      .default(false)
      .describe("s3: true makes a new bucket. It is tagged as this cluster's; false (default) mounts an existing one."),
    prefix: PrefixSchema.optional(),
    readOnly: z
      .boolean('must be true or false')
      .default(false)
      .describe('s3: true mounts read-only. False (default): read-write with deletes allowed (allow-delete).'),
    fileSystemId: FileSystemIdSchema.optional().describe(
      "fsx: an existing file system to mount. AVAILABLE, in the cluster's VPC.",
    ),
    createFileSystem: z
      .boolean('must be true or false')
      .default(false)
      .describe(
        "fsx: true makes a new file system (about 10 minutes). It is made in the cluster's subnet and security group.",
      ),
    storageCapacityGiB: LustreCapacityGiBSchema.optional().describe(
      'fsx with createFileSystem: GiB, 1200 or multiples of 2400.',
    ),
  })
  .strict()
  .superRefine((r, ctx) => {
    const sent = (k: string) =>
      (r as Record<string, unknown>)[k] !== undefined && (r as Record<string, unknown>)[k] !== false;
    const wrong = r.kind === 's3' ? FSX_ONLY : S3_ONLY;
    for (const k of wrong)
      if (sent(k))
        ctx.addIssue({ code: 'custom', path: [k], message: `only goes with kind ${r.kind === 's3' ? 'fsx' : 's3'}` });
    if (r.kind === 's3' && !r.createBucket && !r.bucket)
      ctx.addIssue({
        code: 'custom',
        path: ['bucket'],
        message: 'is required: name the existing bucket to mount, or set createBucket: true for a new one',
      });
    if (r.kind === 'fsx' && !r.createFileSystem && !r.fileSystemId)
      ctx.addIssue({
        code: 'custom',
        path: ['fileSystemId'],
        message: 'is required: name the existing file system to mount, or set createFileSystem: true for a new one',
      });
    if (r.kind === 'fsx' && r.createFileSystem && r.fileSystemId)
      ctx.addIssue({
        code: 'custom',
        path: ['fileSystemId'],
        message: 'does not go with createFileSystem: true (a new file system gets its own id)',
      });
    if (r.kind === 'fsx' && !r.createFileSystem && r.storageCapacityGiB !== undefined)
      ctx.addIssue({ code: 'custom', path: ['storageCapacityGiB'], message: 'only goes with createFileSystem: true' });
  })
  .describe(
    'Add storage to a cluster: an S3 bucket (new or existing, optionally one prefix of it, read-only or read-write) or an FSx for Lustre file system (new or existing), as a PersistentVolume and its claim.',
  );
export type AddStorageRequest = z.output<typeof AddStorageRequestSchema>;

/** The add-storage operation's input: the request with the cluster, its Region and the bucket name resolved. */
export const AddStorageInputSchema = AddStorageRequestSchema.safeExtend({
  cluster: ClusterRefSchema,
  region: RegionSchema,
  /** s3: the bucket's own Region (HeadBucket), for Mountpoint's region option. */
  bucketRegion: RegionSchema.optional(),
  /** fsx with createFileSystem: where the file system goes (the cluster's subnet and security group, from DescribeCluster). */
  subnetId: z.string().optional(),
  securityGroupId: z.string().optional(),
});
export type AddStorageInput = z.output<typeof AddStorageInputSchema>;

const TRUE_FALSE = z.enum(['true', 'false'], 'must be true or false');

export const RemoveStorageQuerySchema = z
  .object({
    region: RegionSchema.optional(),
    namespace: StorageNamespaceSchema.default('default'),
    force: TRUE_FALSE.default('false').describe(
      '"true" removes the storage even while running pods mount it (they lose it; Kubernetes keeps the claim until they end).',
    ),
    deleteData: TRUE_FALSE.default('false').describe(
      '"true" also deletes the data: the bucket (or, for a storage of one prefix, the objects under it) or the FSx file system. Needs confirm.',
    ),
    confirm: z
      .string()
      .max(600)
      .optional()
      .describe(
        'With deleteData: the name of what is deleted, exactly as the storage list shows it (bucket, bucket/prefix/ or fs-… id).',
      ),
  })
  .strict();
export type RemoveStorageQuery = z.output<typeof RemoveStorageQuerySchema>;

/** What a storage's data is, resolved when the removal is asked (the volume that names it is gone after). */
export const StorageDataSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('s3'),
    bucket: z.string(),
    prefix: z.string(),
    region: z.string().optional().describe("The bucket's Region, when the volume names it."),
  }),
  z.object({ kind: z.literal('fsx'), fileSystemId: z.string() }),
]);
export type StorageData = z.infer<typeof StorageDataSchema>;

/** A storage removed "keeping the data", as the server's store keeps it (src/store/kept-storage-store.ts). */
export interface KeptStorageRecord {
  region: string;
  cluster: string;
  namespace: string;
  name: string;
  data: StorageData;
  /** Whether InstantStart made the data (it carries the cluster's tag): a delete would remove it but for this record. */
  ours: boolean;
  keptAt: string;
}

export const RemoveStorageInputSchema = z
  .object({
    cluster: ClusterRefSchema,
    region: RegionSchema,
    name: StorageNameSchema,
    namespace: StorageNamespaceSchema,
    volumeName: z.string().optional().describe('The PersistentVolume found when the removal was asked.'),
    data: StorageDataSchema,
    force: z.boolean(),
    deleteData: z.boolean(),
  })
  .strict();
export type RemoveStorageInput = z.output<typeof RemoveStorageInputSchema>;

export const BrowseStorageQuerySchema = z
  .object({
    region: RegionSchema.optional(),
    namespace: StorageNamespaceSchema.default('default'),
    path: PrefixSchema.optional().describe(
      "Folder to list, e.g. llama/. Relative to the storage's prefix; absent = its top.",
    ),
    pageToken: z.string().max(2048).optional().describe('nextToken of the previous page.'),
    limit: z.coerce
      .number('must be a number')
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(1000, 'must be at most 1000')
      .default(200)
      .describe('Entries (folders and objects) per page, 1–1000.'),
  })
  .strict();
export type BrowseStorageQuery = z.output<typeof BrowseStorageQuerySchema>;

// ── answers ─────────────────────────────────────────────────────────────────────────────────────

export const StorageMountSchema = z.object({
  namespace: z.string(),
  pod: z.string(),
  node: z.string().optional().describe('The node the pod runs on (absent while it is not scheduled).'),
  phase: z.string().describe("The pod's phase (Pending, Running)."),
});

export const StorageViewSchema = z
  .object({
    name: z.string().describe("The claim's name: what pods mount and what other tools name the storage by."),
    namespace: z.string(),
    kind: StorageKindSchema,
    bucket: z.string().optional().describe('s3: the bucket.'),
    prefix: z
      .string()
      .optional()
      .describe('s3: the key prefix the storage shows (Mountpoint prefix option); empty = the whole bucket.'),
    bucketRegion: z
      .string()
      .optional()
      .describe("s3: the bucket's Region (Mountpoint region option), when the volume names it."),
    fileSystemId: z.string().optional().describe('fsx: the file system id.'),
    dnsName: z.string().optional(),
    mountName: z.string().optional(),
    access: z.enum(['read-only', 'read-write']),
    claimPhase: z
      .string()
      .describe(
        "The PersistentVolumeClaim's phase as Kubernetes reports it: Bound (pods can mount it), Pending, Lost; Missing when the volume has no claim.",
      ),
    volumeName: z.string(),
    volumePhase: z.string().describe("The PersistentVolume's phase (Available, Bound, Released, Failed)."),
    capacity: z.string().optional(),
    mounts: z.array(StorageMountSchema).describe('Pods (not finished) that mount the claim.'),
    managed: z
      .boolean()
      .describe('Whether InstantStart made the volume (labelled app.kubernetes.io/managed-by=instantstart).'),
    dataName: z
      .string()
      .describe("How to name the data for deleteData's confirm: the bucket, bucket/prefix/, or the file system id."),
  })
  .describe(
    'One storage of a cluster: a statically provisioned PersistentVolume of the S3 or FSx CSI driver and its claim, read live from Kubernetes.',
  );
export type StorageView = z.infer<typeof StorageViewSchema>;

export const KeptStorageViewSchema = z
  .object({
    name: z.string(),
    namespace: z.string(),
    kind: StorageKindSchema,
    state: z.literal('kept, not mounted'),
    bucket: z.string().optional(),
    prefix: z.string().optional(),
    fileSystemId: z.string().optional(),
    dataName: z.string().describe('The data kept: the bucket, bucket/prefix/, or the file system id.'),
    madeByInstantStart: z
      .boolean()
      .describe(
        "Whether InstantStart made the data (it carries the cluster's tag, and the kept-storage tag naming this storage).",
      ),
    keptAt: z.string().describe('When it was removed keeping its data (RFC 3339).'),
  })
  .describe(
    "A storage removed keeping its data: no longer mounted, its data kept — also by the cluster's delete — until it is forgotten.",
  );
export type KeptStorageView = z.infer<typeof KeptStorageViewSchema>;

export const ForgetKeptStorageQuerySchema = z
  .object({ region: RegionSchema.optional(), namespace: StorageNamespaceSchema.default('default') })
  .strict();

export const ForgetKeptStorageAnswerSchema = z
  .object({
    name: z.string(),
    namespace: z.string(),
    dataName: z.string(),
    released: z
      .boolean()
      .describe(
        "True: InstantStart made the data for this storage and has removed its tags — it stays in the account, no longer InstantStart's, and no cluster delete touches it. False: see goesWithCluster.",
      ),
    goesWithCluster: z
      .boolean()
      .describe(
        "True: the data is the cluster's own (its shared bucket, or another storage's): the cluster's delete now deletes it unless it keeps storage.",
      ),
    message: z.string(),
  })
  .describe('A kept storage forgotten: no longer listed, its data no longer kept on its account.');
export type ForgetKeptStorageAnswer = z.infer<typeof ForgetKeptStorageAnswerSchema>;

export const StorageListSchema = z.object({
  cluster: z.string(),
  region: z.string(),
  storages: z.array(StorageViewSchema),
  kept: z
    .array(KeptStorageViewSchema)
    .describe(
      'Storages removed keeping their data: not mounted; their data stays, also when the cluster is deleted, until forgotten (forget_kept_storage).',
    ),
  drivers: z
    .object({ 's3-csi-driver': z.boolean(), 'fsx-csi-driver': z.boolean() })
    .describe(
      'Whether each CSI driver feature is on (its EKS add-on installed): adding storage of a kind needs its driver.',
    ),
  activeOperations: z
    .array(z.object({ id: z.string(), kind: z.string(), status: z.string(), target: z.string() }))
    .describe('Storage operations running on the cluster now.'),
});
export type StorageList = z.infer<typeof StorageListSchema>;

export const StorageObjectSchema = z.object({
  name: z.string().describe("The object's name inside the listed folder."),
  key: z.string().describe('The full S3 key.'),
  size: z.number().int().describe('Bytes.'),
  lastModified: z.string().optional().describe('RFC 3339.'),
});

export const StorageFolderSchema = z.object({
  name: z.string().describe("The folder's name, ending in /."),
  path: z.string().describe('Its path inside the storage: pass it as path to list it.'),
});

export const BrowseStorageAnswerSchema = z
  .object({
    name: z.string(),
    namespace: z.string(),
    kind: StorageKindSchema,
    browsable: z
      .boolean()
      .describe('false for FSx for Lustre: its files are not readable through AWS APIs (see message).'),
    message: z.string().optional(),
    bucket: z.string().optional(),
    prefix: z.string().optional().describe("The S3 key prefix listed (the storage's prefix + path)."),
    path: z.string().describe('The folder listed, relative to the storage.'),
    folders: z.array(StorageFolderSchema),
    objects: z.array(StorageObjectSchema),
    nextToken: z.string().optional().describe('Present when there is more: pass it as pageToken.'),
  })
  .describe("One page of a storage's contents: folders (common prefixes) and objects, with sizes and dates.");
export type BrowseStorageAnswer = z.infer<typeof BrowseStorageAnswerSchema>;
