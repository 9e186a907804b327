import Box from '@cloudscape-design/components/box';
import type { HourlyCost } from '@domain/schemas/plans.js';

/**
 * What adding or scaling a group changes per hour: "Adds $X per hour" (or "Saves" when it shrinks), with the line's
 * price and its Price List source; "not priced" with why when the Price List had none (never a guessed figure).
 */
export function GroupCost({ cost, testId = 'group-cost' }: { cost: HourlyCost; testId?: string }) {
  const line = cost.lines[0];
  const total = cost.totalHourlyUsd;
  return (
    <Box data-testid={testId}>
      {line?.hourlyUsd === undefined ? (
        `Hourly cost: not priced (${line?.missing ?? 'no price'})`
      ) : (
        <>
          <Box
            variant="strong"
            display="inline"
          >{`${total < 0 ? 'Saves' : 'Adds'} $${Math.abs(total).toFixed(2)} per hour`}</Box>
          {` — ${line.description} at $${line.unitPrice} per instance-hour (on-demand, AWS Price List ${line.source?.serviceCode}, SKU ${line.source?.sku}, effective ${line.source?.effectiveDate.slice(0, 10)})`}
        </>
      )}
    </Box>
  );
}
