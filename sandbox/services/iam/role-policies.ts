import { keyed } from '../../core/keyed.js';
import { z } from 'zod';
import type { OperationHandler } from '../../core/service.js';
import { validateInput } from '../../core/validation.js';
import { limitExceeded, noSuchEntity } from './errors.js';
import { pageOf } from './paging.js';
import { checkPolicyDocument, encodeDocument, policySize } from './policy-document.js';
import { lookupPolicy, requireValidPolicyArn } from './policies.js';
import { requireRole } from './state.js';
import { arnType, IAM_VALIDATION, paging, pathPrefix, policyDocument, policyName, roleName } from './schemas.js';

/** A role's inline policies (Put/Get/Delete/ListRolePolicies) and managed-policy attachments. */

/** IAM quotas: inline policies of a role share 10,240 characters; at most 10 managed policies per role. */
const INLINE_TOTAL_LIMIT = 10240;
const MANAGED_PER_ROLE = 10;

const putRolePolicy: OperationHandler = (input, ctx) => {
  const req = validateInput(
    z.object({ RoleName: roleName, PolicyName: policyName, PolicyDocument: policyDocument }),
    input,
    IAM_VALIDATION,
  );
  const role = requireRole(ctx.state, req.RoleName);
  checkPolicyDocument(req.PolicyDocument, 'identity');
  const others = keyed.entries(role.inlinePolicies).filter(([name]) => name !== req.PolicyName);
  const total = others.reduce((n, [, doc]) => n + policySize(doc), 0) + policySize(req.PolicyDocument);
  if (total > INLINE_TOTAL_LIMIT)
    throw limitExceeded(`Maximum policy size of ${INLINE_TOTAL_LIMIT} bytes exceeded for role ${role.roleName}`);
  keyed.set(role.inlinePolicies, req.PolicyName, req.PolicyDocument);
  return {};
};

const rolePolicySchema = z.object({ RoleName: roleName, PolicyName: policyName });

const noSuchRolePolicy = (name: string) => noSuchEntity(`The role policy with name ${name} cannot be found.`);

const getRolePolicy: OperationHandler = (input, ctx) => {
  const req = validateInput(rolePolicySchema, input, IAM_VALIDATION);
  const role = requireRole(ctx.state, req.RoleName);
  const doc = keyed.get(role.inlinePolicies, req.PolicyName);
  if (doc === undefined) throw noSuchRolePolicy(req.PolicyName);
  return { RoleName: role.roleName, PolicyName: req.PolicyName, PolicyDocument: encodeDocument(doc) };
};

const deleteRolePolicy: OperationHandler = (input, ctx) => {
  const req = validateInput(rolePolicySchema, input, IAM_VALIDATION);
  const role = requireRole(ctx.state, req.RoleName);
  if (keyed.get(role.inlinePolicies, req.PolicyName) === undefined) throw noSuchRolePolicy(req.PolicyName);
  keyed.delete(role.inlinePolicies, req.PolicyName);
  return {};
};

const listRolePolicies: OperationHandler = (input, ctx) => {
  const req = validateInput(z.object({ RoleName: roleName, ...paging }), input, IAM_VALIDATION);
  const role = requireRole(ctx.state, req.RoleName);
  const { page, ...rest } = pageOf(keyed.keys(role.inlinePolicies).sort(), req);
  return { PolicyNames: page, ...rest };
};

const attachmentSchema = z.object({ RoleName: roleName, PolicyArn: arnType });

const attachRolePolicy: OperationHandler = (input, ctx) => {
  const req = validateInput(attachmentSchema, input, IAM_VALIDATION);
  const role = requireRole(ctx.state, req.RoleName);
  requireValidPolicyArn(req.PolicyArn);
  if (!lookupPolicy(ctx.state, req.PolicyArn))
    throw noSuchEntity(`Policy ${req.PolicyArn} does not exist or is not attachable.`);
  if (role.attachedPolicyArns.includes(req.PolicyArn)) return {}; // IAM treats a repeat attach as success
  if (role.attachedPolicyArns.length >= MANAGED_PER_ROLE)
    throw limitExceeded(`Cannot exceed quota for PoliciesPerRole: ${MANAGED_PER_ROLE}`);
  role.attachedPolicyArns.push(req.PolicyArn);
  return {};
};

const detachRolePolicy: OperationHandler = (input, ctx) => {
  const req = validateInput(attachmentSchema, input, IAM_VALIDATION);
  const role = requireRole(ctx.state, req.RoleName);
  requireValidPolicyArn(req.PolicyArn);
  if (!role.attachedPolicyArns.includes(req.PolicyArn)) throw noSuchEntity(`Policy ${req.PolicyArn} was not found.`);
  role.attachedPolicyArns = role.attachedPolicyArns.filter((a) => a !== req.PolicyArn);
  return {};
};

const listAttachedRolePolicies: OperationHandler = (input, ctx) => {
  const req = validateInput(
    z.object({ RoleName: roleName, PathPrefix: pathPrefix.optional(), ...paging }),
    input,
    IAM_VALIDATION,
  );
  const role = requireRole(ctx.state, req.RoleName);
  const prefix = req.PathPrefix ?? '/';
  const attached = role.attachedPolicyArns
    .map((arn) => lookupPolicy(ctx.state, arn))
    .filter((p) => p !== undefined && p.path.startsWith(prefix))
    .map((p) => ({ PolicyName: p!.policyName, PolicyArn: p!.arn }));
  const { page, ...rest } = pageOf(attached, req);
  return { AttachedPolicies: page, ...rest };
};

export const rolePolicyOperations: Record<string, OperationHandler> = {
  PutRolePolicy: putRolePolicy,
  GetRolePolicy: getRolePolicy,
  DeleteRolePolicy: deleteRolePolicy,
  ListRolePolicies: listRolePolicies,
  AttachRolePolicy: attachRolePolicy,
  DetachRolePolicy: detachRolePolicy,
  ListAttachedRolePolicies: listAttachedRolePolicies,
};
