import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import CopyToClipboard from '@cloudscape-design/components/copy-to-clipboard';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import Table from '@cloudscape-design/components/table';
import type { DoctorLine } from '@domain/schemas/doctor.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useState } from 'react';
import { useReadiness } from './api.js';

const STATUS: Record<DoctorLine['status'], { type: StatusIndicatorProps.Type; label: string }> = {
  ok: { type: 'success', label: 'OK' },
  missing: { type: 'error', label: 'Missing' },
  warning: { type: 'warning', label: 'Warning' },
};
/** A fix is an IAM statement or a command to copy: monospace, wrapped anywhere so the table fits the screen. */
const FIX_STYLE = { fontFamily: 'monospace', fontSize: 12, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } as const;
const ORDER = { missing: 0, warning: 1, ok: 2 } as const;
const AREA: Record<DoctorLine['area'], string> = {
  credentials: 'Credentials',
  permissions: 'Permissions',
  quotas: 'Quotas',
  kubernetes: 'Kubernetes',
  network: 'Network',
  cluster: 'Cluster',
};

/**
 * Is the account ready: the doctor's lines, what is missing first, each with its fix to copy. Read on opening; the
 * instance types and the role to check are the user's to change, then "Check".
 */
export function ReadinessPage() {
  const [types, setTypes] = useState('');
  const [principal, setPrincipal] = useState('');
  const [asked, setAsked] = useState<{ instanceTypes?: string; principalArn?: string }>({});
  const report = useReadiness(asked);
  const lines = [...(report.data?.lines ?? [])].sort((a, b) => ORDER[a.status] - ORDER[b.status]);
  const notOk = lines.filter((l) => l.status !== 'ok').length;
  return (
    <SpaceBetween size="l">
      <Header
        variant="h1"
        description="Whether this account and Region are ready: the server's credentials, every permission InstantStart needs (checked with IAM's policy simulator), quotas, Kubernetes versions and Elastic IP addresses. It only reads."
        actions={
          <Button
            iconName="refresh"
            data-testid="readiness-check"
            loading={report.isFetching}
            onClick={() => {
              const next = { instanceTypes: types.trim(), principalArn: principal.trim() };
              if (next.instanceTypes === asked.instanceTypes && next.principalArn === asked.principalArn)
                void report.refetch();
              else setAsked(next);
            }}
          >
            Check again
          </Button>
        }
      >
        Readiness
      </Header>
      <ColumnLayout columns={2}>
        <FormField
          label="Instance types"
          description="Comma-separated, e.g. ml.g5.8xlarge, ml.p5.48xlarge: their quotas are checked."
        >
          <Input value={types} onChange={(e) => setTypes(e.detail.value)} data-testid="readiness-types" />
        </FormField>
        <FormField
          label="Role or user to check (optional)"
          description="An IAM role or user ARN, e.g. the role the server will run as; left empty, the server's own identity."
        >
          <Input value={principal} onChange={(e) => setPrincipal(e.detail.value)} data-testid="readiness-principal" />
        </FormField>
      </ColumnLayout>
      {report.error ? (
        <Alert type="error" header="The check could not run">
          <ProblemText error={report.error} />
        </Alert>
      ) : report.data ? (
        <Alert type={report.data.ok ? 'success' : 'warning'} data-testid="readiness-verdict">
          {report.data.ok
            ? `Ready: every check is ok in ${report.data.region}.`
            : `Not ready in ${report.data.region}: ${notOk} ${notOk === 1 ? 'line' : 'lines'} to fix.`}
          {report.data.principalArn ? ` Permissions checked for ${report.data.principalArn}.` : ''}
        </Alert>
      ) : null}
      <Table
        data-testid="readiness-lines"
        items={lines}
        loading={report.isLoading}
        loadingText="Checking the account"
        wrapLines
        trackBy={(l) => `${l.area}:${l.title}`}
        columnDefinitions={[
          {
            id: 'status',
            header: 'Status',
            minWidth: 110,
            cell: (l) => (
              <span data-testid="readiness-line" data-status={l.status}>
                <StatusIndicator type={STATUS[l.status].type}>{STATUS[l.status].label}</StatusIndicator>
              </span>
            ),
          },
          { id: 'area', header: 'Area', cell: (l) => AREA[l.area] },
          { id: 'check', header: 'Check', isRowHeader: true, cell: (l) => l.title },
          { id: 'found', header: 'Found', cell: (l) => l.detail },
          {
            id: 'fix',
            header: 'Fix',
            width: 420,
            cell: (l) =>
              l.fix ? (
                <SpaceBetween size="xxs">
                  <div data-testid="readiness-fix" style={FIX_STYLE}>
                    {l.fix}
                  </div>
                  <CopyToClipboard
                    variant="button"
                    textToCopy={l.fix}
                    copySuccessText="Fix copied"
                    copyErrorText="Could not copy"
                  />
                </SpaceBetween>
              ) : (
                '—'
              ),
          },
        ]}
        empty={<Box textAlign="center">Nothing checked yet.</Box>}
      />
    </SpaceBetween>
  );
}
