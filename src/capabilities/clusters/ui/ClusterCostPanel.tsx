import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import Spinner from '@cloudscape-design/components/spinner';
import type { ClusterPanelProps } from '@kit/capability.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useQuery } from '@tanstack/react-query';
import { clusterKeys, getClusterCost } from './api.js';
import { HourlyCostTable, usd } from './HourlyCostTable.js';

/** What the cluster costs per hour now: its groups' instance types × current counts, EKS and the NAT gateway. */
export function ClusterCostPanel({ cluster, region }: ClusterPanelProps) {
  const cost = useQuery({
    // Under the cluster's keys: an operation on it (a scale, a new group) refreshes the cost.
    queryKey: [...clusterKeys.one(cluster, region), 'cost'],
    queryFn: () => getClusterCost(cluster, region),
    refetchInterval: 60_000,
  });
  return (
    <Container
      data-testid="cluster-cost"
      header={
        <Header
          variant="h2"
          description="On-demand prices from the AWS Price List for what runs now; storage and data transfer are billed apart."
        >
          Running cost{cost.data ? `: ${usd(cost.data.cost.totalHourlyUsd)} per hour` : ''}
        </Header>
      }
    >
      {cost.isLoading ? (
        <Spinner />
      ) : cost.error ? (
        <ProblemText error={cost.error} />
      ) : cost.data ? (
        <HourlyCostTable cost={cost.data.cost} testId="cluster-cost-lines" />
      ) : null}
    </Container>
  );
}
