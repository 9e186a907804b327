import Box from '@cloudscape-design/components/box';
import Table from '@cloudscape-design/components/table';
import type { CostLine, HourlyCost } from '@domain/schemas/plans.js';

export const usd = (n: number) => `$${n < 1 ? n.toFixed(4) : n.toFixed(2)}`;

const UNIT_WORDS: Record<string, string> = { Hrs: 'hour', 'GB-Mo': 'GiB-month' };

function sourceText(l: CostLine): string {
  if (!l.source) return l.missing ?? '—';
  return `${l.source.serviceCode}, SKU ${l.source.sku}, effective ${l.source.effectiveDate.slice(0, 10)}`;
}

/** An hourly cost, line by line with each price's source (the AWS Price List), and its total. */
export function HourlyCostTable({ cost, testId }: { cost: HourlyCost; testId: string }) {
  return (
    <Table
      data-testid={testId}
      variant="embedded"
      wrapLines
      items={cost.lines}
      columnDefinitions={[
        { id: 'item', header: 'Item', cell: (l) => l.description },
        { id: 'quantity', header: 'Quantity', cell: (l) => String(l.quantity) },
        {
          id: 'price',
          header: 'Price',
          cell: (l) =>
            l.unitPrice === undefined ? '—' : `${usd(l.unitPrice)} per ${UNIT_WORDS[l.priceUnit ?? ''] ?? l.priceUnit}`,
        },
        {
          id: 'hourly',
          header: 'Per hour',
          cell: (l) => (l.hourlyUsd === undefined ? 'not priced' : usd(l.hourlyUsd)),
        },
        { id: 'source', header: 'Price source', cell: sourceText },
      ]}
      footer={
        <Box>
          <Box variant="strong" display="inline" data-testid={`${testId}-total`}>
            {usd(cost.totalHourlyUsd)} per hour
          </Box>
          {cost.complete ? '' : ' (lines without a price are left out)'}. {cost.note}
        </Box>
      }
    />
  );
}
