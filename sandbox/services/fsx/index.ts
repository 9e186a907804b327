import { keyed } from '../../core/keyed.js';
import type { ServiceModule } from '../../core/service.js';
import type { SandboxState } from '../../core/store.js';
import { createFileSystem } from './create.js';
import { deleteFileSystem, describeFileSystems } from './file-systems.js';
import { FSX_ERRORS } from './schemas.js';
import { allFsxRegions } from './state.js';
import { listTagsForResource, tagResource, untagResource } from './tags.js';
import { fsxTick } from './tick.js';

/** Amazon FSx (awsJson1_1, `AWSSimbaAPIService_v20180301`): FSx for Lustre file systems. */
function inventory(state: SandboxState): Record<string, unknown[]> {
  return {
    fileSystems: allFsxRegions(state).flatMap(([region, section]) =>
      keyed.values(section.fileSystems).map((fs) => ({
        region,
        fileSystemId: fs.fileSystemId,
        lifecycle: fs.lifecycle,
        deploymentType: fs.lustre.deploymentType,
        storageCapacity: fs.storageCapacity,
        subnetIds: fs.subnetIds,
        networkInterfaceIds: fs.networkInterfaceIds,
        tags: fs.tags,
      })),
    ),
  };
}

export const fsx: ServiceModule = {
  signingName: 'fsx',
  protocol: 'awsJson1_1',
  targetPrefix: 'AWSSimbaAPIService_v20180301',
  errors: FSX_ERRORS,
  operations: {
    CreateFileSystem: createFileSystem,
    DescribeFileSystems: describeFileSystems,
    DeleteFileSystem: deleteFileSystem,
    TagResource: tagResource,
    UntagResource: untagResource,
    ListTagsForResource: listTagsForResource,
  },
  tick: fsxTick,
  inventory,
};
