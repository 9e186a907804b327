import Alert from '@cloudscape-design/components/alert';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table from '@cloudscape-design/components/table';
import type { QuotaCheckResult } from '@kit/api/types.js';
import { PreflightProblemList } from '@kit/components/PreflightProblemList.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { inFormWords } from '@kit/lib/format.js';

export interface PreflightState {
  result?: QuotaCheckResult;
  error: unknown;
  loading: boolean;
  /** False while the form itself is invalid (the check would only repeat the form errors). */
  enabled: boolean;
  rerun(): void;
}

/** The backend's read-only preflight: every problem with its field, message and remedy, then the quotas. */
export function PreflightResults({ preflight }: { preflight: PreflightState }) {
  const { result, error, loading } = preflight;
  return (
    <Container
      data-testid="preflight"
      header={
        <Header
          variant="h2"
          description="Read-only checks by the server: name free, zone valid, type offered, service quotas, training plan, Kubernetes version."
          actions={
            <Button
              iconName="refresh"
              onClick={preflight.rerun}
              loading={loading}
              disabled={!preflight.enabled}
              data-testid="preflight-rerun"
            >
              Check again
            </Button>
          }
        >
          Preflight checks
        </Header>
      }
    >
      <SpaceBetween size="m">
        {!preflight.enabled && <Alert type="warning">Fix the errors in the earlier steps first.</Alert>}
        {loading && <StatusIndicator type="loading">Checking with the cloud…</StatusIndicator>}
        {!loading && error ? (
          <Alert type="error" header="The checks could not run" data-testid="preflight-error">
            <ProblemText error={error} />
          </Alert>
        ) : null}
        {!loading && result && result.problems.length === 0 && (
          <span data-testid="preflight-ok">
            <StatusIndicator type="success">No problems found: the cluster can be created.</StatusIndicator>
          </span>
        )}
        {!loading && result && result.problems.length > 0 && (
          <Alert
            type="error"
            header={`${result.problems.length} problem${result.problems.length > 1 ? 's' : ''} to fix before creating`}
            data-testid="preflight-problems"
          >
            <PreflightProblemList problems={result.problems} />
          </Alert>
        )}
        {result && result.quotas.length > 0 && (
          <Table
            variant="embedded"
            data-testid="preflight-quotas"
            items={result.quotas}
            trackBy="quotaName"
            columnDefinitions={[
              { id: 'name', header: 'Quota', cell: (q) => q.quotaName },
              { id: 'value', header: 'Limit', cell: (q) => q.value },
              { id: 'inUse', header: 'In use', cell: (q) => q.inUse },
              { id: 'requested', header: 'Requested', cell: (q) => q.requested },
              {
                id: 'ok',
                header: 'Result',
                cell: (q) => (
                  <StatusIndicator type={q.ok ? 'success' : 'error'}>
                    {q.ok ? 'Enough' : q.remedy ? inFormWords(q.remedy, undefined) : 'Too low'}
                  </StatusIndicator>
                ),
              },
            ]}
          />
        )}
      </SpaceBetween>
    </Container>
  );
}
