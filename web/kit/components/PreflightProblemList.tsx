import Box from '@cloudscape-design/components/box';
import { fieldLabel } from '@domain/field-labels.js';
import type { PreflightProblem } from '@kit/api/types.js';
import { inFormWords } from '@kit/lib/format.js';

/** Preflight problems as people read them: the field's label, the sentence, then the fix. */
export function PreflightProblemList({
  problems,
  testId = 'preflight-problem',
}: {
  problems: PreflightProblem[];
  testId?: string;
}) {
  return (
    <ul style={{ margin: 0, paddingLeft: 20 }}>
      {problems.map((p, i) => (
        <li key={`${p.field}-${p.code}-${i}`} data-testid={testId} data-field={p.field} data-code={p.code}>
          <b>{fieldLabel(p.field)}</b>: {inFormWords(p.message, undefined)}
          {p.remedy && (
            <Box variant="small" color="inherit">
              Fix: {inFormWords(p.remedy, undefined)}
            </Box>
          )}
        </li>
      ))}
    </ul>
  );
}
