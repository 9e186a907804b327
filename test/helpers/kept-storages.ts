import { KeptStorageStore, openMemoryDatabase, TrainingStore } from '../../src/store/index.js';

/** A private in-memory kept-storage store, for workflow deps in tests. */
export const memoryKeptStorages = (): KeptStorageStore => new KeptStorageStore(openMemoryDatabase());

/** A private in-memory store of clusters' MLflow links, for workflow deps in tests. */
export const memoryMlflowLinks = (): TrainingStore => new TrainingStore(openMemoryDatabase());
