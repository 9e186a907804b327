import type { KubePort } from '../../cloud/ports.js';
import { CloudError, InputError, NotFoundError, PreconditionError } from '../../domain/errors.js';
import { featureDefinition } from '../../domain/features/registry.js';
import { NAMESPACE } from '../../domain/kube/namespace.js';
import { clusterTarget } from '../../domain/naming.js';
import { TERMINAL_OPERATION_STATUSES, type OperationView } from '../../domain/schemas/operations.js';
import type {
  AddStorageRequest,
  BrowseStorageAnswer,
  BrowseStorageQuery,
  ForgetKeptStorageAnswer,
  KeptStorageRecord,
  KeptStorageView,
  RemoveStorageQuery,
  StorageList,
  StorageView,
} from '../../domain/schemas/storage.js';
import { keptStoragesOfTag } from '../../domain/cluster-teardown.js';
import { TAG_CLUSTER, TAG_KEPT_STORAGE, TAG_MANAGED_BY, TAG_PART } from '../../domain/naming.js';
import { dataOfStorage, dataResource, STORAGE_DRIVERS, STORAGE_LABEL, storageDataName } from '../../domain/storage.js';
import { describeHyperPod, eksClusterOf, kubeOfHyperPod } from '../../workflows/cluster-access.js';
import { readStorages, resolveStorage, type ResolvedStorage } from '../../workflows/storage-volumes.js';
import type { StorageServiceDeps } from './ports.js';
import { checkAdd } from './add-checks.js';

type Started = { operation: OperationView; existing: boolean };

const keptView = (k: KeptStorageRecord): KeptStorageView => ({
  name: k.name,
  namespace: k.namespace,
  kind: k.data.kind,
  state: 'kept, not mounted',
  ...(k.data.kind === 's3' ? { bucket: k.data.bucket, prefix: k.data.prefix } : { fileSystemId: k.data.fileSystemId }),
  dataName: storageDataName(k.data),
  madeByInstantStart: k.ours,
  keptAt: k.keptAt,
});
type DriverFeature = (typeof STORAGE_DRIVERS)[keyof typeof STORAGE_DRIVERS]['feature'];

/** EKS add-on states in which the driver is installed (DEGRADED still mounts; CREATING/UPDATING are on their way). */
const DRIVER_ON = new Set(['ACTIVE', 'DEGRADED', 'UPDATING', 'CREATING']);

const FSX_NOT_BROWSABLE =
  'FSx for Lustre cannot be browsed through AWS APIs: its files are reached only by mounting it. List them from a pod that mounts the claim, e.g. kubectl exec <pod> -- ls -la <mount path>.';

/**
 * The rules of a cluster's storages: list them as Kubernetes has them now, refuse an add whose
 * driver is off or whose bucket or file system will not do (4xx naming the field, before any
 * change), refuse a removal while running pods mount the storage (unless force) and a data delete
 * not confirmed by the data's own name, and browse an S3 storage's contents.
 */
export class StorageService {
  constructor(private readonly deps: StorageServiceDeps) {}

  private async access(
    region: string,
    cluster: string,
  ): Promise<{ hp: Awaited<ReturnType<typeof describeHyperPod>>; eksClusterName: string; kube: KubePort }> {
    const hp = await describeHyperPod(this.deps.cloud, region, cluster);
    const eksClusterName = eksClusterOf(hp);
    if (!eksClusterName)
      throw new PreconditionError({
        message: `Cluster ${cluster} is not orchestrated by EKS: it has no Kubernetes storage to manage.`,
      });
    return { hp, eksClusterName, kube: await kubeOfHyperPod(this.deps.cloud, hp, region, { required: true }) };
  }

  /** Whether each CSI driver's EKS add-on is installed, read from EKS now (the features engineer's reconciler installs them). */
  private async drivers(region: string, eksClusterName: string): Promise<Record<DriverFeature, boolean>> {
    const on = async (feature: DriverFeature) => {
      const install = featureDefinition(feature).installs.find((i) => i.kind === 'eks-addon');
      if (!install || install.kind !== 'eks-addon') return false;
      const addon = await this.deps.cloud.eks.describeAddon(region, eksClusterName, install.addonName);
      return addon?.status !== undefined && DRIVER_ON.has(addon.status);
    };
    const [s3, fsx] = await Promise.all([on('s3-csi-driver'), on('fsx-csi-driver')]);
    return { 's3-csi-driver': s3, 'fsx-csi-driver': fsx };
  }

  private activeOperations(region: string, cluster: string) {
    const prefix = `${clusterTarget(region, cluster)}/storage/`;
    return (['add-storage', 'remove-storage'] as const)
      .flatMap((kind) => this.deps.operations.list({ kind, limit: 50 }))
      .filter((op) => op.target.startsWith(prefix) && !TERMINAL_OPERATION_STATUSES.includes(op.status))
      .map((op) => ({ id: op.id, kind: op.kind, status: op.status, target: op.target }));
  }

  async list(region: string, cluster: string): Promise<StorageList> {
    const { eksClusterName, kube } = await this.access(region, cluster);
    const [storages, drivers] = await Promise.all([readStorages(kube), this.drivers(region, eksClusterName)]);
    const kept = this.deps.keptStorages.list(region, cluster).map(keptView);
    return { cluster, region, storages, kept, drivers, activeOperations: this.activeOperations(region, cluster) };
  }

  /**
   * Forgets a kept storage: it is no longer listed, nor kept on its account by the cluster's delete.
   * Data InstantStart made for this very storage is released — its InstantStart tags removed, so it
   * stays in the account as the user's own; data that is the cluster's own (its shared bucket, or
   * another storage's) only loses this storage's kept mark and goes with the cluster from now on.
   */
  async forgetKept(region: string, cluster: string, name: string, namespace: string): Promise<ForgetKeptStorageAnswer> {
    const record = this.deps.keptStorages.get(region, cluster, namespace, name);
    if (!record)
      throw new NotFoundError({
        resource: 'Kept storage',
        id: `${namespace}/${name}`,
        message: `Cluster ${cluster} has no kept storage ${namespace}/${name} (list_storage shows the kept ones).`,
      });
    const me = `${namespace}/${name}`;
    const dataName = storageDataName(record.data);
    const where = record.data.kind === 's3' ? (record.data.region ?? region) : region;
    const resource = dataResource(record.data);
    const tags = record.ours ? await this.deps.cloud.tagged.tagsOf(where, resource) : undefined;
    let released = false;
    let goesWithCluster = false;
    if (tags && tags[TAG_CLUSTER] === cluster) {
      const others = keptStoragesOfTag(tags[TAG_KEPT_STORAGE]).filter((m) => m !== me);
      if (tags[STORAGE_LABEL] === me && others.length === 0) {
        const ownName = tags.Name?.startsWith(`${cluster}-`) ? ['Name'] : [];
        await this.deps.cloud.tagged.untag(where, resource, [
          TAG_CLUSTER,
          TAG_MANAGED_BY,
          TAG_PART,
          STORAGE_LABEL,
          TAG_KEPT_STORAGE,
          ...ownName,
        ]);
        released = true;
      } else if (others.length) {
        await this.deps.cloud.tagged.tag(where, resource, { [TAG_KEPT_STORAGE]: others.join(' ') });
      } else {
        await this.deps.cloud.tagged.untag(where, resource, [TAG_KEPT_STORAGE]);
        goesWithCluster = true;
      }
    }
    this.deps.keptStorages.forget(region, cluster, namespace, name);
    const message = released
      ? `Forgot ${me}: ${dataName} stays in the account with its data, no longer InstantStart's (its tags are removed); no cluster delete touches it.`
      : goesWithCluster
        ? `Forgot ${me}: ${dataName} is the cluster's own, so deleting cluster ${cluster} now deletes it (unless the delete keeps storage).`
        : `Forgot ${me}: ${dataName} is left as it is${record.ours ? ' (another kept storage still keeps it)' : ' (InstantStart did not make it)'}.`;
    return { name, namespace, dataName, released, goesWithCluster, message };
  }

  /** One storage by its name (its claim) and namespace; 404 naming it otherwise. */
  async resolve(region: string, cluster: string, name: string, namespace = 'default'): Promise<ResolvedStorage> {
    const { kube } = await this.access(region, cluster);
    const found = await resolveStorage(kube, name, namespace);
    if (!found)
      throw new NotFoundError({
        resource: 'Storage',
        id: `${namespace}/${name}`,
        message: `Cluster ${cluster} has no storage ${namespace}/${name} (list_storage shows its storages).`,
      });
    return found;
  }

  private async find(region: string, cluster: string, name: string, namespace: string): Promise<StorageView> {
    const { kube } = await this.access(region, cluster);
    const found = (await readStorages(kube)).find((s) => s.name === name && s.namespace === namespace);
    if (!found)
      throw new NotFoundError({
        resource: 'Storage',
        id: `${namespace}/${name}`,
        message: `Cluster ${cluster} has no storage ${namespace}/${name} (list_storage shows its storages).`,
      });
    return found;
  }

  async add(region: string, cluster: string, request: AddStorageRequest, idempotencyKey?: string): Promise<Started> {
    const { hp, eksClusterName, kube } = await this.access(region, cluster);
    const [storages, drivers, accountId, namespace] = await Promise.all([
      readStorages(kube, { mounts: false }),
      this.drivers(region, eksClusterName),
      this.deps.cloud.accountId(),
      kube.find(NAMESPACE, request.namespace),
    ]);
    // A claim lives in a namespace the cluster has: InstantStart does not make namespaces as a side effect.
    if (!namespace)
      throw new PreconditionError({
        message: `namespace: cluster ${cluster} has no namespace '${request.namespace}'`,
        problems: [
          {
            path: 'namespace',
            message: `does not exist in cluster ${cluster}: create it first (kubectl create namespace ${request.namespace})`,
          },
        ],
      });
    const input = await checkAdd(
      { cloud: this.deps.cloud, region, cluster, hp, eksClusterName, accountId, storages, drivers },
      request,
    );
    return this.deps.operations.start('add-storage', input, { idempotencyKey });
  }

  async remove(
    region: string,
    cluster: string,
    name: string,
    query: RemoveStorageQuery,
    idempotencyKey?: string,
  ): Promise<Started> {
    const storage = await this.find(region, cluster, name, query.namespace);
    const force = query.force === 'true';
    const deleteData = query.deleteData === 'true';
    const running = storage.mounts.filter((m) => m.phase === 'Running' || m.phase === 'Pending');
    if (running.length && !force) {
      const pods = running.map((m) => `${m.namespace}/${m.pod}${m.node ? ` on ${m.node}` : ''}`).join(', ');
      throw new PreconditionError({
        message: `force: storage ${storage.namespace}/${name} is mounted by running pods (${pods}); stop them first, or pass force=true`,
        problems: [
          { path: 'force', message: `storage ${name} is mounted by ${running.length} running pod(s): ${pods}` },
        ],
      });
    }
    if (deleteData && query.confirm !== storage.dataName) {
      throw InputError.field('confirm', `must name the data to delete exactly: ${storage.dataName}`);
    }
    if (!deleteData && query.confirm !== undefined) throw InputError.field('confirm', 'only goes with deleteData=true');
    if (deleteData) {
      const sharers = (await this.sharing(region, cluster, storage)).map((s) => `${s.namespace}/${s.name}`);
      if (sharers.length)
        throw new PreconditionError({
          message: `deleteData: ${storage.dataName} is also the data of ${sharers.join(', ')}; remove those first or keep the data`,
          problems: [
            { path: 'deleteData', message: `${storage.dataName} is also mounted by storage ${sharers.join(', ')}` },
          ],
        });
    }
    const input = {
      cluster,
      region,
      name,
      namespace: storage.namespace,
      volumeName: storage.volumeName,
      data: dataOfStorage(storage),
      force,
      deleteData,
    };
    return this.deps.operations.start('remove-storage', input, { idempotencyKey });
  }

  /** Other storages whose data a delete of this one's would destroy (the same bucket — under its prefix — or file system). */
  private async sharing(region: string, cluster: string, s: StorageView): Promise<StorageView[]> {
    const { kube } = await this.access(region, cluster);
    return (await readStorages(kube, { mounts: false })).filter(
      (o) =>
        !(o.name === s.name && o.namespace === s.namespace) &&
        (s.kind === 'fsx'
          ? o.fileSystemId === s.fileSystemId
          : o.kind === 's3' && o.bucket === s.bucket && (o.prefix ?? '').startsWith(s.prefix ?? '')),
    );
  }

  async browse(region: string, cluster: string, name: string, query: BrowseStorageQuery): Promise<BrowseStorageAnswer> {
    const s = await this.resolve(region, cluster, name, query.namespace);
    const path = query.path ?? '';
    const base = { name, namespace: s.namespace, kind: s.kind, path, folders: [], objects: [] };
    if (s.kind === 'fsx') return { ...base, browsable: false, message: FSX_NOT_BROWSABLE };
    const prefix = `${s.prefix ?? ''}${path}`;
    try {
      const page = await this.deps.cloud.storage.listObjects(s.bucketRegion ?? region, s.bucket!, {
        prefix,
        delimiter: '/',
        continuationToken: query.pageToken,
        maxKeys: query.limit,
      });
      return {
        ...base,
        browsable: true,
        bucket: s.bucket,
        prefix,
        folders: page.folders.map((f) => ({ name: f.slice(prefix.length), path: f.slice((s.prefix ?? '').length) })),
        // A zero-byte object named like the folder itself is a console "folder marker", not content.
        objects: page.objects
          .filter((o) => o.key !== prefix)
          .map((o) => ({
            name: o.key.slice(prefix.length),
            key: o.key,
            size: o.size,
            ...(o.lastModified ? { lastModified: o.lastModified } : {}),
          })),
        ...(page.nextToken ? { nextToken: page.nextToken } : {}),
      };
    } catch (err) {
      if (err instanceof CloudError && err.code === 'NoSuchBucket')
        throw new NotFoundError({
          resource: 'S3 bucket',
          id: s.bucket!,
          message: `The bucket of storage ${name}, ${s.bucket}, no longer exists.`,
        });
      if (err instanceof CloudError && err.code === 'InvalidArgument' && query.pageToken)
        throw InputError.field('pageToken', "is not a token this storage's listing gave (start again without it)");
      throw err;
    }
  }
}
