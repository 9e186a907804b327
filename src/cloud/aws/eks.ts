import {
  CreateAddonCommand,
  CreateClusterCommand,
  CreatePodIdentityAssociationCommand,
  DeleteAddonCommand,
  DeleteClusterCommand,
  DescribeAddonCommand,
  DescribeAddonVersionsCommand,
  DescribeClusterCommand,
  DescribePodIdentityAssociationCommand,
  ListPodIdentityAssociationsCommand,
  UpdateAddonCommand,
  UpdatePodIdentityAssociationCommand,
} from '@aws-sdk/client-eks';
import { CloudError } from '../../domain/errors.js';
import type { OfferedAddonVersion } from '../../domain/features/addon-version.js';
import type { EksKubernetesVersion } from '../../domain/kubernetes-versions.js';
import type { EksAddon, EksCluster, EksClusterSpec, EksPort, PodIdentityAssociationFacts } from '../ports.js';
import type { AwsClients } from './clients.js';
import { loadEksKubernetesVersions } from './catalog/kubernetes-versions.js';
import { awsCall, hasCode } from './errors.js';

export type { EksClusterSpec } from '../ports.js';

const NOT_FOUND = ['ResourceNotFoundException'];

/**
 * Amazon EKS: clusters and add-ons (a feature's pod identity associations are made with its add-on,
 * through CreateAddon's podIdentityAssociations; workloads' own, such as a training job's MLflow
 * identity, with CreatePodIdentityAssociation). Reads return undefined for "not found".
 */
export class EksAdapter implements EksPort {
  constructor(
    private readonly clients: AwsClients,
    /** Told of every cluster DescribeCluster no longer finds (the Kubernetes client cache forgets it). */
    private readonly onGone: (region: string, name: string) => void = () => {},
  ) {}

  async describeCluster(region: string, name: string): Promise<EksCluster | undefined> {
    try {
      const r = await awsCall('eks', 'DescribeCluster', () =>
        this.clients.eks(region).send(new DescribeClusterCommand({ name })),
      );
      return r.cluster;
    } catch (err) {
      if (hasCode(err, ...NOT_FOUND)) {
        this.onGone(region, name);
        return undefined;
      }
      throw err;
    }
  }

  /** The Kubernetes versions EKS offers for new clusters, its default marked (never a hard-coded list). */
  clusterVersions(region: string): Promise<EksKubernetesVersion[]> {
    return loadEksKubernetesVersions(this.clients, region);
  }

  /**
   * HyperPod needs API_AND_CONFIG_MAP authentication (it adds access entries for its nodes); the
   * caller becomes cluster admin so this server can install what HyperPod needs.
   */
  async createCluster(region: string, spec: EksClusterSpec): Promise<EksCluster> {
    const r = await awsCall('eks', 'CreateCluster', () =>
      this.clients.eks(region).send(
        new CreateClusterCommand({
          name: spec.name,
          roleArn: spec.roleArn,
          version: spec.version,
          resourcesVpcConfig: {
            subnetIds: spec.subnetIds,
            securityGroupIds: spec.securityGroupIds,
            endpointPublicAccess: true,
            endpointPrivateAccess: true,
          },
          accessConfig: { authenticationMode: 'API_AND_CONFIG_MAP', bootstrapClusterCreatorAdminPermissions: true },
          logging: {
            clusterLogging: [
              { types: ['api', 'audit', 'authenticator', 'controllerManager', 'scheduler'], enabled: true },
            ],
          },
          tags: spec.tags,
          clientRequestToken: `instantstart-${spec.name}`,
        }),
      ),
    );
    return r.cluster!;
  }

  async deleteCluster(region: string, name: string): Promise<void> {
    try {
      await awsCall('eks', 'DeleteCluster', () => this.clients.eks(region).send(new DeleteClusterCommand({ name })));
    } catch (err) {
      if (!hasCode(err, ...NOT_FOUND)) throw err;
    }
  }

  async describeAddon(region: string, clusterName: string, addonName: string): Promise<EksAddon | undefined> {
    try {
      const r = await awsCall('eks', 'DescribeAddon', () =>
        this.clients.eks(region).send(new DescribeAddonCommand({ clusterName, addonName })),
      );
      return r.addon;
    } catch (err) {
      if (hasCode(err, ...NOT_FOUND)) return undefined;
      throw err;
    }
  }

  /** The add-on version EKS marks default for this Kubernetes version. */
  async defaultAddonVersion(region: string, addonName: string, kubernetesVersion: string): Promise<string | undefined> {
    const r = await awsCall('eks', 'DescribeAddonVersions', () =>
      this.clients.eks(region).send(new DescribeAddonVersionsCommand({ addonName, kubernetesVersion })),
    );
    const versions = r.addons?.[0]?.addonVersions ?? [];
    const preferred = versions.find((v) =>
      v.compatibilities?.some((c) => c.clusterVersion === kubernetesVersion && c.defaultVersion),
    );
    return (preferred ?? versions[0])?.addonVersion;
  }

  async addonVersions(region: string, addonName: string, kubernetesVersion: string): Promise<OfferedAddonVersion[]> {
    const out: OfferedAddonVersion[] = [];
    let nextToken: string | undefined;
    do {
      const r = await awsCall('eks', 'DescribeAddonVersions', () =>
        this.clients
          .eks(region)
          .send(
            new DescribeAddonVersionsCommand({ addonName, kubernetesVersion, ...(nextToken ? { nextToken } : {}) }),
          ),
      );
      for (const addon of r.addons ?? []) {
        if (addon.addonName !== addonName) continue;
        for (const v of addon.addonVersions ?? []) {
          const compatibility = v.compatibilities?.find((c) => c.clusterVersion === kubernetesVersion);
          if (v.addonVersion && compatibility)
            out.push({ version: v.addonVersion, isDefault: compatibility.defaultVersion === true });
        }
      }
      nextToken = r.nextToken;
    } while (nextToken);
    return out;
  }

  async createAddon(
    region: string,
    clusterName: string,
    addonName: string,
    options: {
      version?: string;
      podIdentityAssociations?: ReadonlyArray<{ serviceAccount: string; roleArn: string }>;
      configurationValues?: string;
      tags: Record<string, string>;
    },
  ): Promise<void> {
    try {
      await awsCall('eks', 'CreateAddon', () =>
        this.clients.eks(region).send(
          new CreateAddonCommand({
            clusterName,
            addonName,
            addonVersion: options.version,
            resolveConflicts: 'OVERWRITE',
            ...(options.podIdentityAssociations?.length
              ? { podIdentityAssociations: options.podIdentityAssociations.map((p) => ({ ...p })) }
              : {}),
            ...(options.configurationValues ? { configurationValues: options.configurationValues } : {}),
            tags: options.tags,
            clientRequestToken: `instantstart-${clusterName}-${addonName}`,
          }),
        ),
      );
    } catch (err) {
      // Made already (by an earlier attempt): observe decides what happens next.
      if (!hasCode(err, 'ResourceInUseException')) throw err;
    }
  }

  async updateAddon(
    region: string,
    clusterName: string,
    addonName: string,
    options: { version: string; configurationValues?: string },
  ): Promise<void> {
    await awsCall('eks', 'UpdateAddon', () =>
      this.clients.eks(region).send(
        new UpdateAddonCommand({
          clusterName,
          addonName,
          addonVersion: options.version,
          resolveConflicts: 'OVERWRITE',
          ...(options.configurationValues ? { configurationValues: options.configurationValues } : {}),
        }),
      ),
    );
  }

  async deleteAddon(region: string, clusterName: string, addonName: string): Promise<void> {
    try {
      await awsCall('eks', 'DeleteAddon', () =>
        this.clients.eks(region).send(new DeleteAddonCommand({ clusterName, addonName })),
      );
    } catch (err) {
      if (!hasCode(err, ...NOT_FOUND)) throw err;
    }
  }

  async podIdentityAssociation(
    region: string,
    clusterName: string,
    namespace: string,
    serviceAccount: string,
  ): Promise<PodIdentityAssociationFacts | undefined> {
    const r = await awsCall('eks', 'ListPodIdentityAssociations', () =>
      this.clients.eks(region).send(new ListPodIdentityAssociationsCommand({ clusterName, namespace, serviceAccount })),
    );
    const found = r.associations?.[0];
    if (!found?.associationId) return undefined;
    // The list's summaries carry no role: DescribePodIdentityAssociation says which role pods get.
    const d = await awsCall('eks', 'DescribePodIdentityAssociation', () =>
      this.clients
        .eks(region)
        .send(new DescribePodIdentityAssociationCommand({ clusterName, associationId: found.associationId })),
    );
    return {
      associationId: found.associationId,
      ...(found.associationArn ? { associationArn: found.associationArn } : {}),
      ...(d.association?.roleArn ? { roleArn: d.association.roleArn } : {}),
    };
  }

  async updatePodIdentityAssociationRole(
    region: string,
    clusterName: string,
    associationId: string,
    roleArn: string,
  ): Promise<void> {
    await awsCall('eks', 'UpdatePodIdentityAssociation', () =>
      this.clients.eks(region).send(new UpdatePodIdentityAssociationCommand({ clusterName, associationId, roleArn })),
    );
  }

  async createPodIdentityAssociation(
    region: string,
    clusterName: string,
    a: { namespace: string; serviceAccount: string; roleArn: string; tags: Record<string, string> },
  ): Promise<string> {
    const r = await awsCall('eks', 'CreatePodIdentityAssociation', () =>
      this.clients.eks(region).send(
        new CreatePodIdentityAssociationCommand({
          clusterName,
          namespace: a.namespace,
          serviceAccount: a.serviceAccount,
          roleArn: a.roleArn,
          tags: a.tags,
          // The same association asked twice (a retried submit) is one association.
          clientRequestToken: `instantstart-${a.namespace}-${a.serviceAccount}`.slice(0, 64),
        }),
      ),
    );
    return r.association?.associationId ?? '';
  }
}
