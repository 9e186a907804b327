import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import type { Accepted, InstanceGroupView } from '@kit/api/types.js';
import { GroupShortfallNote } from '@kit/components/ClusterHealth.js';
import { OperationLink } from '@kit/components/OperationLink.js';
import { ClusterStatus } from '@kit/components/status.js';
import { operationPath } from '@kit/lib/format.js';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { AddInstanceGroupModal } from './AddInstanceGroupModal.js';
import { useInstanceGroups } from './api.js';
import { EditInstanceGroupModal } from './EditInstanceGroupModal.js';
import { DeleteInstanceGroupModal, ScaleInstanceGroupModal } from './GroupActionModals.js';

const capacity = (g: InstanceGroupView) =>
  g.trainingPlanArn ? `training plan (${g.trainingPlanArn.split('/').pop()})` : g.capacityType;

/** The cluster page's instance groups: table, add, scale, edit, delete — each change an operation. */
export function InstanceGroupsPanel({ cluster, region }: { cluster: string; region: string }) {
  const groups = useInstanceGroups(cluster, region);
  const navigate = useNavigate();
  const [adding, setAdding] = useState(false);
  const [scaling, setScaling] = useState<InstanceGroupView | null>(null);
  const [deleting, setDeleting] = useState<InstanceGroupView | null>(null);
  const [editing, setEditing] = useState<InstanceGroupView | null>(null);
  const started = (accepted: Accepted) => navigate(operationPath(accepted.operation.id));
  const items = groups.data ?? [];
  return (
    <>
      <Table
        data-testid="instance-groups-table"
        loading={groups.isLoading}
        items={items}
        trackBy="name"
        // Fits a laptop screen with the side menu open: long cells wrap, and the actions stay in view.
        wrapLines
        stickyColumns={{ first: 0, last: 1 }}
        header={
          <Header
            variant="h2"
            counter={`(${items.length})`}
            description="Capacity type, EFA mode, instance type and zone are fixed for a group's lifetime; the count can change."
            actions={
              <Button onClick={() => setAdding(true)} data-testid="add-instance-group">
                Add instance group
              </Button>
            }
          >
            Instance groups
          </Header>
        }
        columnDefinitions={[
          {
            id: 'name',
            header: 'Name',
            cell: (g) => <span data-testid={`group-row-${g.name}`}>{g.name}</span>,
            isRowHeader: true,
          },
          { id: 'type', header: 'Instance type', cell: (g) => g.instanceType },
          {
            id: 'count',
            header: 'Instances (current / target)',
            cell: (g) => (
              <SpaceBetween size="xxxs">
                <span data-testid={`group-count-${g.name}`}>{`${g.currentCount} / ${g.targetCount}`}</span>
                {g.shortfall && <GroupShortfallNote shortfall={g.shortfall} />}
              </SpaceBetween>
            ),
          },
          { id: 'status', header: 'Status', cell: (g) => <ClusterStatus status={g.status} />, minWidth: 130 },
          { id: 'capacity', header: 'Capacity type', cell: capacity },
          { id: 'efa', header: 'Network interface', cell: (g) => g.networkInterface ?? 'ENA' },
          { id: 'subnets', header: 'Subnets', cell: (g) => g.subnetIds.join(', ') },
          {
            id: 'op',
            header: 'Operation',
            cell: (g) => (g.activeOperation ? <OperationLink op={g.activeOperation} /> : '—'),
          },
          {
            id: 'actions',
            header: 'Actions',
            cell: (g) => (
              <SpaceBetween direction="horizontal" size="xxs">
                <Button variant="inline-link" onClick={() => setScaling(g)} data-testid={`group-scale-${g.name}`}>
                  Scale
                </Button>
                <Button variant="inline-link" onClick={() => setEditing(g)} data-testid={`group-edit-${g.name}`}>
                  Edit
                </Button>
                <Button variant="inline-link" onClick={() => setDeleting(g)} data-testid={`group-delete-${g.name}`}>
                  Delete
                </Button>
              </SpaceBetween>
            ),
          },
        ]}
        empty={<Box textAlign="center">No instance groups yet</Box>}
      />
      {adding && (
        <AddInstanceGroupModal
          cluster={cluster}
          region={region}
          existing={items.map((g) => g.name)}
          onDismiss={() => setAdding(false)}
          onStarted={started}
        />
      )}
      {scaling && (
        <ScaleInstanceGroupModal
          cluster={cluster}
          region={region}
          group={scaling}
          onDismiss={() => setScaling(null)}
          onStarted={started}
        />
      )}
      {editing && (
        <EditInstanceGroupModal
          cluster={cluster}
          region={region}
          group={editing}
          onDismiss={() => setEditing(null)}
          onStarted={started}
        />
      )}
      {deleting && (
        <DeleteInstanceGroupModal
          cluster={cluster}
          region={region}
          group={deleting}
          onDismiss={() => setDeleting(null)}
          onStarted={started}
        />
      )}
    </>
  );
}
