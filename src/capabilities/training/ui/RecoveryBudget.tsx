import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Link from '@cloudscape-design/components/link';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { Budget, RecoveryBudget as Recovery } from '@domain/schemas/training.js';
import { useFollow } from '@kit/hooks/use-follow.js';
import { nodePath } from '@kit/lib/format.js';
import { formatSeconds } from './job-status.js';

function BudgetBar({ budget, label, testId }: { budget: Budget; label: string; testId: string }) {
  const text = `${budget.used}${budget.allowed !== undefined ? ` / ${budget.allowed}` : ''}`;
  return (
    <span data-testid={testId} data-used={budget.used} data-allowed={budget.allowed ?? ''}>
      {budget.allowed ? (
        <ProgressBar
          value={Math.min(100, (budget.used / budget.allowed) * 100)}
          status={budget.used >= budget.allowed ? 'error' : 'in-progress'}
          resultText={`${text} used`}
          additionalInfo={label}
          description={text}
        />
      ) : (
        <Box>{`${text} (no limit)`}</Box>
      )}
    </span>
  );
}

/**
 * The recovery budget as the operator counts it: all restarts of jobMaxRetryCount, full-job restarts
 * of their limit, the escalation window, and the last fault with links to its instances' node view.
 */
export function RecoveryBudget({
  cluster,
  region,
  recovery,
}: {
  cluster: string;
  region: string | undefined;
  recovery: Recovery;
}) {
  const follow = useFollow();
  const items = [];
  if (recovery.processRestarts)
    items.push({
      label: 'Restarts (all levels)',
      value: (
        <BudgetBar
          budget={recovery.processRestarts}
          label="the job's retry limit (run policy)"
          testId="training-budget-restarts"
        />
      ),
    });
  if (recovery.fullJobRestarts)
    items.push({
      label: 'Full-job restarts',
      value: (
        <BudgetBar
          budget={recovery.fullJobRestarts}
          label="the job's limit of full restarts (restart policy)"
          testId="training-budget-full"
        />
      ),
    });
  if (recovery.jobRetries)
    items.push({
      label: 'Job retries (Ray)',
      value: (
        <BudgetBar budget={recovery.jobRetries} label="the RayJob's retry limit" testId="training-budget-retries" />
      ),
    });
  if (recovery.window)
    items.push({
      label: 'Escalation window',
      value: `${recovery.window.restarts}${recovery.window.beforeFullJobRestart !== undefined ? ` of ${recovery.window.beforeFullJobRestart}` : ''} process restarts before a full-job restart · window ${formatSeconds(recovery.window.evalPeriodSeconds)}`,
    });
  const f = recovery.lastFault;
  if (f)
    items.push({
      label: 'Last fault',
      value: (
        <SpaceBetween size="xxs">
          <span data-testid="training-last-fault">{`${f.restartType} (${f.level === 'process' ? 'process-level restart' : f.level === 'job' ? 'full-job restart' : 'restart'}) · ranks ${f.ranks.join(', ') || '—'} · pods ${f.pods.join(', ') || '—'}`}</span>
          <span>
            {f.instances.map((id, i) => (
              <span key={id}>
                {i > 0 && ', '}
                <Link href={nodePath(cluster, region, id)} onFollow={follow}>
                  {id}
                </Link>
              </span>
            ))}
          </span>
        </SpaceBetween>
      ),
    });
  return (
    <Container
      data-testid="training-recovery"
      header={
        <Header
          variant="h2"
          description={
            recovery.exhausted
              ? 'A limit is reached: the next fault fails the job (or did).'
              : 'What the operator may still spend on faults.'
          }
        >
          Recovery budget
        </Header>
      }
    >
      {items.length ? (
        <KeyValuePairs columns={Math.min(4, items.length) as 1 | 2 | 3 | 4} items={items} />
      ) : (
        <Box color="text-status-inactive">No budget reported.</Box>
      )}
    </Container>
  );
}
