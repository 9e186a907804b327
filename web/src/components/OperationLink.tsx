import Link from '@cloudscape-design/components/link';
import { useFollow } from '../hooks/use-follow.js';
import { operationPath } from '../lib/format.js';

/** "create-cluster · eks (running)" linking to the operation's progress page. */
export function OperationLink({ op, testId }: { op: { id: string; kind: string; status: string; currentPhase?: string }; testId?: string }) {
  const follow = useFollow();
  return (
    <Link href={operationPath(op.id)} onFollow={follow} data-testid={testId}>
      {op.kind}
      {op.currentPhase ? ` · ${op.currentPhase}` : ''} ({op.status})
    </Link>
  );
}
