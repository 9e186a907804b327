import { KeptStorageStore, openMemoryDatabase } from '../../src/store/index.js';

/** A private in-memory kept-storage store, for workflow deps in tests. */
export const memoryKeptStorages = (): KeptStorageStore => new KeptStorageStore(openMemoryDatabase());
