import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import type { EndpointView } from '@domain/schemas/inference.js';
import { clusterPath } from '@kit/lib/format.js';

/** How an endpoint's state, kind and address read everywhere in the inference UI. */

const STATE: Record<EndpointView['state'], StatusIndicatorProps.Type> = {
  Pending: 'pending',
  Deploying: 'in-progress',
  Ready: 'success',
  Degraded: 'warning',
  Failed: 'error',
  Deleting: 'loading',
};

export function StateIndicator({ endpoint }: { endpoint: Pick<EndpointView, 'state' | 'reason' | 'operatorState'> }) {
  return (
    <span data-testid="inference-endpoint-state" data-state={endpoint.state}>
      <StatusIndicator type={STATE[endpoint.state] ?? 'info'}>
        {endpoint.state}
        {endpoint.reason ? ` · ${endpoint.reason}` : ''}
      </StatusIndicator>
    </span>
  );
}

export const KIND_LABEL: Record<EndpointView['kind'], string> = {
  managed: 'Managed',
  jumpstart: 'Managed (JumpStart)',
  container: 'Container',
};

export const VARIANT_LABEL: Record<NonNullable<EndpointView['variant']>, string> = {
  external: 'Load balancer',
  internal: 'Cluster-internal',
  pool: 'Model pool',
};

export const ROUTING_LABEL: Record<NonNullable<EndpointView['routing']>, string> = {
  prefixaware: 'Prefix-aware',
  kvaware: 'KV-aware',
  session: 'Session',
  roundrobin: 'Round robin',
};

/** "vLLM · Qwen/Qwen3-0.6B" for a container, the model alone for a managed endpoint. */
export function engineAndModel(e: Pick<EndpointView, 'engine' | 'model'>): string {
  const engine = e.engine ? { vllm: 'vLLM', sglang: 'SGLang', custom: 'Custom' }[e.engine] : undefined;
  return engine ? `${engine} · ${e.model}` : e.model;
}

/** The address a person copies first: the load balancer's once it has one, else the in-cluster one. */
export function primaryUrl(e: Pick<EndpointView, 'urls'>): string | undefined {
  return e.urls.loadBalancer ?? e.urls.inCluster;
}

/** An endpoint's detail, on the cluster page's Endpoints tab: /clusters/:name/endpoints/<namespace>/<endpoint>. */
export function endpointPath(
  cluster: string,
  region: string | undefined,
  ref: { namespace: string; name: string },
): string {
  return clusterPath(cluster, region, `endpoints/${encodeURIComponent(ref.namespace)}/${encodeURIComponent(ref.name)}`);
}
