import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import type { Diagnosis } from '@domain/schemas/diagnostics.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useState } from 'react';
import { diagnoseClusterCreation, diagnoseNccl, diagnoseNode, useDiagnosis } from './api.js';
import { DiagnosisView } from './DiagnosisView.js';

interface DiagnoseProps {
  title: string;
  testId: string;
  queryKey: readonly unknown[];
  read(): Promise<Diagnosis>;
  variant?: 'normal' | 'primary';
}

/** A "Diagnose" button opening the diagnosis in a modal; it reads when opened, and again on "Diagnose again". */
function DiagnoseButton({ title, testId, queryKey, read, variant = 'normal' }: DiagnoseProps) {
  const [open, setOpen] = useState(false);
  const diagnosis = useDiagnosis(queryKey, read, open);
  return (
    <>
      <Button variant={variant} iconName="search" onClick={() => setOpen(true)} data-testid={testId}>
        Diagnose
      </Button>
      {open && (
        <Modal
          visible
          size="large"
          header={title}
          onDismiss={() => setOpen(false)}
          data-testid={`${testId}-modal`}
          footer={
            <Box float="right">
              <SpaceBetween direction="horizontal" size="xs">
                <Button onClick={() => diagnosis.refetch()} loading={diagnosis.isFetching}>
                  Diagnose again
                </Button>
                <Button variant="primary" onClick={() => setOpen(false)}>
                  Close
                </Button>
              </SpaceBetween>
            </Box>
          }
        >
          {diagnosis.data ? (
            <DiagnosisView d={diagnosis.data} />
          ) : diagnosis.isError ? (
            <Alert type="error" header="The diagnosis could not be made">
              <ProblemText error={diagnosis.error} />
            </Alert>
          ) : (
            <Spinner size="large" />
          )}
        </Modal>
      )}
    </>
  );
}

/** On a failed (or running) create-cluster: why it failed, what it left behind, the fix. */
export function DiagnoseCreationButton(p: { cluster: string; region?: string; operationId?: string }) {
  return (
    <DiagnoseButton
      title={`Why the create of ${p.cluster} failed`}
      testId="diagnose-creation"
      queryKey={['creation', p.cluster, p.region ?? '', p.operationId ?? '']}
      read={() => diagnoseClusterCreation(p.cluster, p.region, p.operationId)}
    />
  );
}

/** On a node: its evidence and where it stands on investigate → reboot → replace. */
export function DiagnoseNodeButton(p: { cluster: string; region?: string; node: string }) {
  return (
    <DiagnoseButton
      title={`Diagnosis of node ${p.node}`}
      testId="diagnose-node"
      queryKey={['node', p.cluster, p.region ?? '', p.node]}
      read={() => diagnoseNode(p.cluster, p.node, p.region)}
    />
  );
}

/** On a training job: what stops or slows its NCCL traffic (timeouts in its ranks' logs, EFA, security group, zones). */
export function DiagnoseNcclButton(p: { cluster: string; region?: string; namespace: string; job: string }) {
  return (
    <DiagnoseButton
      title={`NCCL diagnosis of job ${p.namespace}/${p.job}`}
      testId="diagnose-nccl"
      queryKey={['nccl', p.cluster, p.region ?? '', p.namespace, p.job]}
      read={() => diagnoseNccl(p.cluster, p.namespace, p.job, p.region)}
    />
  );
}
