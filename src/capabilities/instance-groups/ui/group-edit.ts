/**
 * The edit dialog's form of a group's settings (labels, taints, lifecycle scripts, AMI updates, patching) as text a
 * person types, and the PATCH body it makes: only what differs from the group (the diff contract), with what each
 * change does to running work said before the user confirms.
 */
import type { InstanceGroupView, UpdateInstanceGroupRequest } from '@domain/schemas/instance-groups.js';

type Taint = InstanceGroupView['taints'][number];
export type PatchingChoice = 'off' | 'WhenIdle' | 'WhenAllIdle';

export interface GroupEditForm {
  /** One `key=value` a line. */
  labels: string;
  /** One `key=value:Effect` (or `key:Effect`) a line, as kubectl taint writes them. */
  taints: string;
  lifecycle: { sourceS3Uri: string; onCreate: string; onInitComplete: string };
  /** A cron expression, or '' for no scheduled AMI updates. */
  amiSchedule: string;
  patching: PatchingChoice;
}

export const formatLabels = (labels: Record<string, string>) =>
  Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
export const formatTaints = (taints: Taint[]) =>
  taints.map((t) => `${t.key}${t.value !== undefined ? `=${t.value}` : ''}:${t.effect}`).join('\n');

/** The form filled from the group as HyperPod describes it. */
export function formOf(g: InstanceGroupView): GroupEditForm {
  return {
    labels: formatLabels(g.labels),
    taints: formatTaints(g.taints),
    lifecycle: {
      sourceS3Uri: g.lifecycleConfig?.sourceS3Uri ?? '',
      onCreate: g.lifecycleConfig?.onCreate ?? '',
      onInitComplete: g.lifecycleConfig?.onInitComplete ?? '',
    },
    amiSchedule: g.scheduledUpdate?.scheduleExpression ?? '',
    patching: g.autoPatch?.patchingStrategy ?? 'off',
  };
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** `key=value` lines → labels, or the first line that is not one (the schema judges keys and values). */
export function parseLabels(text: string): { labels: Record<string, string> } | { error: string } {
  const labels: Record<string, string> = {};
  for (const line of lines(text)) {
    const at = line.indexOf('=');
    if (at <= 0) return { error: `"${line}" is not key=value` };
    labels[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return { labels };
}

/** `key=value:Effect` or `key:Effect` lines → taints, or the first line that is not one. */
export function parseTaints(text: string): { taints: Taint[] } | { error: string } {
  const taints: Taint[] = [];
  for (const line of lines(text)) {
    const colon = line.lastIndexOf(':');
    if (colon <= 0)
      return { error: `"${line}" is not key=value:Effect (Effect: NoSchedule, PreferNoSchedule or NoExecute)` };
    const [key, value] = line.slice(0, colon).split(/=(.*)/s) as [string, string | undefined];
    taints.push({
      key: key.trim(),
      ...(value !== undefined ? { value: value.trim() } : {}),
      effect: line.slice(colon + 1).trim(),
    });
  }
  return { taints };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const sortedLabels = (l: Record<string, string>) =>
  Object.fromEntries(Object.entries(l).sort(([a], [b]) => a.localeCompare(b)));

export interface GroupEdit {
  /** The PATCH body: only the fields that differ from the group. */
  changes: Partial<
    Pick<UpdateInstanceGroupRequest, 'labels' | 'taints' | 'lifecycleConfig' | 'scheduledUpdate' | 'autoPatch'>
  >;
  /** A line the form cannot read, by field. */
  errors: Partial<Record<'labels' | 'taints', string>>;
  /** What the changes do to nodes and running work, for the user to accept before the change starts. */
  consequences: string[];
}

/** The change the form asks for, against the group as described. */
export function groupEdit(g: InstanceGroupView, form: GroupEditForm): GroupEdit {
  const changes: GroupEdit['changes'] = {};
  const errors: GroupEdit['errors'] = {};
  const consequences: string[] = [];
  const labels = parseLabels(form.labels);
  if ('error' in labels) errors.labels = labels.error;
  else if (!same(sortedLabels(labels.labels), sortedLabels(g.labels))) {
    changes.labels = labels.labels;
    consequences.push(
      'Labels change on every node of the group: pods whose node selector or affinity no longer matches are not moved, but new ones may not be placed there.',
    );
  }
  const taints = parseTaints(form.taints);
  if ('error' in taints) errors.taints = taints.error;
  else if (!same(taints.taints, g.taints)) {
    changes.taints = taints.taints as UpdateInstanceGroupRequest['taints'];
    // Taking a taint away evicts nothing; a new one keeps pods off, and a new NoExecute one evicts them.
    const added = taints.taints.filter((t) => !g.taints.some((o) => same(o, t)));
    if (added.some((t) => t.effect === 'NoExecute')) {
      consequences.push(
        "A new NoExecute taint evicts every running pod on the group's nodes that does not tolerate it: their jobs stop or restart elsewhere.",
      );
    } else if (added.length > 0)
      consequences.push("New taints keep pods without a matching toleration off the group's nodes from now on.");
  }
  const lc = form.lifecycle;
  const wantsLifecycle = lc.sourceS3Uri.trim() !== '' || lc.onCreate.trim() !== '';
  const lifecycle = {
    sourceS3Uri: lc.sourceS3Uri.trim(),
    onCreate: lc.onCreate.trim(),
    ...(lc.onInitComplete.trim() ? { onInitComplete: lc.onInitComplete.trim() } : {}),
  };
  if (wantsLifecycle && !same(lifecycle, g.lifecycleConfig ?? null)) {
    changes.lifecycleConfig = lifecycle;
    consequences.push(
      'New lifecycle scripts run only on nodes created from now on (new, replaced or recovered nodes); nodes running now keep what they ran.',
    );
  }
  const schedule = form.amiSchedule.trim();
  if (schedule !== (g.scheduledUpdate?.scheduleExpression ?? '')) {
    // The batch and pause already set stay as they were: the dialog edits the schedule.
    const { scheduleExpression: _was, ...rest } = g.scheduledUpdate ?? { scheduleExpression: '' };
    changes.scheduledUpdate = schedule ? { scheduleExpression: schedule, ...rest } : null;
    if (schedule)
      consequences.push(
        `AMI updates roll over the group on the schedule ${schedule}: each node is replaced in turn, and work running on it stops.`,
      );
  }
  if (form.patching !== (g.autoPatch?.patchingStrategy ?? 'off')) {
    changes.autoPatch = form.patching === 'off' ? null : { patchingStrategy: form.patching };
    if (form.patching !== 'off') {
      consequences.push(
        form.patching === 'WhenIdle'
          ? 'Automatic patching restarts each node when it runs no pods.'
          : "Automatic patching restarts the group's nodes when the whole group is idle.",
      );
    }
  }
  return { changes, errors, consequences };
}
