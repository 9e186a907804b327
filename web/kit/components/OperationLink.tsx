import Link from '@cloudscape-design/components/link';
import { operationKindLabel } from '@domain/naming.js';
import { useFollow } from '@kit/hooks/use-follow.js';
import { operationPath } from '@kit/lib/format.js';

/** "Create cluster · eks (running)", or "· nat-ready + eks" while phases run side by side, linking to the operation's progress page. */
export function OperationLink({
  op,
  testId,
}: {
  op: { id: string; kind: string; status: string; currentPhase?: string; runningPhases?: string[] };
  testId?: string;
}) {
  const follow = useFollow();
  const phases = op.runningPhases && op.runningPhases.length > 1 ? op.runningPhases.join(' + ') : op.currentPhase;
  return (
    <Link href={operationPath(op.id)} onFollow={follow} data-testid={testId}>
      {operationKindLabel(op.kind)}
      {phases ? ` · ${phases}` : ''} ({op.status})
    </Link>
  );
}
