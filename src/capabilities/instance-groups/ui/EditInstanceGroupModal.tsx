import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import RadioGroup from '@cloudscape-design/components/radio-group';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import { UpdateInstanceGroupRequestSchema } from '@domain/schemas/instance-groups.js';
import { useStartOperation } from '@kit/api/queries.js';
import type { Accepted, InstanceGroupView } from '@kit/api/types.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useState } from 'react';
import { updateInstanceGroup } from './api.js';
import { formOf, type GroupEditForm, groupEdit, type PatchingChoice } from './group-edit.js';

interface Props {
  cluster: string;
  region: string;
  group: InstanceGroupView;
  onDismiss(): void;
  onStarted(accepted: Accepted): void;
}

/**
 * Edits what HyperPod lets a group change besides its count: labels, taints, lifecycle scripts, scheduled AMI
 * updates and automatic patching. Only what differs is sent (one update operation). Taints can evict pods and
 * patching restarts nodes: the dialog says what the change does and the user accepts it before Save starts it.
 */
export function EditInstanceGroupModal({ cluster, region, group, onDismiss, onStarted }: Props) {
  const [form, setForm] = useState<GroupEditForm>(() => formOf(group));
  const [accepted, setAccepted] = useState(false);
  const edit = groupEdit(group, form);
  const body = { ...edit.changes, region };
  const parsed = UpdateInstanceGroupRequestSchema.safeParse(body);
  // The schema's words under the field they are about (labels by key, taints by line, lifecycle by part).
  const issue = (field: string) => (parsed.success ? undefined : parsed.error.issues.find((i) => i.path[0] === field));
  const problem = (field: string) => {
    const i = issue(field);
    return i ? `${i.path.slice(1).join('.') ? `${i.path.slice(1).join('.')}: ` : ''}${i.message}` : undefined;
  };
  const changed = Object.keys(edit.changes).length > 0;
  const readable = Object.keys(edit.errors).length === 0;
  const start = useStartOperation(() => updateInstanceGroup(cluster, group.name, body), onStarted);
  const set = (patch: Partial<GroupEditForm>) => {
    setForm({ ...form, ...patch });
    setAccepted(false);
  };
  const setLifecycle = (patch: Partial<GroupEditForm['lifecycle']>) =>
    set({ lifecycle: { ...form.lifecycle, ...patch } });
  const disabledReason =
    !readable || !parsed.success
      ? 'Fix the fields marked in red'
      : !changed
        ? 'Change a setting first'
        : edit.consequences.length > 0 && !accepted
          ? 'Accept what the change does first'
          : undefined;
  return (
    <Modal
      visible
      size="large"
      onDismiss={onDismiss}
      header={`Edit ${group.name}`}
      data-testid="group-edit-modal"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss}>
              Cancel
            </Button>
            <Button
              variant="primary"
              disabled={disabledReason !== undefined}
              disabledReason={disabledReason}
              loading={start.isPending}
              onClick={() => start.mutate()}
              data-testid="group-edit-submit"
            >
              Save changes
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="m">
        <Box variant="p">
          Instance type, capacity, network interface and zone are fixed for a group&apos;s lifetime; the count changes
          with Scale.
        </Box>
        <ColumnLayout columns={2}>
          <FormField
            label="Kubernetes labels"
            description="One key=value a line. HyperPod keeps them on every node of the group."
            errorText={edit.errors.labels ?? problem('labels')}
            data-testid="group-edit-labels"
          >
            <Textarea
              value={form.labels}
              rows={4}
              onChange={({ detail }) => set({ labels: detail.value })}
              placeholder="team=research"
            />
          </FormField>
          <FormField
            label="Taints"
            description="One key=value:Effect a line (NoSchedule, PreferNoSchedule or NoExecute). Pods need a matching toleration."
            errorText={edit.errors.taints ?? problem('taints')}
            data-testid="group-edit-taints"
          >
            <Textarea
              value={form.taints}
              rows={4}
              onChange={({ detail }) => set({ taints: detail.value })}
              placeholder="dedicated=training:NoSchedule"
            />
          </FormField>
        </ColumnLayout>
        <FormField
          label="Lifecycle scripts"
          description="Run by nodes created from now on. The execution role must be able to read the folder."
          errorText={problem('lifecycleConfig')}
          data-testid="group-edit-lifecycle"
        >
          <ColumnLayout columns={3}>
            <FormField label="S3 folder">
              <Input
                value={form.lifecycle.sourceS3Uri}
                onChange={({ detail }) => setLifecycle({ sourceS3Uri: detail.value })}
                placeholder="s3://sagemaker-my-bucket/lifecycle/"
                data-testid="group-edit-lifecycle-uri"
              />
            </FormField>
            <FormField label="On create">
              <Input
                value={form.lifecycle.onCreate}
                onChange={({ detail }) => setLifecycle({ onCreate: detail.value })}
                placeholder="on_create.sh"
                data-testid="group-edit-lifecycle-on-create"
              />
            </FormField>
            <FormField label="After initialisation (optional)">
              <Input
                value={form.lifecycle.onInitComplete}
                onChange={({ detail }) => setLifecycle({ onInitComplete: detail.value })}
              />
            </FormField>
          </ColumnLayout>
        </FormField>
        <ColumnLayout columns={2}>
          <FormField
            label="Scheduled AMI updates"
            description="A cron expression such as cron(0 3 ? * SUN *); empty for none."
            errorText={problem('scheduledUpdate')}
            data-testid="group-edit-ami-schedule"
          >
            <Input
              value={form.amiSchedule}
              onChange={({ detail }) => set({ amiSchedule: detail.value })}
              placeholder="cron(0 3 ? * SUN *)"
            />
          </FormField>
          <FormField label="Automatic patching" errorText={problem('autoPatch')} data-testid="group-edit-patching">
            <RadioGroup
              value={form.patching}
              onChange={({ detail }) => set({ patching: detail.value as PatchingChoice })}
              items={[
                { value: 'off', label: 'Off' },
                {
                  value: 'WhenIdle',
                  label: 'When a node is idle',
                  description: 'Each node is patched and restarted when it runs no pods.',
                },
                { value: 'WhenAllIdle', label: 'When the whole group is idle' },
              ]}
            />
          </FormField>
        </ColumnLayout>
        {edit.consequences.length > 0 && (
          <Alert type="warning" header="What this change does" data-testid="group-edit-consequences">
            <SpaceBetween size="xs">
              <ul style={{ margin: 0, paddingInlineStart: 20 }}>
                {edit.consequences.map((c) => (
                  <li key={c}>{c}</li>
                ))}
              </ul>
              <Checkbox
                checked={accepted}
                onChange={({ detail }) => setAccepted(detail.checked)}
                data-testid="group-edit-accept"
              >
                I understand; make the change.
              </Checkbox>
            </SpaceBetween>
          </Alert>
        )}
        {start.error && (
          <Alert type="error">
            <ProblemText error={start.error} />
          </Alert>
        )}
      </SpaceBetween>
    </Modal>
  );
}
