/** FSx for Lustre file systems: a cluster's shared one, and those added as storage. */

/**
 * `FileSystemLifecycle` (@aws-sdk/client-fsx 3.1098.0); a newer state still reads (as "not one of these").
 */
export type FsxLifecycle =
  | 'AVAILABLE'
  | 'CREATING'
  | 'DELETING'
  | 'FAILED'
  | 'MISCONFIGURED'
  | 'MISCONFIGURED_UNAVAILABLE'
  | 'UPDATING'
  | (string & {});

/** A file system as DescribeFileSystems (or CreateFileSystem) answers it (FSx's member names): what the product reads. */
export interface FsxFileSystem {
  FileSystemId?: string;
  /** `LUSTRE`, `ONTAP`, `OPENZFS` or `WINDOWS` (FileSystemType, client-fsx 3.1098.0). */
  FileSystemType?: 'LUSTRE' | 'ONTAP' | 'OPENZFS' | 'WINDOWS' | (string & {});
  Lifecycle?: FsxLifecycle;
  /** Why it FAILED. */
  FailureDetails?: { Message?: string };
  /** GiB. */
  StorageCapacity?: number;
  VpcId?: string;
  SubnetIds?: string[];
  /** Known once AVAILABLE: what a volume mounts. */
  DNSName?: string;
  LustreConfiguration?: { MountName?: string };
  Tags?: Array<{ Key?: string; Value?: string }>;
}

export interface FsxPort {
  /** A file system tagged as the cluster's (not being deleted); with `part`, only one tagged as that part of it. */
  findFileSystem(region: string, cluster: string, part?: string): Promise<FsxFileSystem | undefined>;
  /** CreateFileSystem (Lustre, PERSISTENT_2); the client token (default: the cluster's one shared file system) makes a repeat return the first. */
  createFileSystem(
    region: string,
    cluster: string,
    spec: {
      subnetId: string;
      securityGroupId: string;
      storageCapacityGiB: number;
      tags: Record<string, string>;
      clientToken?: string;
    },
  ): Promise<FsxFileSystem>;
  describeFileSystem(region: string, id: string): Promise<FsxFileSystem | undefined>;
  deleteFileSystem(region: string, id: string): Promise<void>;
}
