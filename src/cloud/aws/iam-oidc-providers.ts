import {
  CreateOpenIDConnectProviderCommand,
  DeleteOpenIDConnectProviderCommand,
  GetOpenIDConnectProviderCommand,
  ListOpenIDConnectProvidersCommand,
} from '@aws-sdk/client-iam';
import { tagList } from '../../domain/naming.js';
import type { IamOidcProvider, IamOidcProvidersPort } from '../ports.js';
import type { AwsClients } from './clients.js';
import { awsCall, hasCode } from './errors.js';

/** IAM OpenID Connect providers: the trust anchor of IRSA, one per EKS cluster issuer. */
export class IamOidcProviders implements IamOidcProvidersPort {
  constructor(private readonly clients: AwsClients) {}

  async list(): Promise<IamOidcProvider[]> {
    const iam = this.clients.iam();
    const listed = await awsCall('iam', 'ListOpenIDConnectProviders', () =>
      iam.send(new ListOpenIDConnectProvidersCommand({})),
    );
    const providers: IamOidcProvider[] = [];
    for (const { Arn } of listed.OpenIDConnectProviderList ?? []) {
      try {
        const p = await awsCall('iam', 'GetOpenIDConnectProvider', () =>
          iam.send(new GetOpenIDConnectProviderCommand({ OpenIDConnectProviderArn: Arn })),
        );
        providers.push({
          arn: Arn!,
          url: (p.Url ?? '').replace(/^https:\/\//, ''),
          clientIds: p.ClientIDList ?? [],
          tags: Object.fromEntries((p.Tags ?? []).map((t) => [t.Key!, t.Value ?? ''])),
        });
      } catch (err) {
        // Deleted between the list and the read: it is not there.
        if (!hasCode(err, 'NoSuchEntity', 'NoSuchEntityException')) throw err;
      }
    }
    return providers;
  }

  async create(issuerUrl: string, clientIds: string[], tags: Record<string, string>): Promise<string> {
    try {
      const r = await awsCall('iam', 'CreateOpenIDConnectProvider', () =>
        this.clients
          .iam()
          .send(
            new CreateOpenIDConnectProviderCommand({ Url: issuerUrl, ClientIDList: clientIds, Tags: tagList(tags) }),
          ),
      );
      return r.OpenIDConnectProviderArn!;
    } catch (err) {
      if (!hasCode(err, 'EntityAlreadyExists', 'EntityAlreadyExistsException')) throw err;
      const hostPath = issuerUrl.replace(/^https:\/\//, '').replace(/\/+$/, '');
      const found = (await this.list()).find((p) => p.url === hostPath);
      if (!found) throw err;
      return found.arn;
    }
  }

  async delete(arn: string): Promise<void> {
    try {
      await awsCall('iam', 'DeleteOpenIDConnectProvider', () =>
        this.clients.iam().send(new DeleteOpenIDConnectProviderCommand({ OpenIDConnectProviderArn: arn })),
      );
    } catch (err) {
      if (!hasCode(err, 'NoSuchEntity', 'NoSuchEntityException')) throw err;
    }
  }
}
