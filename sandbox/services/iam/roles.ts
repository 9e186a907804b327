import { keyed } from '../../core/keyed.js';
import { z } from 'zod';
import { upperId } from '../../core/ids.js';
import type { OperationHandler } from '../../core/service.js';
import { validateInput } from '../../core/validation.js';
import { alreadyExists, deleteConflict, limitExceeded, noSuchEntity } from './errors.js';
import { pageOf } from './paging.js';
import { checkPolicyDocument, policySize } from './policy-document.js';
import { lookupPolicy } from './policies.js';
import { renderRole } from './render.js';
import {
  description,
  IAM_VALIDATION,
  path,
  pathPrefix,
  paging,
  policyDocument,
  queryInt,
  roleName,
  tags,
  arnType,
} from './schemas.js';
import { iamSection, peekIam, requireRole, type StoredRole } from './state.js';
import { checkNewTags } from './tags.js';

/** Roles: create, read, list, delete, and their trust policy. */

/** IAM's default quota for a role's trust policy (ACLSizePerRole), in characters without whitespace. */
const TRUST_POLICY_LIMIT = 2048;

function checkTrustPolicy(text: string): void {
  checkPolicyDocument(text, 'trust');
  if (policySize(text) > TRUST_POLICY_LIMIT)
    throw limitExceeded(`Cannot exceed quota for ACLSizePerRole: ${TRUST_POLICY_LIMIT}`);
}

const createRoleSchema = z.object({
  Path: path.optional(),
  RoleName: roleName,
  AssumeRolePolicyDocument: policyDocument,
  Description: description.optional(),
  MaxSessionDuration: queryInt(3600, 43200).optional(),
  PermissionsBoundary: arnType.optional(),
  Tags: tags.optional(),
});

const createRole: OperationHandler = (input, ctx) => {
  const req = validateInput(createRoleSchema, input, IAM_VALIDATION);
  checkTrustPolicy(req.AssumeRolePolicyDocument);
  const newTags = checkNewTags([], req.Tags ?? []);
  if (req.PermissionsBoundary && !lookupPolicy(ctx.state, req.PermissionsBoundary)) {
    throw noSuchEntity(`Scope ARN: ${req.PermissionsBoundary} does not exist or is not attachable.`);
  }
  if (keyed.get(peekIam(ctx.state)?.roles, req.RoleName.toLowerCase()))
    throw alreadyExists(`Role with name ${req.RoleName} already exists.`);
  const rolePath = req.Path ?? '/';
  const role: StoredRole = {
    roleName: req.RoleName,
    roleId: `AROA${upperId(17)}`,
    arn: `arn:aws:iam::${ctx.accountId}:role${rolePath}${req.RoleName}`,
    path: rolePath,
    assumeRolePolicyDocument: req.AssumeRolePolicyDocument,
    description: req.Description,
    maxSessionDuration: req.MaxSessionDuration ?? 3600,
    permissionsBoundaryArn: req.PermissionsBoundary,
    createDate: ctx.now(),
    tags: newTags,
    inlinePolicies: {},
    attachedPolicyArns: [],
  };
  keyed.set(iamSection(ctx.state).roles, role.roleName.toLowerCase(), role);
  return { Role: renderRole(role, 'full') };
};

const roleOnly = z.object({ RoleName: roleName });

const getRole: OperationHandler = (input, ctx) => {
  const req = validateInput(roleOnly, input, IAM_VALIDATION);
  return { Role: renderRole(requireRole(ctx.state, req.RoleName), 'full') };
};

const deleteRole: OperationHandler = (input, ctx) => {
  const req = validateInput(roleOnly, input, IAM_VALIDATION);
  const role = requireRole(ctx.state, req.RoleName);
  if (role.attachedPolicyArns.length > 0) throw deleteConflict('Cannot delete entity, must detach all policies first.');
  if (keyed.keys(role.inlinePolicies).length > 0)
    throw deleteConflict('Cannot delete entity, must delete policies first.');
  keyed.delete(iamSection(ctx.state).roles, role.roleName.toLowerCase());
  return {};
};

const listRolesSchema = z.object({ PathPrefix: pathPrefix.optional(), ...paging });

const listRoles: OperationHandler = (input, ctx) => {
  const req = validateInput(listRolesSchema, input, IAM_VALIDATION);
  const prefix = req.PathPrefix ?? '/';
  const roles = keyed
    .values(peekIam(ctx.state)?.roles)
    .filter((r) => r.path.startsWith(prefix))
    .sort((a, b) => (a.roleName.toLowerCase() < b.roleName.toLowerCase() ? -1 : 1));
  const { page, ...rest } = pageOf(roles, req);
  return { Roles: page.map((r) => renderRole(r, 'list')), ...rest };
};

const updateAssumeRolePolicySchema = z.object({ RoleName: roleName, PolicyDocument: policyDocument });

const updateAssumeRolePolicy: OperationHandler = (input, ctx) => {
  const req = validateInput(updateAssumeRolePolicySchema, input, IAM_VALIDATION);
  const role = requireRole(ctx.state, req.RoleName);
  checkTrustPolicy(req.PolicyDocument);
  role.assumeRolePolicyDocument = req.PolicyDocument;
  return {};
};

export const roleOperations: Record<string, OperationHandler> = {
  CreateRole: createRole,
  GetRole: getRole,
  DeleteRole: deleteRole,
  ListRoles: listRoles,
  UpdateAssumeRolePolicy: updateAssumeRolePolicy,
};
