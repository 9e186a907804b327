import Alert from '@cloudscape-design/components/alert';
import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import CopyToClipboard from '@cloudscape-design/components/copy-to-clipboard';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import type { Diagnosis, Finding, SuggestedCommand } from '@domain/schemas/diagnostics.js';

const SEVERITY: Record<Finding['severity'], { type: StatusIndicatorProps.Type; label: string }> = {
  critical: { type: 'error', label: 'Cause' },
  warning: { type: 'warning', label: 'Warning' },
  info: { type: 'info', label: 'Checked' },
};

const STAGES = ['investigate', 'reboot', 'replace'] as const;

function FindingItem({ f }: { f: Finding }) {
  const s = SEVERITY[f.severity];
  return (
    <ExpandableSection
      defaultExpanded={f.severity !== 'info'}
      data-testid="diagnosis-finding"
      data-code={f.code}
      data-severity={f.severity}
      headerText={
        <SpaceBetween direction="horizontal" size="xs">
          <StatusIndicator type={s.type}>{s.label}</StatusIndicator>
          <span>{f.title}</span>
        </SpaceBetween>
      }
      headerDescription={`Code ${f.code}`}
    >
      <SpaceBetween size="xs">
        <Box>{f.explanation}</Box>
        {f.evidence.length > 0 && (
          <ul data-testid="diagnosis-evidence" style={{ margin: 0, paddingInlineStart: 20 }}>
            {f.evidence.map((e, i) => (
              <li key={`${e.source}-${i}`}>
                <Box variant="small" display="inline">{`${e.source}: `}</Box>
                <Box variant="code" display="inline">
                  {e.detail}
                </Box>
              </li>
            ))}
          </ul>
        )}
      </SpaceBetween>
    </ExpandableSection>
  );
}

function Suggestion({ s }: { s: SuggestedCommand }) {
  return (
    <SpaceBetween size="xxs" data-testid="diagnosis-suggestion" data-mutating={String(s.mutating)}>
      <SpaceBetween direction="horizontal" size="xs">
        <Badge color={s.mutating ? 'red' : 'grey'}>{s.mutating ? 'Changes something — ask first' : 'Read-only'}</Badge>
        <Box variant="small">{`${s.kind} · ${s.description}`}</Box>
      </SpaceBetween>
      <CopyToClipboard
        variant="inline"
        textToCopy={s.command}
        copyButtonAriaLabel="Copy command"
        copySuccessText="Command copied"
        copyErrorText="Command not copied"
      />
    </SpaceBetween>
  );
}

/**
 * A diagnosis as a person reads it: the summary, where a node stands on investigate → reboot → replace, each finding
 * with its evidence, and the suggested commands as copyable text (the ones that change something marked). Nothing
 * here runs a command: the diagnosis is read-only, and so is its view.
 */
export function DiagnosisView({ d }: { d: Diagnosis }) {
  const cause = d.findings.some((f) => f.severity === 'critical');
  return (
    <SpaceBetween size="m" data-testid="diagnosis">
      <Alert type={cause ? 'error' : 'info'} header="Diagnosis (read-only)">
        <span data-testid="diagnosis-summary">{d.summary}</span>
      </Alert>
      {d.escalation && (
        <Box data-testid="diagnosis-escalation" data-stage={d.escalation.stage}>
          <SpaceBetween direction="horizontal" size="xs">
            {STAGES.map((stage) => (
              <Badge key={stage} color={stage === d.escalation?.stage ? 'blue' : 'grey'}>
                {stage}
              </Badge>
            ))}
          </SpaceBetween>
          <Box variant="small">{d.escalation.why}</Box>
        </Box>
      )}
      <Container
        header={
          <Header variant="h3" counter={`(${d.findings.length})`}>
            Findings
          </Header>
        }
      >
        <SpaceBetween size="xs">
          {d.findings.map((f, i) => (
            <FindingItem key={`${f.code}-${i}`} f={f} />
          ))}
        </SpaceBetween>
      </Container>
      <Container
        header={
          <Header variant="h3" description="Not run: copy one, or ask the agent to run it after you said yes.">
            Suggested next steps
          </Header>
        }
      >
        <SpaceBetween size="s">
          {d.suggestions.length === 0 ? (
            <Box>Nothing to do.</Box>
          ) : (
            d.suggestions.map((s, i) => <Suggestion key={`${s.command}-${i}`} s={s} />)
          )}
        </SpaceBetween>
      </Container>
    </SpaceBetween>
  );
}
