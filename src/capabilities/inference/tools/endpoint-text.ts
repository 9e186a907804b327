import { z } from 'zod';
import { ClusterRefSchema, RegionSchema } from '../../../domain/schemas/common.js';
import {
  EndpointNameSchema,
  EndpointViewSchema,
  type EndpointDetail,
  type EndpointView,
} from '../../../domain/schemas/inference.js';
import { StorageNamespaceSchema } from '../../../domain/schemas/storage.js';

/** The inputs naming one endpoint, shared by the endpoint tools. */
export const EndpointRefInput = {
  cluster: ClusterRefSchema.describe('Cluster name (list_clusters).'),
  namespace: StorageNamespaceSchema.default('default').describe("The endpoint's namespace."),
  endpoint: EndpointNameSchema.describe('Endpoint name (list_endpoints).'),
  region: RegionSchema.optional(),
};

export const ClusterInput = {
  cluster: ClusterRefSchema.describe('Cluster name (list_clusters).'),
  region: RegionSchema.optional(),
};

/** One line per endpoint: what an agent needs to pick the next call. */
export function endpointLine(e: EndpointView): string {
  const what = e.kind === 'container' ? `${e.engine ?? 'custom'}, ${e.variant ?? 'internal'}` : e.kind;
  const url = e.urls.loadBalancer ?? e.urls.inCluster;
  const why = e.reason ? ` — ${e.reason}` : '';
  return `- ${e.namespace}/${e.name} (${what}) ${e.state} ${e.replicas.ready}/${e.replicas.desired} ready, model ${e.model}${url ? `, ${url}` : ''}${why}`;
}

/** An endpoint with its pods and newest events, in a few lines. */
export function endpointText(e: EndpointView | EndpointDetail): string {
  const lines = [endpointLine(e).slice(2)];
  if (e.operatorState) lines.push(`Operator state: ${e.operatorState}.`);
  if (e.routing) lines.push(`Routing: ${e.routing}.`);
  if (e.router)
    lines.push(`Router: ${e.router.service} (${e.router.policy}, ${e.router.ready ? 'ready' : 'not ready'}).`);
  if (e.autoscaling)
    lines.push(`Autoscaling: ${e.autoscaling.min}–${e.autoscaling.max} (ScaledObject ${e.autoscaling.scaledObject}).`);
  lines.push(`Objects: ${e.objects.map((o) => `${o.kind}/${o.name}`).join(', ')}.`);
  if ('pods' in e) {
    for (const p of e.pods)
      lines.push(
        `pod ${p.name}: ${p.phase}${p.ready ? ', ready' : ''}${p.reason ? ` (${p.reason})` : ''}, ${p.restarts} restarts`,
      );
    for (const ev of e.events.slice(0, 5)) lines.push(`event ${ev.type} ${ev.reason} ${ev.object}: ${ev.message}`);
  }
  return lines.join('\n');
}

export const withoutName = <T extends Record<string, z.ZodType>>(shape: T): Omit<T, 'name' | 'region'> => {
  const { name: _name, region: _region, ...rest } = shape;
  return rest;
};

/**
 * What a change tool answers as structured content: the endpoint's state, not its whole view (get_endpoint gives
 * that) — tool schemas are sent with every tool list, and their size is paid in tokens (issue 29).
 */
export const EndpointSummarySchema = EndpointViewSchema.pick({
  name: true,
  namespace: true,
  kind: true,
  state: true,
  operatorState: true,
  reason: true,
  replicas: true,
});

/** The endpoint list as list_endpoints answers it: each endpoint's summary with its model and URLs. */
export const EndpointListItemSchema = EndpointViewSchema.pick({
  name: true,
  namespace: true,
  kind: true,
  engine: true,
  variant: true,
  model: true,
  state: true,
  reason: true,
  replicas: true,
  urls: true,
});
