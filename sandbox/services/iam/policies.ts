import { keyed } from '../../core/keyed.js';
import { z } from 'zod';
import { upperId } from '../../core/ids.js';
import type { OperationHandler } from '../../core/service.js';
import type { SandboxState } from '../../core/store.js';
import { validateInput } from '../../core/validation.js';
import { findManagedPolicy, MANAGED_POLICIES } from '../../catalog/managed-policies.js';
import { alreadyExists, deleteConflict, invalidInput, limitExceeded, noSuchEntity } from './errors.js';
import { pageOf } from './paging.js';
import { checkPolicyDocument, encodeDocument, policySize } from './policy-document.js';
import { renderCustomerPolicy, renderManagedPolicy, type PolicyUsage } from './render.js';
import {
  arnType,
  description,
  fullMatch,
  IAM_VALIDATION,
  paging,
  path,
  pathPrefix,
  policyDocument,
  policyName,
  queryBool,
  tags,
} from './schemas.js';
import { iamSection, peekIam, type StoredPolicy } from './state.js';
import { checkNewTags } from './tags.js';

/** Managed policies: the AWS catalogue (read-only) and the account's own (customer-managed). */

/** IAM's quota for a managed policy document, in characters without whitespace. */
const POLICY_SIZE_LIMIT = 6144;

export interface PolicyRef {
  policyName: string;
  arn: string;
  path: string;
  aws: boolean;
}

/** An AWS-managed or customer-managed policy by ARN. */
export function lookupPolicy(state: SandboxState, arn: string): PolicyRef | undefined {
  const managed = findManagedPolicy(arn);
  if (managed) return { policyName: managed.policyName, arn, path: managed.path, aws: true };
  const own = keyed.get(peekIam(state)?.policies, arn);
  return own ? { policyName: own.policyName, arn, path: own.path, aws: false } : undefined;
}

/** Policy ARNs IAM accepts: `arn:aws:iam::aws:policy/…` or `arn:aws:iam::<12 digits>:policy/…`. */
export function requireValidPolicyArn(arn: string): void {
  if (!/^arn:aws[\w-]*:iam::(aws|\d{12}):policy\/(.+\/)?[\w+=,.@-]+$/.test(arn))
    throw invalidInput(`ARN ${arn} is not valid.`);
}

function usageOf(state: SandboxState, arn: string): PolicyUsage {
  const roles = keyed.values(peekIam(state)?.roles);
  return {
    attachments: roles.filter((r) => r.attachedPolicyArns.includes(arn)).length,
    boundaryUses: roles.filter((r) => r.permissionsBoundaryArn === arn).length,
  };
}

const noSuchPolicy = (arn: string) => noSuchEntity(`Policy ${arn} does not exist or is not attachable.`);

const createPolicySchema = z.object({
  PolicyName: policyName,
  Path: path.optional(),
  PolicyDocument: policyDocument,
  Description: description.optional(),
  Tags: tags.optional(),
});

const createPolicy: OperationHandler = (input, ctx) => {
  const req = validateInput(createPolicySchema, input, IAM_VALIDATION);
  checkPolicyDocument(req.PolicyDocument, 'identity');
  if (policySize(req.PolicyDocument) > POLICY_SIZE_LIMIT)
    throw limitExceeded(`Cannot exceed quota for PolicySize: ${POLICY_SIZE_LIMIT}`);
  const newTags = checkNewTags([], req.Tags ?? []);
  const existing = keyed.values(peekIam(ctx.state)?.policies);
  if (existing.some((p) => p.policyName.toLowerCase() === req.PolicyName.toLowerCase())) {
    throw alreadyExists(`A policy called ${req.PolicyName} already exists. Duplicate names are not allowed.`);
  }
  const policyPath = req.Path ?? '/';
  const now = ctx.now();
  const policy: StoredPolicy = {
    policyName: req.PolicyName,
    policyId: `ANPA${upperId(17)}`,
    arn: `arn:aws:iam::${ctx.accountId}:policy${policyPath}${req.PolicyName}`,
    path: policyPath,
    description: req.Description,
    createDate: now,
    updateDate: now,
    tags: newTags,
    versions: [{ versionId: 'v1', document: req.PolicyDocument, isDefault: true, createDate: now }],
  };
  keyed.set(iamSection(ctx.state).policies, policy.arn, policy);
  return { Policy: renderCustomerPolicy(policy, { attachments: 0, boundaryUses: 0 }, true) };
};

const policyArnOnly = z.object({ PolicyArn: arnType });

const getPolicy: OperationHandler = (input, ctx) => {
  const req = validateInput(policyArnOnly, input, IAM_VALIDATION);
  requireValidPolicyArn(req.PolicyArn);
  const managed = findManagedPolicy(req.PolicyArn);
  if (managed) return { Policy: renderManagedPolicy(managed, usageOf(ctx.state, managed.arn), true) };
  const own = keyed.get(peekIam(ctx.state)?.policies, req.PolicyArn);
  if (!own) throw noSuchPolicy(req.PolicyArn);
  return { Policy: renderCustomerPolicy(own, usageOf(ctx.state, own.arn), true) };
};

const deletePolicy: OperationHandler = (input, ctx) => {
  const req = validateInput(policyArnOnly, input, IAM_VALIDATION);
  requireValidPolicyArn(req.PolicyArn);
  if (findManagedPolicy(req.PolicyArn)) throw invalidInput(`Cannot delete AWS managed policy ${req.PolicyArn}.`);
  const own = keyed.get(peekIam(ctx.state)?.policies, req.PolicyArn);
  if (!own) throw noSuchPolicy(req.PolicyArn);
  const usage = usageOf(ctx.state, own.arn);
  if (usage.attachments > 0) throw deleteConflict('Cannot delete a policy attached to entities.');
  if (usage.boundaryUses > 0) throw deleteConflict('Cannot delete a policy used as a permissions boundary.');
  keyed.delete(iamSection(ctx.state).policies, own.arn);
  return {};
};

const listPoliciesSchema = z.object({
  Scope: z.enum(['All', 'AWS', 'Local']).optional(),
  OnlyAttached: queryBool.optional(),
  PathPrefix: pathPrefix.optional(),
  PolicyUsageFilter: z.enum(['PermissionsPolicy', 'PermissionsBoundary']).optional(),
  ...paging,
});

const listPolicies: OperationHandler = (input, ctx) => {
  const req = validateInput(listPoliciesSchema, input, IAM_VALIDATION);
  const scope = req.Scope ?? 'All';
  const prefix = req.PathPrefix ?? '/';
  const aws =
    scope === 'Local'
      ? []
      : MANAGED_POLICIES.map((p) => ({
          render: () => renderManagedPolicy(p, usageOf(ctx.state, p.arn), false),
          name: p.policyName,
          path: p.path,
          arn: p.arn,
        }));
  const own =
    scope === 'AWS'
      ? []
      : keyed.values(peekIam(ctx.state)?.policies).map((p) => ({
          render: () => renderCustomerPolicy(p, usageOf(ctx.state, p.arn), false),
          name: p.policyName,
          path: p.path,
          arn: p.arn,
        }));
  const selected = [...aws, ...own]
    .filter((p) => p.path.startsWith(prefix))
    .filter((p) => {
      const usage = usageOf(ctx.state, p.arn);
      if (req.OnlyAttached && usage.attachments + usage.boundaryUses === 0) return false;
      if (req.PolicyUsageFilter === 'PermissionsPolicy' && req.OnlyAttached) return usage.attachments > 0;
      if (req.PolicyUsageFilter === 'PermissionsBoundary' && req.OnlyAttached) return usage.boundaryUses > 0;
      return true;
    })
    .sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1));
  const { page, ...rest } = pageOf(selected, req);
  return { Policies: page.map((p) => p.render()), ...rest };
};

const getPolicyVersionSchema = z.object({
  PolicyArn: arnType,
  VersionId: fullMatch('v[1-9][0-9]*(\\.[A-Za-z0-9-]*)?'),
});

const getPolicyVersion: OperationHandler = (input, ctx) => {
  const req = validateInput(getPolicyVersionSchema, input, IAM_VALIDATION);
  requireValidPolicyArn(req.PolicyArn);
  const missing = () =>
    noSuchEntity(`Policy ${req.PolicyArn} version ${req.VersionId} does not exist or is not attachable.`);
  const managed = findManagedPolicy(req.PolicyArn);
  if (managed) {
    // The sandbox keeps only the default version of AWS-managed policies.
    if (managed.defaultVersionId !== req.VersionId) throw missing();
    return {
      PolicyVersion: {
        Document: encodeDocument(managed.document),
        VersionId: managed.defaultVersionId,
        IsDefaultVersion: true,
        CreateDate: new Date(managed.updateDate),
      },
    };
  }
  const own = keyed.get(peekIam(ctx.state)?.policies, req.PolicyArn);
  if (!own) throw noSuchPolicy(req.PolicyArn);
  const version = own.versions.find((v) => v.versionId === req.VersionId);
  if (!version) throw missing();
  return {
    PolicyVersion: {
      Document: encodeDocument(version.document),
      VersionId: version.versionId,
      IsDefaultVersion: version.isDefault,
      CreateDate: new Date(version.createDate),
    },
  };
};

export const policyOperations: Record<string, OperationHandler> = {
  CreatePolicy: createPolicy,
  GetPolicy: getPolicy,
  DeletePolicy: deletePolicy,
  ListPolicies: listPolicies,
  GetPolicyVersion: getPolicyVersion,
};
