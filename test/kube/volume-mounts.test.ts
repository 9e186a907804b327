import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keyed } from '../../sandbox/core/keyed.js';
import { emptyState } from '../../sandbox/core/store.js';
import { T } from '../../sandbox/kube/controllers/util.js';
import { parseMountpointVolume, s3MountOfClaim } from '../../sandbox/kube/controllers/volume-mounts.js';
import type { KubeObject } from '../../sandbox/kube/types.js';
import { s3VolumeManifests } from '../../src/domain/storage-manifests.js';
import { s3State } from '../../sandbox/services/s3/state.js';
import { eventsFor, get, node, phase, pod, world, type World } from './controllers-fixtures.js';

/**
 * A pod that mounts storage runs as on EKS once its volumes can be mounted: the scheduler waits for
 * its claims (VolumeBinding), the kubelet for the CSI driver, valid Mountpoint options and the bucket
 * (FailedMount in the kubelet's words until then).
 */

function storageWorld(options: { bucket?: string; driver?: boolean } = {}): World {
  const state = emptyState();
  if (options.bucket)
    keyed.set(s3State(state).buckets, options.bucket, {
      name: options.bucket,
      region: 'us-west-2',
      createdAt: 0,
      objects: {},
      uploads: {},
    });
  const w = world({ state });
  w.cluster.objects.create(T.nodes, node('worker-1', { cpu: '8', memory: '32Gi' }));
  if (options.driver !== false)
    w.cluster.objects.create(T.csidrivers, {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIDriver',
      metadata: { name: 's3.csi.aws.com' },
      spec: {},
    });
  return w;
}

function addVolume(w: World, mountOptions?: string[]): void {
  const [pv, pvc] = s3VolumeManifests({
    volumeName: 'models-pv',
    claimName: 'models',
    bucket: 'models-bucket',
    region: 'us-west-2',
    prefix: 'llama/',
    readOnly: true,
    volumeHandle: 's3-csi-models-pv',
  }) as [KubeObject, KubeObject];
  if (mountOptions) (pv.spec as { mountOptions: string[] }).mountOptions = mountOptions;
  w.cluster.objects.create(T.persistentvolumes, pv);
  w.cluster.objects.create(T.persistentvolumeclaims, pvc);
}

const mounting = () =>
  pod('reader', {
    containers: [{ name: 'main', image: 'busybox', volumeMounts: [{ name: 'models', mountPath: '/models' }] }],
    volumes: [{ name: 'models', persistentVolumeClaim: { claimName: 'models' } }],
  });

const failedMount = (w: World) =>
  eventsFor(w, 'reader')
    .filter((e) => e.reason === 'FailedMount')
    .map((e) => e.message as string);

describe('sandbox Kubernetes: pods that mount S3 storage', () => {
  it('runs a pod mounting a bound Mountpoint claim (prefix, read-only), and tells where its files go', () => {
    const w = storageWorld({ bucket: 'models-bucket' });
    addVolume(w);
    w.cluster.objects.create(T.pods, mounting());
    w.advance(15);
    assert.equal(
      phase(get(w, 'pods', 'reader')),
      'Running',
      JSON.stringify(eventsFor(w, 'reader').map((e) => e.message)),
    );
    assert.deepEqual(failedMount(w), []);
    const m = s3MountOfClaim(w.cluster, 'default', 'models')!;
    assert.deepEqual([m.bucket, m.prefix, m.region, m.readOnly], ['models-bucket', 'llama/', 'us-west-2', true]);
  });

  it('keeps a pod whose claim does not exist unscheduled (VolumeBinding), and schedules it once the claim is bound', () => {
    const w = storageWorld({ bucket: 'models-bucket' });
    w.cluster.objects.create(T.pods, mounting());
    w.advance(3);
    const waiting = get(w, 'pods', 'reader');
    assert.equal(waiting.spec.nodeName, undefined);
    const scheduled = waiting.status.conditions.find((c: { type: string }) => c.type === 'PodScheduled');
    assert.match(scheduled.message, /0\/1 nodes are available: persistentvolumeclaim "models" not found\./);
    addVolume(w);
    w.advance(15);
    assert.equal(phase(get(w, 'pods', 'reader')), 'Running');
  });

  it('keeps the containers creating while the CSI driver is not installed (FailedMount naming it)', () => {
    const w = storageWorld({ bucket: 'models-bucket', driver: false });
    addVolume(w);
    w.cluster.objects.create(T.pods, mounting());
    w.advance(10);
    const p = get(w, 'pods', 'reader');
    assert.equal(p.spec.nodeName, 'worker-1');
    assert.equal(phase(p), 'Pending');
    assert.equal(p.status.containerStatuses[0].state.waiting.reason, 'ContainerCreating');
    assert.match(
      failedMount(w)[0] ?? '',
      /driver name s3\.csi\.aws\.com not found in the list of registered CSI drivers/,
    );
  });

  it('refuses Mountpoint options mount-s3 refuses, and a bucket that does not exist', () => {
    for (const [options, why] of [
      [['read-only', 'allow-delete', 'region us-west-2'], /'--read-only' cannot be used with '--allow-delete'/],
      [['allow-delete', 'prefix llama'], /invalid value 'llama' for '--prefix <PREFIX>': prefix must end in '\/'/],
      [['allow-delete', 'cache-everything'], /unexpected argument '--cache-everything' found/],
    ] as const) {
      const w = storageWorld({ bucket: 'models-bucket' });
      addVolume(w, [...options]);
      w.cluster.objects.create(T.pods, mounting());
      w.advance(5);
      assert.equal(phase(get(w, 'pods', 'reader')), 'Pending');
      assert.match(failedMount(w)[0] ?? '', why);
    }
    const w = storageWorld();
    addVolume(w);
    w.cluster.objects.create(T.pods, mounting());
    w.advance(5);
    assert.match(failedMount(w)[0] ?? '', /bucket models-bucket does not exist/);
  });

  it('reads Mountpoint options in the forms the driver accepts', () => {
    const pv = (options: string[]) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'x' },
      spec: {
        mountOptions: options,
        csi: { driver: 's3.csi.aws.com', volumeHandle: 'x', volumeAttributes: { bucketName: 'b' } },
      },
    });
    const m = parseMountpointVolume(pv(['--read-only', 'prefix=models/', '--region us-east-1', 'uid=1000']));
    assert.ok(!('error' in m));
    assert.deepEqual([m.prefix, m.region, m.readOnly, m.options.get('uid')], ['models/', 'us-east-1', true, '1000']);
    assert.match((parseMountpointVolume(pv(['uid'])) as { error: string }).error, /a value is required for '--uid/);
  });
});
