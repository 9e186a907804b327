/** Formatting helpers shared by the pages. */
import { clusterOfTarget, targetLabel } from '@domain/naming.js';

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return '—';
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  return `${h}h ${String(m % 60).padStart(2, '0')}m`;
}

export function formatExpected(seconds: number): string {
  if (seconds <= 0) return '';
  return seconds < 90 ? `~${Math.round(seconds)}s on AWS` : `~${Math.round(seconds / 60)} min on AWS`;
}

export function formatTime(iso: string | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

export function formatClock(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleTimeString(undefined, { hour12: false });
}

/** "cluster/us-west-2/my-cluster", alone or followed by a part of it (an instance group, autoscaling) → the cluster's { region, name }. */
export function parseClusterTarget(target: string): { region: string; name: string } | undefined {
  return clusterOfTarget(target);
}

/** "cluster/us-west-2/c/storage/default/models" → "Storage models"; undefined for the cluster itself (src/domain/naming.ts). */
export const targetPart = targetLabel;

/** A cluster's page, or one of its tabs (`nodes`, `instance-groups`, …; the overview has none). */
export function clusterPath(name: string, region?: string, tab?: string): string {
  return `/clusters/${encodeURIComponent(name)}${tab && tab !== 'overview' ? `/${tab}` : ''}${region ? `?region=${encodeURIComponent(region)}` : ''}`;
}

/** One node's detail, on the cluster page's Nodes tab. */
export function nodePath(cluster: string, region: string | undefined, instanceId: string): string {
  return clusterPath(cluster, region, `nodes/${encodeURIComponent(instanceId)}`);
}

export const operationPath = (id: string) => `/operations/${encodeURIComponent(id)}`;

/** A form's own words for the request fields a server message names (src/domain/form-words.ts). */
export { type FormWords, inFormWords } from '@domain/form-words.js';
