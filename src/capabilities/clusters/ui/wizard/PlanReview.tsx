import Alert from '@cloudscape-design/components/alert';
import Container from '@cloudscape-design/components/container';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import Table from '@cloudscape-design/components/table';
import type { ClusterPlan, PlannedMutation } from '@domain/schemas/plans.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { HourlyCostTable } from '../HourlyCostTable.js';

export interface PlanState {
  plan: ClusterPlan | undefined;
  error: unknown;
  loading: boolean;
}

type Row = PlannedMutation & { first: boolean };

/** `trustedBy` → "trusted by": the details' keys read as words. */
const words = (key: string) => key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

const detailsText = (m: PlannedMutation) =>
  Object.entries(m.details ?? {})
    .map(([k, v]) => `${words(k)} ${v}`)
    .join('; ');

/** The review step's plan: the hourly cost, and what the create makes, step by step (nothing is made to show it). */
export function PlanReview({ plan, error, loading }: PlanState) {
  if (loading && !plan) return <Spinner />;
  if (error) {
    return (
      <Alert type="warning" header="The plan could not be made">
        <ProblemText error={error} />
      </Alert>
    );
  }
  if (!plan) return null;
  const rows: Row[] = plan.mutations.map((m, i) => ({
    ...m,
    first: i === 0 || plan.mutations[i - 1]?.phase !== m.phase,
  }));
  return (
    <SpaceBetween size="l">
      <Container
        data-testid="plan-cost"
        header={
          <Header variant="h2" description="On-demand prices read from the AWS Price List, with each price's source.">
            Hourly cost
          </Header>
        }
      >
        <HourlyCostTable cost={plan.cost} testId="plan-cost-lines" />
      </Container>
      <Container
        header={
          <Header variant="h2" description="Nothing is made until you create; the create makes these in this order.">
            What will be created
          </Header>
        }
      >
        <ExpandableSection headerText={`${plan.mutations.length} changes`} data-testid="plan-mutations">
          <Table<Row>
            variant="embedded"
            wrapLines
            items={rows}
            columnDefinitions={[
              // The step's title once, on its first change.
              { id: 'step', header: 'Step', cell: (m) => (m.first ? m.phaseTitle : '') },
              { id: 'what', header: 'What', cell: (m) => m.resource },
              { id: 'name', header: 'Name', cell: (m) => m.name ?? '—' },
              { id: 'details', header: 'Details', cell: detailsText },
            ]}
          />
        </ExpandableSection>
      </Container>
    </SpaceBetween>
  );
}
