import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keyed } from '../../sandbox/core/keyed.js';
import { emptyState } from '../../sandbox/core/store.js';
import type { ContainerWorld } from '../../sandbox/kube/cluster.js';
import { s3State } from '../../sandbox/services/s3/state.js';
import { readLogs } from '../../sandbox/kube/controllers/logs.js';
import { T } from '../../sandbox/kube/controllers/util.js';
import { SANDBOX_HF_TOKEN } from '../../sandbox/services/huggingface/access.js';
import { findModel, resolveRevision } from '../../sandbox/services/huggingface/catalog.js';
import { fileBytes } from '../../sandbox/services/huggingface/file-bytes.js';
import { get, node, pod, world, type World } from './controllers-fixtures.js';

const HUB = 'http://sandbox.test/_huggingface';

/** A memory cluster that reaches a Hub at HUB and an S3 whose writes the test reads. */
function downloadWorld(options: { pvOptions?: string[] } = {}): { w: World; objects: Map<string, Buffer> } {
  // The bucket the volume names exists (the kubelet refuses to mount a missing one, volume-mounts.ts).
  const state = emptyState();
  keyed.set(s3State(state).buckets, 'bucket', {
    name: 'bucket',
    region: 'us-west-2',
    createdAt: 0,
    objects: {},
    uploads: {},
  });
  const w = world({ state });
  const objects = new Map<string, Buffer>();
  const memory = new Map<string, unknown>();
  const outside: ContainerWorld = {
    hubEndpoint: () => HUB,
    putObject: (bucket, key, body) => (objects.set(`${bucket}/${key}`, body), true),
    memory: {
      get: (k) => memory.get(k),
      set: (k, v) => void memory.set(k, v),
      delete: (k) => void memory.delete(k),
      keys: () => [...memory.keys()],
    },
  };
  Object.assign(w.cluster, { world: outside });
  w.cluster.objects.create(T.nodes, node('n1', { cpu: '8', memory: '32Gi' }));
  // The S3 CSI driver's add-on registers its driver: without it the kubelet mounts nothing (volume-mounts.ts).
  w.cluster.objects.create(T.csidrivers, {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'CSIDriver',
    metadata: { name: 's3.csi.aws.com' },
    spec: {},
  });
  w.cluster.objects.create(T.persistentvolumes, {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: 's3-pv' },
    spec: {
      capacity: { storage: '1200Gi' },
      accessModes: ['ReadWriteMany'],
      storageClassName: '',
      claimRef: { namespace: 'default', name: 'shared-s3' },
      mountOptions: options.pvOptions ?? ['allow-delete', 'region us-west-2', 'prefix team-a/'],
      csi: { driver: 's3.csi.aws.com', volumeHandle: 's3-csi-bucket', volumeAttributes: { bucketName: 'bucket' } },
    },
  });
  w.cluster.objects.create(T.persistentvolumeclaims, {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'shared-s3', namespace: 'default' },
    spec: {
      accessModes: ['ReadWriteMany'],
      storageClassName: '',
      volumeName: 's3-pv',
      resources: { requests: { storage: '1200Gi' } },
    },
  });
  w.advance(1);
  return { w, objects };
}

function downloader(name: string, extra: { env?: unknown[]; readOnly?: boolean; args?: string[] } = {}) {
  return pod(name, {
    restartPolicy: 'Never',
    containers: [
      {
        name: 'download',
        image: 'vllm/vllm-openai:v0.11.0',
        command: [
          'hf',
          'download',
          'meta-llama/Llama-3.2-1B',
          '--local-dir',
          '/data/models/llama',
          ...(extra.args ?? []),
        ],
        env: extra.env ?? [
          { name: 'HF_ENDPOINT', value: HUB },
          { name: 'HF_TOKEN', valueFrom: { secretKeyRef: { name: 'hf', key: 'HF_TOKEN' } } },
        ],
        volumeMounts: [{ name: 'storage', mountPath: '/data', ...(extra.readOnly ? { readOnly: true } : {}) }],
      },
    ],
    volumes: [{ name: 'storage', persistentVolumeClaim: { claimName: 'shared-s3' } }],
  });
}

const tokenSecret = (token: string) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'hf', namespace: 'default' },
  type: 'Opaque',
  data: { HF_TOKEN: Buffer.from(token).toString('base64') },
});
const status = (w: World, name: string) => get(w, 'pods', name).status.containerStatuses[0];

describe('controllers: the hf download program (Hub simulation → S3 volume)', () => {
  it("fetches the files with the Secret's token and lands them under the volume's bucket and prefix, byte for byte", () => {
    const { w, objects } = downloadWorld();
    w.cluster.objects.create(T.secrets, tokenSecret(SANDBOX_HF_TOKEN));
    w.cluster.objects.create(T.pods, downloader('dl'));
    w.advance(40);
    assert.equal(status(w, 'dl').state.terminated?.exitCode, 0, JSON.stringify(status(w, 'dl').state));
    const model = findModel('meta-llama/Llama-3.2-1B')!;
    const commit = resolveRevision(model, 'main')!;
    for (const f of commit.files) {
      const landed = objects.get(`bucket/team-a/models/llama/${f.path}`);
      assert.ok(landed, `${f.path} landed under the PV's prefix`);
      assert.ok(landed.equals(fileBytes(model.id, commit.sha, f)), `${f.path} has the Hub's bytes`);
    }
    assert.ok(
      objects.has('bucket/team-a/models/llama/.cache/huggingface/.gitignore'),
      "the CLI's bookkeeping lands next to the files",
    );
    const log = readLogs(w.cluster, get(w, 'pods', 'dl'), {});
    assert.match(log, /^Fetching 9 files: {3}0%/);
    assert.match(log, /model\.safetensors: 100%\|██████████\| 5\.24M\/5\.24M/);
    assert.match(log, /\/data\/models\/llama\n$/);
    assert.ok(!log.includes(SANDBOX_HF_TOKEN));

    // The run remembers what it resolved: deleting the Secret afterwards changes neither its log nor its outcome.
    w.cluster.objects.remove(T.secrets, 'default', 'hf');
    w.advance(2);
    assert.equal(readLogs(w.cluster, get(w, 'pods', 'dl'), {}), log);
  });

  it('fails like the CLI on a gated model: 401 without a token, 403 with one not granted', () => {
    const { w, objects } = downloadWorld();
    w.cluster.objects.create(T.pods, downloader('anonymous', { env: [{ name: 'HF_ENDPOINT', value: HUB }] }));
    w.cluster.objects.create(T.secrets, tokenSecret('hf_NotGrantedButWellFormedToken0000000000'));
    w.cluster.objects.create(T.pods, downloader('stranger'));
    w.advance(20);
    assert.equal(status(w, 'anonymous').state.terminated?.exitCode, 1);
    assert.match(
      readLogs(w.cluster, get(w, 'pods', 'anonymous'), {}),
      /GatedRepoError: 401 Client Error[\s\S]*Cannot access gated repo for url http:\/\/sandbox\.test\/_huggingface\/meta-llama\/Llama-3\.2-1B\/resolve\/[0-9a-f]{40}\/[\s\S]*Please log in\./,
    );
    assert.equal(status(w, 'stranger').state.terminated?.exitCode, 1);
    assert.match(
      readLogs(w.cluster, get(w, 'pods', 'stranger'), {}),
      /GatedRepoError: 403 Client Error[\s\S]*not in the authorized list/,
    );
    assert.equal(objects.size, 0, 'nothing landed');
  });

  it('cannot reach a Hub other than the simulation (HF_ENDPOINT unset means huggingface.co: no internet)', () => {
    const { w } = downloadWorld();
    w.cluster.objects.create(T.pods, downloader('offline', { env: [] }));
    w.advance(20);
    assert.equal(status(w, 'offline').state.terminated?.exitCode, 1);
    assert.match(
      readLogs(w.cluster, get(w, 'pods', 'offline'), {}),
      /ConnectionError[\s\S]*Failed to resolve 'huggingface\.co'[\s\S]*set HF_ENDPOINT/,
    );
  });

  it('fails on a read-only volume, and when its Secret is missing', () => {
    const { w } = downloadWorld({ pvOptions: ['read-only', 'region us-west-2'] });
    w.cluster.objects.create(T.secrets, tokenSecret(SANDBOX_HF_TOKEN));
    w.cluster.objects.create(T.pods, downloader('ro'));
    w.cluster.objects.create(
      T.pods,
      downloader('nosecret', {
        env: [
          { name: 'HF_ENDPOINT', value: HUB },
          { name: 'HF_TOKEN', valueFrom: { secretKeyRef: { name: 'gone', key: 'HF_TOKEN' } } },
        ],
      }),
    );
    w.advance(20);
    assert.match(
      readLogs(w.cluster, get(w, 'pods', 'ro'), {}),
      /OSError: \[Errno 30\] Read-only file system: '\/data\/models\/llama\/\.cache'/,
    );
    assert.match(readLogs(w.cluster, get(w, 'pods', 'nosecret'), {}), /secret "gone" not found/);
    assert.equal(status(w, 'nosecret').state.terminated?.exitCode, 1);
  });
});
