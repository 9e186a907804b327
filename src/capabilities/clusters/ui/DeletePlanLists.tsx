import Box from '@cloudscape-design/components/box';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import type { DeletePlan, DeletePlanItem } from '@domain/schemas/clusters.js';

const wrap = { whiteSpace: 'normal', overflowWrap: 'anywhere' } as const;
/** Enough rows to read in a dialog; the rest is counted (EC2 pieces are many). */
const SHOWN = 40;

function Items({ items, testId, empty }: { items: readonly DeletePlanItem[]; testId: string; empty: string }) {
  if (items.length === 0)
    return (
      <Box color="text-body-secondary" data-testid={testId}>
        {empty}
      </Box>
    );
  return (
    <ul data-testid={testId} style={{ margin: 0, paddingInlineStart: 18, maxHeight: 220, overflowY: 'auto' }}>
      {items.slice(0, SHOWN).map((i) => (
        <li key={`${i.kind}/${i.name}`} style={wrap}>
          {i.kind} <b>{i.name}</b>
          {i.reason ? (
            <Box variant="small" color="text-body-secondary">
              {i.reason}
            </Box>
          ) : null}
        </li>
      ))}
      {items.length > SHOWN && <li>…and {items.length - SHOWN} more</li>}
    </ul>
  );
}

/** The delete plan's two lists, by name: what goes and what stays (with why). */
export function DeletePlanLists({ plan }: { plan: DeletePlan }) {
  return (
    <ColumnLayout columns={2} variant="text-grid">
      <div>
        <Box variant="awsui-key-label">Deleted ({plan.deletes.length})</Box>
        <Items items={plan.deletes} testId="delete-plan-deletes" empty="Nothing." />
      </div>
      <div>
        <Box variant="awsui-key-label">Kept ({plan.keeps.length})</Box>
        <Items items={plan.keeps} testId="delete-plan-keeps" empty="Nothing: no storage of the cluster is kept." />
      </div>
    </ColumnLayout>
  );
}
