import { after, before } from 'node:test';
import { deleteClusterWorkflow } from '../../src/capabilities/clusters/workflows/delete-cluster/index.js';
import { AwsClients, Cloud } from '../../src/cloud/index.js';
import { OperationEngine } from '../../src/engine/engine.js';
import { openStores } from '../../src/store/index.js';
import { startTestSandbox, type TestSandbox } from './sandbox.js';
import { memoryKeptStorages, memoryMlflowLinks } from './kept-storages.js';

export interface DeleteClusterEngine {
  sb: TestSandbox;
  engine: OperationEngine;
  cloud: Cloud;
}

/**
 * For a describe block: a sandbox at `speed`, the cloud adapters on it and an operation engine
 * running delete-cluster alone (its polls scaled to the sandbox clock); stopped after the block.
 * The fields are set once `before` has run.
 */
export function useDeleteClusterEngine(speed: number, region: string): DeleteClusterEngine {
  const harness = {} as DeleteClusterEngine;
  const stores = openStores();
  before(async () => {
    harness.sb = await startTestSandbox({ speed });
    harness.cloud = new Cloud(new AwsClients({ defaultRegion: region }));
    harness.engine = new OperationEngine({
      store: stores.operations,
      polling: { minIntervalMs: 1000, maxIntervalMs: 30_000, timeScale: 1 / speed },
    });
    harness.engine.register(
      deleteClusterWorkflow({
        cloud: harness.cloud,
        activeCluster: { get: () => undefined, set: () => undefined },
        keptStorages: memoryKeptStorages(),
        mlflowLinks: memoryMlflowLinks(),
      }),
    );
  });
  after(async () => {
    await harness.engine?.stop();
    stores.close();
    await harness.sb?.dispose();
  });
  return harness;
}
