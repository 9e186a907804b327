import Alert from '@cloudscape-design/components/alert';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { EndpointView } from '@domain/schemas/inference.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useState } from 'react';
import { useDeployRouter } from './api.js';
import { option, pick } from '@kit/lib/form-kit.js';

export const ROUTER_POLICIES = [
  option('cache_aware', 'Cache-aware', 'Longest prefix match unless the load is unbalanced'),
  option('round_robin', 'Round robin'),
  option('random', 'Random'),
  option('power_of_two', 'Power of two', 'The less loaded of two random workers'),
];

/**
 * An SGLang endpoint without the router: put it in front (its own Deployment and Service, finding the servers by
 * their labels), so requests sharing a prefix reach the replica that has it cached.
 */
export function RouterPanel({
  cluster,
  region,
  endpoint: e,
}: {
  cluster: string;
  region: string;
  endpoint: EndpointView;
}) {
  const [policy, setPolicy] = useState('cache_aware');
  const deploy = useDeployRouter(cluster, region, { namespace: e.namespace, endpoint: e.name });
  return (
    <Container
      data-testid="inference-router"
      header={
        <Header
          variant="h2"
          description="Spreads requests over the SGLang replicas; cache-aware sends requests sharing a prompt prefix to the replica that holds it."
        >
          SGLang router
        </Header>
      }
    >
      <SpaceBetween size="m">
        <SpaceBetween direction="horizontal" size="xs" alignItems="end">
          <FormField label="Policy">
            <Select
              selectedOption={pick(ROUTER_POLICIES, policy)}
              options={ROUTER_POLICIES}
              onChange={({ detail }) => setPolicy(detail.selectedOption.value ?? 'cache_aware')}
            />
          </FormField>
          <Button onClick={() => deploy.mutate(policy)} loading={deploy.isPending} data-testid="inference-router-add">
            Add the router
          </Button>
        </SpaceBetween>
        {deploy.error && (
          <Alert type="error" header="The router was not added">
            <ProblemText error={deploy.error} />
          </Alert>
        )}
      </SpaceBetween>
    </Container>
  );
}
