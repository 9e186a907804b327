import { encodeDocument } from './policy-document.js';
import type { StoredOidcProvider, StoredPolicy, StoredRole, Tag } from './state.js';
import type { ManagedPolicyInfo } from '../../catalog/managed-policies.js';

/** IAM response shapes. Documents go out URL-encoded and times as Dates (ISO 8601 on the wire). */
const tagsIfAny = (tags: Tag[]) => (tags.length > 0 ? tags : undefined);

export function renderRole(role: StoredRole, detail: 'full' | 'list') {
  return {
    Path: role.path,
    RoleName: role.roleName,
    RoleId: role.roleId,
    Arn: role.arn,
    CreateDate: new Date(role.createDate),
    AssumeRolePolicyDocument: encodeDocument(role.assumeRolePolicyDocument),
    Description: role.description,
    MaxSessionDuration: role.maxSessionDuration,
    ...(detail === 'full'
      ? {
          PermissionsBoundary: role.permissionsBoundaryArn
            ? { PermissionsBoundaryType: 'Policy', PermissionsBoundaryArn: role.permissionsBoundaryArn }
            : undefined,
          Tags: tagsIfAny(role.tags),
          RoleLastUsed: {},
        }
      : {}),
  };
}

export interface PolicyUsage {
  attachments: number;
  boundaryUses: number;
}

export function renderCustomerPolicy(p: StoredPolicy, usage: PolicyUsage, withTags: boolean) {
  return {
    PolicyName: p.policyName,
    PolicyId: p.policyId,
    Arn: p.arn,
    Path: p.path,
    DefaultVersionId: p.versions.find((v) => v.isDefault)?.versionId,
    AttachmentCount: usage.attachments,
    PermissionsBoundaryUsageCount: usage.boundaryUses,
    IsAttachable: true,
    Description: withTags ? p.description : undefined,
    CreateDate: new Date(p.createDate),
    UpdateDate: new Date(p.updateDate),
    Tags: withTags ? tagsIfAny(p.tags) : undefined,
  };
}

export function renderManagedPolicy(p: ManagedPolicyInfo, usage: PolicyUsage, withDescription: boolean) {
  return {
    PolicyName: p.policyName,
    PolicyId: p.policyId,
    Arn: p.arn,
    Path: p.path,
    DefaultVersionId: p.defaultVersionId,
    AttachmentCount: usage.attachments,
    PermissionsBoundaryUsageCount: usage.boundaryUses,
    IsAttachable: true,
    Description: withDescription ? p.description : undefined,
    CreateDate: new Date(p.createDate),
    UpdateDate: new Date(p.updateDate),
  };
}

export function renderOidcProvider(p: StoredOidcProvider) {
  return {
    Url: p.url.replace(/^https:\/\//, ''),
    ClientIDList: p.clientIds,
    ThumbprintList: p.thumbprints,
    CreateDate: new Date(p.createDate),
    Tags: tagsIfAny(p.tags),
  };
}
