import { useLiveStatus } from '@kit/hooks/live-context.js';
import { useEffect } from 'react';

/**
 * While the calling component is shown, the server watches the cluster's nodes (one shared watch
 * per cluster, whoever asks) and pushes "changed"; the provider then refetches the node and cluster
 * views. So a fault healed in seconds still shows, without waiting for the 10 s refresh.
 */
export function useLiveNodes(cluster: string, region: string | undefined): void {
  const { watch } = useLiveStatus();
  useEffect(() => {
    const unwatch = watch({ topic: 'nodes', params: { cluster, ...(region ? { region } : {}) } });
    return unwatch;
  }, [watch, cluster, region]);
}
