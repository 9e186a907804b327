import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Header from '@cloudscape-design/components/header';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { CloudClockAt } from '@kit/components/CloudTime.js';
import { useCloudClockNote } from '@kit/hooks/cloud-clock.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useState } from 'react';
import { useInstanceGroups } from '../../../instance-groups/ui/index.js';
import { useClusterEvents } from '../api.js';
import { EventsTable } from './EventsTable.js';

const ALL: SelectProps.Option = { value: '', label: 'All instance groups' };
const LIMIT = 100;

/**
 * The cluster's event timeline: HyperPod's cluster events and Kubernetes' node events merged by the
 * server, newest first, refreshed every 10 s. What the server could not read comes as notes.
 */
export function EventsPanel({ cluster, region }: { cluster: string; region: string }) {
  const clockNote = useCloudClockNote();
  const [group, setGroup] = useState('');
  const groups = useInstanceGroups(cluster, region);
  const events = useClusterEvents(cluster, region, group || undefined, LIMIT);
  const options: SelectProps.Option[] = [ALL, ...(groups.data ?? []).map((g) => ({ value: g.name, label: g.name }))];
  const data = events.data;
  return (
    <SpaceBetween size="s">
      {data && data.notes.length > 0 && (
        <Alert type="info" header="Not every source could be read" data-testid="events-notes">
          {data.notes.length === 1 ? (
            data.notes[0]
          ) : (
            <ul style={{ margin: 0, paddingLeft: 20 }}>
              {data.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          )}
        </Alert>
      )}
      <EventsTable
        events={data?.events ?? []}
        loading={events.isLoading}
        header={
          <Header
            variant="h2"
            counter={data ? `(${data.events.length})` : undefined}
            description={
              <>
                {`HyperPod cluster events and Kubernetes node events, newest first (the latest ${LIMIT}).`}
                {events.dataUpdatedAt > 0 && (
                  <CloudClockAt localMs={events.dataUpdatedAt} lead=" Updated " tail="." testId="events-updated" />
                )}
                {clockNote ? ` ${clockNote}` : ''}
              </>
            }
          >
            Events
          </Header>
        }
        filter={
          <div data-testid="events-filter-group" style={{ maxWidth: 320 }}>
            <Select
              selectedOption={options.find((o) => o.value === group) ?? ALL}
              onChange={({ detail }) => setGroup(detail.selectedOption.value ?? '')}
              options={options}
              statusType={groups.isLoading ? 'loading' : 'finished'}
              ariaLabel="Filter events by instance group"
            />
          </div>
        }
        empty={
          events.error ? (
            <Box textAlign="center" color="text-status-error" data-testid="events-error">
              <ProblemText error={events.error} />
            </Box>
          ) : (
            <Box textAlign="center">{group ? `No events for instance group ${group}` : 'No events yet'}</Box>
          )
        }
      />
    </SpaceBetween>
  );
}
