import SpaceBetween from '@cloudscape-design/components/space-between';
import type { ClusterPanelProps } from '@kit/capability.js';
import type { EndpointRef } from './api.js';
import { EndpointDetail } from './EndpointDetail.js';
import { EndpointsTable } from './EndpointsTable.js';
import { PoolsTable } from './PoolsTable.js';

/** The endpoint an Endpoints tab item names: `<namespace>/<endpoint>` (the rest of the URL after /endpoints/). */
function endpointOfItem(item: string | undefined): EndpointRef | undefined {
  const parts = item?.split('/').map(decodeURIComponent);
  return parts?.length === 2 && parts[0] && parts[1] ? { namespace: parts[0], endpoint: parts[1] } : undefined;
}

/**
 * The cluster page's Endpoints tab: the inference endpoints with the model pools' assignment below them, or, at
 * /clusters/:name/endpoints/<namespace>/<endpoint>, that endpoint's detail with its chat.
 */
export function InferencePanel({ cluster, region, item }: ClusterPanelProps) {
  const endpoint = endpointOfItem(item);
  if (endpoint)
    return (
      <EndpointDetail
        key={`${endpoint.namespace}/${endpoint.endpoint}`}
        cluster={cluster}
        region={region}
        endpoint={endpoint}
      />
    );
  return (
    <SpaceBetween size="l">
      <EndpointsTable cluster={cluster} region={region} />
      <PoolsTable cluster={cluster} region={region} />
    </SpaceBetween>
  );
}
