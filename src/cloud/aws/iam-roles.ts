import {
  AttachRolePolicyCommand,
  CreateRoleCommand,
  DeleteRoleCommand,
  DeleteRolePolicyCommand,
  DetachRolePolicyCommand,
  GetRoleCommand,
  GetRolePolicyCommand,
  ListAttachedRolePoliciesCommand,
  ListRolePoliciesCommand,
  ListRolesCommand,
  PutRolePolicyCommand,
  UpdateAssumeRolePolicyCommand,
} from '@aws-sdk/client-iam';
import type { RoleDefinition } from '../../domain/cluster-roles.js';
import { clusterTags, tagList } from '../../domain/naming.js';
import type { IamPort, IamRoleFacts, PolicySimulation, SimulatedDecision } from '../ports.js';
import type { AwsClients } from './clients.js';
import { awsCall, hasCode } from './errors.js';
import { simulatePrincipalPolicy } from './iam-simulate.js';

export type RoleSpec = RoleDefinition;

/** IAM answers policy documents URL-encoded (RFC 3986). */
const decodeDocument = (text: string | undefined): string => (text ? decodeURIComponent(text) : '');
const text = (doc: unknown): string => (typeof doc === 'string' ? doc : JSON.stringify(doc));
const notFound = (err: unknown) => hasCode(err, 'NoSuchEntity', 'NoSuchEntityException');

const policyDocument = (spec: RoleSpec) =>
  JSON.stringify(
    spec.trustPolicy ?? {
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Principal: { Service: spec.trustedServices },
          Action: spec.trustActions ?? ['sts:AssumeRole'],
        },
      ],
    },
  );

/** IAM roles found by name, created when missing, with their policies attached idempotently. */
export class IamRoles implements IamPort {
  constructor(private readonly clients: AwsClients) {}

  /** IAM's policy simulator (read-only): see iam-simulate.ts. */
  simulate(question: PolicySimulation): Promise<SimulatedDecision[]> {
    return simulatePrincipalPolicy(this.clients, question);
  }

  /** The role's ARN, or undefined when it does not exist. */
  async find(roleName: string): Promise<string | undefined> {
    try {
      const r = await awsCall('iam', 'GetRole', () =>
        this.clients.iam().send(new GetRoleCommand({ RoleName: roleName })),
      );
      return r.Role?.Arn;
    } catch (err) {
      if (hasCode(err, 'NoSuchEntity', 'NoSuchEntityException')) return undefined;
      throw err;
    }
  }

  /** Whether the role exists with every managed policy of `spec` attached. */
  async isComplete(spec: RoleSpec): Promise<boolean> {
    if (!(await this.find(spec.roleName))) return false;
    const attached = await this.attachedPolicies(spec.roleName);
    return spec.managedPolicyArns.every((p) => attached.includes(p));
  }

  /** Creates the role if missing, then attaches whatever policies are missing. Returns the ARN. */
  async ensure(cluster: string, spec: RoleSpec, log: (m: string) => void): Promise<string> {
    const iam = this.clients.iam();
    let arn = await this.find(spec.roleName);
    if (!arn) {
      try {
        const r = await awsCall('iam', 'CreateRole', () =>
          iam.send(
            new CreateRoleCommand({
              RoleName: spec.roleName,
              Description: spec.description,
              AssumeRolePolicyDocument: policyDocument(spec),
              Tags: tagList(clusterTags(cluster, 'role')).filter((t) => t.Key !== 'Name'),
            }),
          ),
        );
        arn = r.Role!.Arn!;
        log(`Created IAM role ${spec.roleName}`);
      } catch (err) {
        // A concurrent or earlier attempt made it between our read and our create.
        if (!hasCode(err, 'EntityAlreadyExists', 'EntityAlreadyExistsException')) throw err;
        arn = (await this.find(spec.roleName))!;
      }
    }
    const attached = await this.attachedPolicies(spec.roleName);
    for (const policyArn of spec.managedPolicyArns.filter((p) => !attached.includes(p))) {
      await awsCall('iam', 'AttachRolePolicy', () =>
        iam.send(new AttachRolePolicyCommand({ RoleName: spec.roleName, PolicyArn: policyArn })),
      );
      log(`Attached ${policyArn.split('/').pop()} to ${spec.roleName}`);
    }
    for (const [name, doc] of Object.entries(spec.inlinePolicies ?? {})) {
      await awsCall('iam', 'PutRolePolicy', () =>
        iam.send(
          new PutRolePolicyCommand({ RoleName: spec.roleName, PolicyName: name, PolicyDocument: JSON.stringify(doc) }),
        ),
      );
    }
    return arn;
  }

  /** Detaches and deletes everything of the role; "already gone" is success. */
  async delete(roleName: string, log: (m: string) => void): Promise<void> {
    const iam = this.clients.iam();
    if (!(await this.find(roleName))) return;
    for (const policyArn of await this.attachedPolicies(roleName)) {
      await awsCall('iam', 'DetachRolePolicy', () =>
        iam.send(new DetachRolePolicyCommand({ RoleName: roleName, PolicyArn: policyArn })),
      );
    }
    const inline = await awsCall('iam', 'ListRolePolicies', () =>
      iam.send(new ListRolePoliciesCommand({ RoleName: roleName })),
    );
    for (const name of inline.PolicyNames ?? []) {
      await awsCall('iam', 'DeleteRolePolicy', () =>
        iam.send(new DeleteRolePolicyCommand({ RoleName: roleName, PolicyName: name })),
      );
    }
    try {
      await awsCall('iam', 'DeleteRole', () => iam.send(new DeleteRoleCommand({ RoleName: roleName })));
      log(`Deleted IAM role ${roleName}`);
    } catch (err) {
      if (!hasCode(err, 'NoSuchEntity', 'NoSuchEntityException')) throw err;
    }
  }

  async describeRole(roleName: string): Promise<IamRoleFacts | undefined> {
    try {
      const r = await awsCall('iam', 'GetRole', () =>
        this.clients.iam().send(new GetRoleCommand({ RoleName: roleName })),
      );
      return {
        arn: r.Role!.Arn!,
        trustPolicy: decodeDocument(r.Role!.AssumeRolePolicyDocument),
        tags: Object.fromEntries((r.Role!.Tags ?? []).map((t) => [t.Key!, t.Value ?? ''])),
      };
    } catch (err) {
      if (notFound(err)) return undefined;
      throw err;
    }
  }

  async createRole(role: {
    roleName: string;
    description: string;
    trustPolicy: unknown;
    tags: Record<string, string>;
  }): Promise<string> {
    try {
      const r = await awsCall('iam', 'CreateRole', () =>
        this.clients.iam().send(
          new CreateRoleCommand({
            RoleName: role.roleName,
            Description: role.description,
            AssumeRolePolicyDocument: text(role.trustPolicy),
            Tags: tagList(role.tags),
          }),
        ),
      );
      return r.Role!.Arn!;
    } catch (err) {
      // A concurrent or earlier attempt made it between our read and our create: the caller checks whose it is.
      if (!hasCode(err, 'EntityAlreadyExists', 'EntityAlreadyExistsException')) throw err;
      return (await this.find(role.roleName))!;
    }
  }

  async updateTrustPolicy(roleName: string, trustPolicy: unknown): Promise<void> {
    await awsCall('iam', 'UpdateAssumeRolePolicy', () =>
      this.clients
        .iam()
        .send(new UpdateAssumeRolePolicyCommand({ RoleName: roleName, PolicyDocument: text(trustPolicy) })),
    );
  }

  async attachPolicy(roleName: string, policyArn: string): Promise<void> {
    await awsCall('iam', 'AttachRolePolicy', () =>
      this.clients.iam().send(new AttachRolePolicyCommand({ RoleName: roleName, PolicyArn: policyArn })),
    );
  }

  async inlinePolicy(roleName: string, policyName: string): Promise<string | undefined> {
    try {
      const r = await awsCall('iam', 'GetRolePolicy', () =>
        this.clients.iam().send(new GetRolePolicyCommand({ RoleName: roleName, PolicyName: policyName })),
      );
      return decodeDocument(r.PolicyDocument);
    } catch (err) {
      if (notFound(err)) return undefined;
      throw err;
    }
  }

  async putInlinePolicy(roleName: string, policyName: string, document: unknown): Promise<void> {
    await awsCall('iam', 'PutRolePolicy', () =>
      this.clients
        .iam()
        .send(new PutRolePolicyCommand({ RoleName: roleName, PolicyName: policyName, PolicyDocument: text(document) })),
    );
  }

  async listRoleTrusts(): Promise<Array<{ roleName: string; arn: string; trustPolicy: string }>> {
    const roles: Array<{ roleName: string; arn: string; trustPolicy: string }> = [];
    let marker: string | undefined;
    do {
      const page = await awsCall('iam', 'ListRoles', () =>
        this.clients.iam().send(new ListRolesCommand({ Marker: marker })),
      );
      for (const r of page.Roles ?? [])
        roles.push({ roleName: r.RoleName!, arn: r.Arn!, trustPolicy: decodeDocument(r.AssumeRolePolicyDocument) });
      marker = page.IsTruncated ? page.Marker : undefined;
    } while (marker);
    return roles;
  }

  async deleteInlinePolicy(roleName: string, policyName: string): Promise<void> {
    try {
      await awsCall('iam', 'DeleteRolePolicy', () =>
        this.clients.iam().send(new DeleteRolePolicyCommand({ RoleName: roleName, PolicyName: policyName })),
      );
    } catch (err) {
      if (!hasCode(err, 'NoSuchEntity', 'NoSuchEntityException')) throw err;
    }
  }

  async attachedPolicies(roleName: string): Promise<string[]> {
    const r = await awsCall('iam', 'ListAttachedRolePolicies', () =>
      this.clients.iam().send(new ListAttachedRolePoliciesCommand({ RoleName: roleName })),
    );
    return (r.AttachedPolicies ?? []).map((p) => p.PolicyArn!);
  }
}
