import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table from '@cloudscape-design/components/table';
import { fieldLabel } from '@domain/field-labels.js';
import type { FeatureChanges, FeatureId, FeaturePlanAnswer } from '@domain/schemas/features.js';
import { keys } from '@kit/api/queries.js';
import { Breakable } from '@kit/components/Breakable.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { applyFeatureChanges, featureKeys, isAccepted, planFeatureChanges } from './api.js';

type Step = {
  feature: FeatureId;
  what: 'install' | 'reconfigure' | 'remove';
  why: string;
  objects: FeaturePlanAnswer['install'][number]['objects'];
};

/** The plan as rows in the order it runs: installs (needs first), then removals (dependents first). */
function stepsOf(plan: FeaturePlanAnswer): Step[] {
  return [
    ...plan.install.map((i) => ({
      feature: i.feature,
      what: i.reason === 'reconfigure' ? ('reconfigure' as const) : ('install' as const),
      why:
        i.reason === 'needed'
          ? `needed by ${i.neededBy.join(', ')}`
          : i.reason === 'reconfigure'
            ? 'settings changed'
            : 'you turned it on',
      objects: i.objects,
    })),
    ...plan.remove.map((r) => ({
      feature: r.feature,
      what: 'remove' as const,
      why: 'you turned it off',
      objects: r.objects,
    })),
  ];
}

/** A change as a person reads it: on, off, or the settings changed, by their labels. */
function changeInWords(v: unknown): string {
  if (v === true) return 'on';
  if (v === false) return 'off';
  if (typeof v === 'object' && v !== null)
    return Object.entries(v)
      .map(([k, x]) => `${fieldLabel(k).toLowerCase()} ${String(x)}`)
      .join(', ');
  return String(v);
}

const title = (titles: ReadonlyMap<FeatureId, string>, id: FeatureId) => titles.get(id) ?? id;

/**
 * The confirmation of a change of features: what the server says it would do (the plan, asked
 * before anything happens), then Apply sends exactly the same keys.
 */
export function FeaturePlanModal(props: {
  cluster: string;
  region?: string;
  changes: FeatureChanges;
  titles: ReadonlyMap<FeatureId, string>;
  onDismiss(): void;
  onApplied(result: { operationId?: string }): void;
}) {
  const { cluster, region, changes, titles } = props;
  const qc = useQueryClient();
  const plan = useQuery({
    queryKey: ['feature-plan', cluster, region ?? '', changes],
    queryFn: () => planFeatureChanges(cluster, changes, region),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  const apply = useMutation({
    mutationFn: () => applyFeatureChanges(cluster, changes, region),
    onSuccess: (answer) => {
      if (isAccepted(answer)) qc.setQueryData(keys.operation(answer.operation.id), answer.operation);
      void qc.invalidateQueries({ queryKey: featureKeys.all(cluster, region) });
      props.onApplied({ operationId: isAccepted(answer) ? answer.operation.id : undefined });
    },
  });
  const p = plan.data;
  const steps = p ? stepsOf(p) : [];
  const blocked = !p || p.refused.length > 0;
  return (
    <Modal
      visible
      size="large"
      onDismiss={props.onDismiss}
      header={`Change features of ${cluster}`}
      data-testid="features-plan-modal"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={props.onDismiss}>
              Cancel
            </Button>
            <Button
              variant="primary"
              disabled={blocked}
              loading={apply.isPending}
              onClick={() => apply.mutate()}
              data-testid="features-apply"
            >
              {p?.noOp ? 'Nothing to do' : 'Apply'}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="m">
        <Box variant="p" data-testid="features-plan-sent">
          Sending only what you changed:{' '}
          {Object.entries(changes).map(([id, v], i) => (
            <span key={id}>
              {i > 0 && ', '}
              {/* In words: "KubeRay operator: on", a feature's settings by their labels. */}
              <b>{title(titles, id as FeatureId)}</b>
              {`: ${changeInWords(v)}`}
            </span>
          ))}
        </Box>
        {plan.isLoading && <StatusIndicator type="loading">Asking the cluster what this would do</StatusIndicator>}
        {plan.error && (
          <Alert type="error" header="The change cannot be planned" data-testid="features-plan-error">
            <ProblemText error={plan.error} />
          </Alert>
        )}
        {p && p.refused.length > 0 && (
          <Alert
            type="error"
            header={
              p.refused.every((r) => r.providedBy)
                ? 'Refused: not installed by InstantStart'
                : p.refused.every((r) => r.inUseBy?.length)
                  ? 'Refused: still in use'
                  : 'Refused: another feature still needs this'
            }
            data-testid="features-plan-refused"
          >
            {p.refused.map((r) => (
              <div key={r.feature}>
                {r.providedBy
                  ? `${title(titles, r.feature)} cannot be turned off: it is provided by ${r.providedBy}, which InstantStart did not install. Remove it with the tool that installed it.`
                  : r.inUseBy?.length
                    ? `${title(titles, r.feature)} cannot be turned off while ${r.inUseBy.join(', ')} ${r.inUseBy.length === 1 ? 'uses' : 'use'} it: without it nothing deletes their load balancers. Delete them first.`
                    : `${title(titles, r.feature)} cannot be turned off while ${r.neededBy.map((n) => title(titles, n)).join(', ')} ${r.neededBy.length === 1 ? 'needs' : 'need'} it.`}
              </div>
            ))}
          </Alert>
        )}
        {p && p.noOp && (
          <Alert type="info" data-testid="features-plan-noop">
            The cluster already matches: applying changes nothing.
          </Alert>
        )}
        {p && steps.length > 0 && (
          <Table
            data-testid="features-plan-steps"
            variant="embedded"
            wrapLines
            header={<Box variant="h4">In this order</Box>}
            items={steps}
            trackBy={(s) => `${s.what}-${s.feature}`}
            columnDefinitions={[
              { id: 'n', header: '#', cell: (s) => steps.indexOf(s) + 1, width: 50 },
              {
                id: 'feature',
                header: 'Feature',
                minWidth: 130,
                cell: (s) => (
                  <span data-testid={`plan-step-${s.feature}`} data-what={s.what}>
                    {title(titles, s.feature)}
                  </span>
                ),
              },
              {
                id: 'what',
                header: 'Action',
                minWidth: 130,
                cell: (s) => (
                  <StatusIndicator wrapText={false} type={s.what === 'remove' ? 'stopped' : 'pending'}>
                    {s.what === 'install' ? 'Install' : s.what === 'remove' ? 'Remove' : 'Reconfigure'}
                  </StatusIndicator>
                ),
              },
              { id: 'why', header: 'Why', minWidth: 120, cell: (s) => s.why },
              {
                id: 'objects',
                header: 'Objects created or deleted',
                cell: (s) =>
                  s.objects.length ? (
                    <SpaceBetween size="xxxs">
                      {s.objects.map((o) => (
                        <span key={`${o.action}-${o.kind}-${o.name}`}>
                          {`${o.action} ${o.kind} `}
                          <Breakable text={o.name} />
                        </span>
                      ))}
                    </SpaceBetween>
                  ) : (
                    '—'
                  ),
              },
            ]}
          />
        )}
        {p && p.unchanged.length > 0 && !p.noOp && (
          <Box variant="small" data-testid="features-plan-unchanged">
            Already as asked (nothing done): {p.unchanged.map((u) => title(titles, u)).join(', ')}.
          </Box>
        )}
        {apply.error && (
          <Alert type="error" header="The features were not changed" data-testid="features-apply-error">
            <ProblemText error={apply.error} />
          </Alert>
        )}
      </SpaceBetween>
    </Modal>
  );
}
