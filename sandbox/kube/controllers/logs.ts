// CONTRACT (owned by the controllers helper; bodies are being written now).
import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';

export interface LogOptions {
  container?: string;
  tailLines?: number;
  sinceSeconds?: number;
  sinceTime?: string;
  limitBytes?: number;
  previous?: boolean;
  timestamps?: boolean;
}

/** The log text of a pod's container so far (sandbox time). Unknown container / not started → KubeError 400 as the API server words it. */
export function readLogs(_cluster: KubeCluster, _pod: KubeObject, _options: LogOptions): string {
  return '';
}

/** Streams new log lines as the container produces them (on the sandbox clock); returns a stop function. `onEnd` when the container terminates. */
export function followLogs(_cluster: KubeCluster, _pod: KubeObject, _options: LogOptions, _onChunk: (text: string) => void, _onEnd: () => void): () => void {
  return () => {};
}
