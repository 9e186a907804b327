import { keyed } from '../../core/keyed.js';
import { z } from 'zod';
import { lookupClientToken, rememberClientToken } from '../../core/idempotency.js';
import { unitHash } from '../../core/ids.js';
import type { RequestContext } from '../../core/service.js';
import { validateInput } from '../../core/validation.js';
import { badRequest, fileSystemNotFound, incompatibleParameter } from './errors.js';
import { pageOf } from './paging.js';
import { renderFileSystem } from './render.js';
import { clientTokenSchema, fileSystemIdSchema, nextTokenSchema, tagsSchema, VALIDATION } from './schemas.js';
import { findFileSystem, peekFsxRegion } from './state.js';

/** DescribeFileSystems and DeleteFileSystem. Deleting takes 3–6 sandbox minutes, then the file system is gone. */
const MINUTE = 60_000;
export const deletingMs = (id: string) => Math.round((3 + 3 * unitHash(`${id}:delete`)) * MINUTE);

const describeSchema = z.object({
  FileSystemIds: z.array(fileSystemIdSchema).max(50).optional(),
  MaxResults: z.number().int().min(1).max(2147483647).optional(),
  NextToken: nextTokenSchema.optional(),
});

export function describeFileSystems(input: unknown, ctx: RequestContext) {
  const req = validateInput(describeSchema, input, VALIDATION);
  const all = keyed
    .values(peekFsxRegion(ctx.state, ctx.region)?.fileSystems)
    .sort((a, b) => a.creationTime - b.creationTime || (a.fileSystemId < b.fileSystemId ? -1 : 1));
  let selected = all;
  if (req.FileSystemIds && req.FileSystemIds.length > 0) {
    const missing = req.FileSystemIds.find((id) => !findFileSystem(ctx.state, ctx.region, id));
    if (missing) throw fileSystemNotFound(missing);
    const wanted = new Set(req.FileSystemIds);
    selected = all.filter((fs) => wanted.has(fs.fileSystemId));
  }
  const { page, nextToken } = pageOf(selected, req.MaxResults, req.NextToken);
  return { FileSystems: page.map(renderFileSystem), ...(nextToken ? { NextToken: nextToken } : {}) };
}

const deleteSchema = z.object({
  FileSystemId: fileSystemIdSchema,
  ClientRequestToken: clientTokenSchema.optional(),
  LustreConfiguration: z
    .object({ SkipFinalBackup: z.boolean().optional(), FinalBackupTags: tagsSchema.optional() })
    .optional(),
  WindowsConfiguration: z.record(z.string(), z.unknown()).optional(),
  OpenZFSConfiguration: z.record(z.string(), z.unknown()).optional(),
});

export function deleteFileSystem(input: unknown, ctx: RequestContext) {
  const req = validateInput(deleteSchema, input, VALIDATION);
  const { ClientRequestToken: token, ...params } = req;
  lookupClientToken(ctx, token, params, () =>
    incompatibleParameter(
      'ClientRequestToken',
      'A request with this ClientRequestToken was made earlier with different parameters.',
    ),
  );
  const fs = findFileSystem(ctx.state, ctx.region, req.FileSystemId);
  if (!fs) throw fileSystemNotFound(req.FileSystemId);
  if (req.WindowsConfiguration !== undefined || req.OpenZFSConfiguration !== undefined) {
    throw badRequest('WindowsConfiguration and OpenZFSConfiguration cannot be used to delete a LUSTRE file system.');
  }
  const lustre = req.LustreConfiguration ?? {};
  if (lustre.SkipFinalBackup === false) {
    throw badRequest(
      fs.lustre.deploymentType.startsWith('SCRATCH')
        ? `Final backups are not supported for ${fs.lustre.deploymentType} file systems; set SkipFinalBackup to true.`
        : 'Final backups are not supported by the sandbox (it has no FSx backups); set SkipFinalBackup to true.',
    );
  }
  if (lustre.FinalBackupTags !== undefined)
    throw badRequest('FinalBackupTags can only be used when SkipFinalBackup is false.');
  if (fs.lifecycle === 'CREATING')
    throw badRequest(`File system '${fs.fileSystemId}' cannot be deleted while it is CREATING.`);
  if (fs.lifecycle !== 'DELETING') {
    fs.lifecycle = 'DELETING';
    fs.goneAt = ctx.now() + deletingMs(fs.fileSystemId);
  }
  rememberClientToken(ctx, token, params, fs.fileSystemId);
  return { FileSystemId: fs.fileSystemId, Lifecycle: 'DELETING' };
}
