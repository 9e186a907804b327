import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Wizard from '@cloudscape-design/components/wizard';
import { keys } from '@kit/api/queries.js';
import { useConfig } from '@kit/api/server-config.js';
import { ProblemText, useNotifications } from '@kit/hooks/notifications.js';
import { operationPath } from '@kit/lib/format.js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { preflightCluster, useAvailabilityZones } from '../../catalog/ui/index.js';
import { createCluster, planCluster } from './api.js';
import { CapacityStep } from './wizard/CapacityStep.js';
import { useCapacityCheck } from './wizard/capacity-check.js';
import { digest, initialForm, STEP_FIELDS, stepErrors, toRequest, validate, type WizardForm } from './wizard/form.js';
import { PlacementStep } from './wizard/PlacementStep.js';
import { ReviewStep } from './wizard/ReviewStep.js';
import { PlanReview } from './wizard/PlanReview.js';
import { StorageStep } from './wizard/StorageStep.js';

const REVIEW = 3;

/**
 * Placement → Capacity → Storage → Review. Capacity checks the quotas as soon as a type and count are
 * chosen, so a count the account cannot run shows where it is typed; Review runs the whole preflight and keeps
 * "Create" disabled while it reports problems. Cancel asks first: it throws the choices away. The Idempotency-Key is
 * this wizard session plus a digest of
 * the body: a double click (or a retry after a network error) cannot create twice, while an edited
 * request after a refusal is a new request.
 */
export function CreateClusterPage() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { notify } = useNotifications();
  const config = useConfig();
  const [session] = useState(() => crypto.randomUUID());
  const [form, setForm] = useState<WizardForm>(() => initialForm());
  const [step, setStep] = useState(0);
  const [touchedSteps, setTouchedSteps] = useState<Set<number>>(new Set());
  const [confirmCancel, setConfirmCancel] = useState(false);

  useEffect(() => {
    if (config.data && !form.region) setForm((f) => ({ ...f, region: config.data.region }));
  }, [config.data, form.region]);

  const zones = useAvailabilityZones(form.region || undefined);
  const errors = useMemo(() => {
    const e = validate(form);
    const zoneKnown = zones.data?.some((z) => z.name === form.availabilityZone && z.state === 'available');
    if (form.availabilityZone && zones.data && !zoneKnown)
      e.availabilityZone = `${form.availabilityZone} is not an available zone of ${form.region}.`;
    return e;
  }, [form, zones.data]);
  const request = useMemo(() => toRequest(form), [form]);
  const requestJson = JSON.stringify(request);
  const formValid = Object.keys(errors).length === 0;
  const capacity = useCapacityCheck(form);

  const preflight = useQuery({
    queryKey: ['preflight', requestJson],
    queryFn: () => preflightCluster(request),
    enabled: step === REVIEW && formValid,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

  // The plan (what the create makes, and its hourly cost) beside the preflight: reads only.
  const plan = useQuery({
    queryKey: ['cluster-plan', requestJson],
    queryFn: () => planCluster(request),
    enabled: step === REVIEW && formValid,
    staleTime: 60_000,
    retry: false,
  });

  // A second click before React re-renders the button as loading must not send a second request.
  const inFlight = useRef(false);
  const submit = useMutation({
    mutationFn: () => createCluster(request, `create-cluster:${session}:${digest(requestJson)}`),
    onSettled: () => {
      inFlight.current = false;
    },
    onSuccess: (accepted) => {
      qc.setQueryData(keys.operation(accepted.operation.id), accepted.operation);
      void qc.invalidateQueries({ queryKey: keys.clusters });
      void qc.invalidateQueries({ queryKey: keys.operationList });
      notify({
        type: 'success',
        header: accepted.existing
          ? `An operation for ${form.name} was already running`
          : `Creating cluster ${form.name}`,
      });
      navigate(operationPath(accepted.operation.id));
    },
    onError: () => void preflight.refetch(),
  });

  const update = (patch: Partial<WizardForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    submit.reset();
  };
  const shownErrors = (s: number) => (touchedSteps.has(s) ? stepErrors(errors, s) : {});
  const firstStepWithErrors = (upTo: number) =>
    STEP_FIELDS.slice(0, upTo).findIndex((_, s) => Object.keys(stepErrors(errors, s)).length > 0);

  const navigateTo = (requested: number) => {
    if (requested <= step) return setStep(requested);
    // Moving forward: every step before the target must be valid.
    const bad = firstStepWithErrors(requested);
    setTouchedSteps((t) => new Set([...t, ...Array.from({ length: requested }, (_, i) => i)]));
    setStep(bad === -1 ? requested : bad);
  };

  const problems = preflight.data?.problems.length ?? 0;
  const doSubmit = () => {
    if (inFlight.current) return;
    inFlight.current = true;
    submit.mutate();
  };
  const canSubmit =
    formValid &&
    preflight.isSuccess &&
    !preflight.isFetching &&
    preflight.data.ok &&
    problems === 0 &&
    !submit.isPending;
  const disabledReason = !formValid
    ? 'Fix the errors in the earlier steps'
    : preflight.isFetching
      ? 'Preflight checks are running'
      : preflight.isError
        ? 'The preflight checks could not run'
        : problems > 0
          ? `Fix the ${problems} preflight problem${problems > 1 ? 's' : ''} first`
          : undefined;

  const props = { form, update };
  const cancel = () => setConfirmCancel(true);
  return (
    <>
      <Modal
        visible={confirmCancel}
        onDismiss={() => setConfirmCancel(false)}
        header="Leave the create wizard?"
        data-testid="wizard-cancel-confirm"
        footer={
          <Box float="right">
            <SpaceBetween direction="horizontal" size="xs">
              <Button variant="link" onClick={() => setConfirmCancel(false)} data-testid="wizard-cancel-stay">
                Keep editing
              </Button>
              <Button variant="primary" onClick={() => navigate('/clusters')} data-testid="wizard-cancel-leave">
                Leave
              </Button>
            </SpaceBetween>
          </Box>
        }
      >
        Nothing has been created. The choices made in this wizard are lost.
      </Modal>
      <Wizard
        data-testid="create-cluster-wizard"
        activeStepIndex={step}
        onNavigate={(e) => navigateTo(e.detail.requestedStepIndex)}
        onCancel={cancel}
        onSubmit={() => canSubmit && doSubmit()}
        submitButtonText="Create cluster"
        isLoadingNextStep={submit.isPending}
        i18nStrings={{
          stepNumberLabel: (n) => `Step ${n}`,
          collapsedStepsLabel: (n, total) => `Step ${n} of ${total}`,
          navigationAriaLabel: 'Steps',
          cancelButton: 'Cancel',
          previousButton: 'Previous',
          nextButton: 'Next',
          optional: 'optional',
        }}
        customPrimaryActions={
          step === REVIEW ? (
            <SpaceBetween direction="horizontal" size="xs">
              <Button variant="link" onClick={cancel} data-testid="wizard-cancel">
                Cancel
              </Button>
              <Button onClick={() => setStep(REVIEW - 1)} data-testid="wizard-previous">
                Previous
              </Button>
              <Button
                variant="primary"
                disabled={!canSubmit}
                disabledReason={disabledReason}
                loading={submit.isPending}
                onClick={doSubmit}
                data-testid="wizard-submit"
              >
                Create cluster
              </Button>
            </SpaceBetween>
          ) : undefined
        }
        steps={[
          {
            title: 'Placement',
            description: 'Where the cluster runs.',
            content: <PlacementStep {...props} errors={shownErrors(0)} />,
          },
          {
            title: 'Capacity',
            description: 'What it runs on: instance type, count and where the capacity comes from.',
            content: <CapacityStep {...props} errors={shownErrors(1)} check={capacity} />,
          },
          {
            title: 'Storage',
            description: 'Shared storage mounted in every pod.',
            content: <StorageStep {...props} errors={shownErrors(2)} />,
          },
          {
            title: 'Review and create',
            description: 'The server checks the whole request before anything is created.',
            errorText: submit.error ? (
              <span data-testid="wizard-submit-error">
                <ProblemText error={submit.error} />
              </span>
            ) : undefined,
            content: (
              <SpaceBetween size="l">
                <ReviewStep
                  form={form}
                  goTo={setStep}
                  preflight={{
                    result: preflight.data,
                    error: preflight.error,
                    loading: preflight.isFetching,
                    enabled: formValid,
                    rerun: () => void preflight.refetch(),
                  }}
                />
                <PlanReview plan={plan.data} error={plan.error} loading={plan.isFetching} />
                <Alert type="info">
                  Creating takes a while on AWS (the EKS control plane alone takes 8–12 minutes). You will follow each
                  phase live; any failed phase can be retried alone.
                </Alert>
              </SpaceBetween>
            ),
          },
        ]}
      />
    </>
  );
}
