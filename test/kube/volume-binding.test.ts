import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { T } from '../../sandbox/kube/controllers/util.js';
import type { KubeObject } from '../../sandbox/kube/types.js';
import { s3VolumeManifests } from '../../src/domain/storage-manifests.js';
import { startKubeCluster, type TestKubeCluster } from '../helpers/kube.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { eventsFor, get, world } from './controllers-fixtures.js';

/**
 * Static PersistentVolumes bind their claims as on EKS: the claims InstantStart's storage phase makes
 * read Bound in kubectl, not Pending forever.
 */

function volume(
  name: string,
  storage: string,
  extra: {
    claimRef?: { namespace: string; name: string };
    storageClassName?: string;
    accessModes?: string[];
    reclaim?: string;
  } = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name },
    spec: {
      capacity: { storage },
      accessModes: extra.accessModes ?? ['ReadWriteMany'],
      persistentVolumeReclaimPolicy: extra.reclaim ?? 'Retain',
      storageClassName: extra.storageClassName ?? '',
      ...(extra.claimRef ? { claimRef: extra.claimRef } : {}),
      csi: { driver: 's3.csi.aws.com', volumeHandle: name },
    },
  };
}

function claim(
  name: string,
  storage: string,
  extra: { volumeName?: string; storageClassName?: string; accessModes?: string[] } = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'default' },
    spec: {
      accessModes: extra.accessModes ?? ['ReadWriteMany'],
      storageClassName: extra.storageClassName ?? '',
      resources: { requests: { storage } },
      ...(extra.volumeName ? { volumeName: extra.volumeName } : {}),
    },
  };
}

describe('sandbox Kubernetes: static volumes bind their claims', () => {
  it("binds a claim that names its volume (the storage phase's shape): both sides Bound, claimRef with the claim's uid", () => {
    const w = world();
    w.cluster.objects.create(
      T.persistentvolumes,
      volume('demo-s3-pv', '1200Gi', { claimRef: { namespace: 'default', name: 'shared-s3' } }),
    );
    w.tick();
    assert.equal(
      get(w, 'persistentvolumes', 'demo-s3-pv', undefined).status.phase,
      'Available',
      'reserved for a claim still to come',
    );
    const made = w.cluster.objects.create(
      T.persistentvolumeclaims,
      claim('shared-s3', '1200Gi', { volumeName: 'demo-s3-pv' }),
    );
    w.tick();
    const pv = get(w, 'persistentvolumes', 'demo-s3-pv', undefined);
    const pvc = get(w, 'persistentvolumeclaims', 'shared-s3');
    assert.equal(pv.status.phase, 'Bound');
    assert.equal(pv.spec.claimRef.uid, made.metadata.uid);
    assert.equal(pvc.status.phase, 'Bound');
    assert.deepEqual(pvc.status.capacity, { storage: '1200Gi' });
    assert.deepEqual(pvc.status.accessModes, ['ReadWriteMany']);
    assert.equal(pvc.metadata.annotations['pv.kubernetes.io/bind-completed'], 'yes');
  });

  it('matches a claim without volumeName to the smallest volume of its class, access modes and capacity', () => {
    const w = world();
    w.cluster.objects.create(T.persistentvolumes, volume('big', '100Gi'));
    w.cluster.objects.create(T.persistentvolumes, volume('small', '10Gi'));
    w.cluster.objects.create(T.persistentvolumes, volume('too-small', '1Gi'));
    w.cluster.objects.create(T.persistentvolumes, volume('other-class', '10Gi', { storageClassName: 'fast' }));
    w.cluster.objects.create(T.persistentvolumes, volume('read-only', '10Gi', { accessModes: ['ReadOnlyMany'] }));
    w.cluster.objects.create(T.persistentvolumeclaims, claim('data', '5Gi'));
    w.tick();
    const pvc = get(w, 'persistentvolumeclaims', 'data');
    assert.equal(pvc.status.phase, 'Bound');
    assert.equal(pvc.spec.volumeName, 'small');
    assert.equal(pvc.metadata.annotations['pv.kubernetes.io/bound-by-controller'], 'yes');
    assert.equal(get(w, 'persistentvolumes', 'big', undefined).status.phase, 'Available');
  });

  it('leaves a claim that fits no volume Pending and says why', () => {
    const w = world();
    w.cluster.objects.create(T.persistentvolumes, volume('tiny', '1Gi'));
    w.cluster.objects.create(T.persistentvolumeclaims, claim('named', '5Gi', { volumeName: 'tiny' }));
    w.cluster.objects.create(T.persistentvolumeclaims, claim('none', '5Gi'));
    w.tick();
    assert.equal(get(w, 'persistentvolumeclaims', 'named').status.phase, 'Pending');
    assert.equal(get(w, 'persistentvolumeclaims', 'none').status.phase, 'Pending');
    assert.equal(get(w, 'persistentvolumes', 'tiny', undefined).status.phase, 'Available');
    assert.ok(eventsFor(w, 'named').some((e) => e.reason === 'VolumeMismatch' && /too small/.test(e.message)));
    assert.ok(eventsFor(w, 'none').some((e) => e.reason === 'FailedBinding'));
  });

  it('releases a Retain volume whose claim is deleted and loses a claim whose volume is deleted', () => {
    const w = world();
    w.cluster.objects.create(T.persistentvolumes, volume('keep', '10Gi'));
    w.cluster.objects.create(T.persistentvolumeclaims, claim('a', '10Gi', { volumeName: 'keep' }));
    w.cluster.objects.create(T.persistentvolumes, volume('gone', '10Gi'));
    w.cluster.objects.create(T.persistentvolumeclaims, claim('b', '10Gi', { volumeName: 'gone' }));
    w.tick();
    w.cluster.objects.remove(T.persistentvolumeclaims, 'default', 'a');
    w.cluster.objects.remove(T.persistentvolumes, undefined, 'gone');
    w.tick();
    assert.equal(get(w, 'persistentvolumes', 'keep', undefined).status.phase, 'Released');
    assert.equal(get(w, 'persistentvolumeclaims', 'b').status.phase, 'Lost');
    // A new claim of the same name cannot take a Released volume (its claimRef names the old claim's uid).
    w.cluster.objects.create(T.persistentvolumeclaims, claim('a', '10Gi', { volumeName: 'keep' }));
    w.tick();
    assert.equal(get(w, 'persistentvolumeclaims', 'a').status.phase, 'Pending');
  });
});

describe("kubectl sees the storage phase's claims Bound", () => {
  let sb: TestSandbox;
  let k: TestKubeCluster;
  before(async () => {
    sb = await startTestSandbox();
    k = await startKubeCluster(sb, 'vb');
  });
  after(async () => sb.dispose());

  it("kubectl apply of the product's S3 volume manifests gives a Bound PVC and PV", async () => {
    const manifests = s3VolumeManifests({
      volumeName: 'vb-s3-pv',
      claimName: 'shared-s3',
      bucket: 'sagemaker-vb-0000',
      region: 'us-west-2',
    });
    await k.kubectl(['apply', '-f', '-'], { input: manifests.map((m) => stringify(m)).join('---\n') });
    await sb.advance(1);
    const pvc = await k.kubectl(['get', 'pvc', 'shared-s3', '-n', 'default']);
    assert.match(pvc.stdout, /\nshared-s3\s+Bound\s+vb-s3-pv\s+1200Gi\s+RWX\s+/);
    const pv = await k.kubectl(['get', 'pv', 'vb-s3-pv']);
    assert.match(pv.stdout, /\nvb-s3-pv\s+1200Gi\s+RWX\s+Retain\s+Bound\s+default\/shared-s3\s+/);
  });
});
