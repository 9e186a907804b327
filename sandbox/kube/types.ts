/**
 * The shapes the sandbox Kubernetes API works with. Objects are plain JSON, exactly as they travel
 * on the wire and as they are persisted in the sandbox state.
 */

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time?: string;
  fieldsType: 'FieldsV1';
  fieldsV1: Record<string, unknown>;
  subresource?: string;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
  [key: string]: unknown;
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

/** A column of `kubectl get` (Table output), as CRDs' additionalPrinterColumns describe them. */
export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format?: string;
  description?: string;
  /** 0 = shown always, > 0 = only with `-o wide`. */
  priority?: number;
  /** A simple JSONPath such as `.status.phase` or `.spec.containers[*].image`. */
  jsonPath: string;
}

/** One REST resource the API serves (a built-in kind or a CRD's). */
export interface ResourceType {
  /** '' for the core group. */
  group: string;
  version: string;
  /** Plural, lower case: `pods`, `hyperpodpytorchjobs`. */
  resource: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  verbs: string[];
  subresources?: {
    status?: boolean;
    scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
    log?: boolean;
  };
  printerColumns?: PrinterColumn[];
  /** Set for custom resources: the CRD's name (`<plural>.<group>`). */
  crd?: string;
}

export const apiVersionOf = (t: Pick<ResourceType, 'group' | 'version'>): string =>
  t.group ? `${t.group}/${t.version}` : t.version;

/** A watch event as the API streams it. */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
export interface WatchEvent {
  type: WatchEventType;
  object: KubeObject;
}
