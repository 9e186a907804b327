import Checkbox from '@cloudscape-design/components/checkbox';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import { SelectField } from '@kit/components/SelectField.js';
import { option, pick } from '@kit/lib/form-kit.js';
import { useInstanceGroups } from '../../instance-groups/ui/index.js';
import { useStorageList } from '../../storage/ui/index.js';
import { useMlflowServers } from './api.js';
import type { CommonState } from './job-request.js';

interface Props {
  cluster: string;
  region: string;
  state: CommonState;
  set(patch: Partial<CommonState>): void;
  /** HyperPodPyTorchJob, RayJob, or a custom container (a HyperPodPyTorchJob). */
  kind: 'HyperPodPyTorchJob' | 'RayJob';
  custom: boolean;
  recipeImage?: string;
  errorOf(path: string): string | undefined;
}

const LAUNCH_OPTIONS = [
  option('hyperpodrun', 'Through hyperpodrun', 'Your training script, started by the HyperPod elastic agent'),
  option('as-is', 'As written', 'Your command must exec hyperpodrun itself'),
];
const text =
  (set: Props['set'], key: keyof CommonState) =>
  ({ detail }: { detail: { value: string } }) =>
    set({ [key]: detail.value });

/** The settings every job has: where it runs, on what data, how it recovers, and where it reports. */
export function CommonFields({ cluster, region, state, set, kind, custom, recipeImage, errorOf }: Props) {
  const groups = useInstanceGroups(cluster, region);
  const storages = useStorageList(cluster, region);
  const servers = useMlflowServers(region);
  const groupOptions = (groups.data ?? []).map((g) =>
    option(g.name, g.name, `${g.instanceType} · ${g.currentCount} nodes · ${g.capacityType}`),
  );
  const storageOptions = (storages.data?.storages ?? [])
    .filter((s) => s.namespace === (state.namespace.trim() || 'default'))
    .map((s) => option(s.name, s.name, `${s.kind} · ${s.access}`));
  const serverOptions = [
    option('', 'None'),
    ...(servers.data?.servers ?? []).filter((s) => s.ready).map((s) => option(s.arn, s.name, s.status)),
  ];
  return (
    <SpaceBetween size="m">
      <ColumnLayout columns={2}>
        <FormField
          label="Job name"
          description="Names its pods, checkpoints and outputs."
          errorText={errorOf('name')}
          data-testid="training-name"
        >
          <Input value={state.name} onChange={text(set, 'name')} placeholder="my-job" />
        </FormField>
        <FormField label="Namespace" errorText={errorOf('namespace')} data-testid="training-namespace">
          <Input value={state.namespace} onChange={text(set, 'namespace')} />
        </FormField>
        <SelectField
          label="Instance group"
          description="GPUs and EFA per pod follow from its instance type."
          errorText={errorOf('instanceGroup')}
          testId="training-group"
          options={groupOptions}
          value={state.instanceGroup}
          onChange={(v) => set({ instanceGroup: v })}
          placeholder="Choose a group"
          loading={groups.isLoading}
        />
        <FormField
          label="Nodes"
          description="One pod per node."
          errorText={errorOf('nodes')}
          data-testid="training-nodes"
        >
          <Input value={state.nodes} inputMode="numeric" onChange={text(set, 'nodes')} />
        </FormField>
        <SelectField
          label="Storage"
          description="Mounted at /data in every pod."
          errorText={
            errorOf('storage') ??
            (storages.data && storageOptions.length === 0
              ? `No storage in namespace ${state.namespace || 'default'}: add one on the Storage tab.`
              : undefined)
          }
          testId="training-storage"
          options={storageOptions}
          value={state.storage}
          onChange={(v) => set({ storage: v })}
          placeholder="Choose a storage"
          loading={storages.isLoading}
        />
        <SelectField
          label="MLflow tracking server"
          description="Where the job reports loss, throughput and learning rate."
          constraintText="Optional"
          errorText={errorOf('mlflow')}
          testId="training-mlflow"
          options={serverOptions}
          value={state.mlflow}
          onChange={(v) => set({ mlflow: v })}
          loading={servers.isLoading}
        />
      </ColumnLayout>
      {custom ? (
        <SpaceBetween size="m">
          <FormField
            label="Image"
            description="Must contain the HyperPod elastic agent (pip install hyperpod-elastic-agent, the hyperpodrun launcher): the training operator's restarts and log rules work only through it."
            errorText={errorOf('custom.image')}
            data-testid="training-custom-image"
          >
            <Input
              value={state.customImage}
              onChange={text(set, 'customImage')}
              placeholder="registry/repository:tag"
            />
          </FormField>
          <FormField
            label="Launch"
            description={
              state.customLaunch === 'hyperpodrun'
                ? "InstantStart starts your training script on every node with hyperpodrun (one process per GPU, the operator's port and log folder set)."
                : "The command runs as written: it must exec hyperpodrun itself, or the operator's restarts and log rules do nothing."
            }
            errorText={errorOf('custom.launch')}
            data-testid="training-custom-launch"
          >
            <Select
              selectedOption={pick(LAUNCH_OPTIONS, state.customLaunch)}
              options={LAUNCH_OPTIONS}
              onChange={({ detail }) =>
                set({ customLaunch: detail.selectedOption.value === 'as-is' ? 'as-is' : 'hyperpodrun' })
              }
            />
          </FormField>
          <FormField
            label="Command"
            description={
              state.customLaunch === 'hyperpodrun'
                ? 'Your training script and its arguments, one per line (a .py path, optionally after python3); a command that starts with hyperpodrun is kept as written.'
                : 'The program and its arguments, one per line.'
            }
            errorText={errorOf('custom.command')}
            data-testid="training-custom-command"
          >
            <Textarea
              value={state.customCommand}
              rows={3}
              onChange={text(set, 'customCommand')}
              placeholder={
                state.customLaunch === 'hyperpodrun'
                  ? '/data/code/train.py\n--epochs\n3'
                  : '/bin/bash\n/data/code/run.sh'
              }
            />
          </FormField>
          <FormField
            label="Arguments"
            constraintText="One per line · Optional"
            errorText={errorOf('custom.args')}
            data-testid="training-custom-args"
          >
            <Textarea value={state.customArgs} rows={2} onChange={text(set, 'customArgs')} />
          </FormField>
        </SpaceBetween>
      ) : (
        <FormField
          label="Image override"
          description="Replace the recipe's pinned image (same framework, your build or mirror)."
          constraintText={recipeImage ? `Default: ${recipeImage}` : undefined}
          errorText={errorOf('image')}
          data-testid="training-image"
        >
          <Input value={state.image} onChange={text(set, 'image')} placeholder={recipeImage} />
        </FormField>
      )}
      <ExpandableSection headerText="Fault tolerance" variant="footer" data-testid="training-fault-tolerance">
        <SpaceBetween size="s">
          <FormField
            label="Recovery budget (jobMaxRetryCount)"
            description={
              kind === 'RayJob'
                ? 'Whole-job retries, each on a new Ray cluster.'
                : 'Restarts of any level the job may use before it fails.'
            }
            constraintText="Default: 10"
            errorText={errorOf('faultTolerance.jobMaxRetryCount')}
          >
            <Input value={state.retries} inputMode="numeric" onChange={text(set, 'retries')} placeholder="10" />
          </FormField>
          {kind === 'HyperPodPyTorchJob' && (
            <>
              <Checkbox
                checked={state.jobStart}
                onChange={({ detail }) => set({ jobStart: detail.checked })}
                description="HANGING when no training step line appears in time."
              >
                Job-start deadline
              </Checkbox>
              {state.jobStart && (
                <Input
                  value={state.jobStartCutoff}
                  onChange={text(set, 'jobStartCutoff')}
                  placeholder="1800 seconds"
                  ariaLabel="Job-start deadline in seconds"
                />
              )}
              <Checkbox
                checked={state.hang}
                onChange={({ detail }) => set({ hang: detail.checked })}
                description="HANGING when step lines stop; the operator restarts the job."
                data-testid="training-hang"
              >
                Hang detection
              </Checkbox>
              {state.hang && (
                <Input
                  value={state.hangGap}
                  onChange={text(set, 'hangGap')}
                  placeholder="600 seconds"
                  ariaLabel="Longest silence in seconds"
                />
              )}
              <Checkbox
                checked={state.lowThroughput}
                onChange={({ detail }) => set({ lowThroughput: detail.checked })}
                description="SLOW when tokens/s stays below a floor."
              >
                Throughput floor
              </Checkbox>
              {state.lowThroughput && (
                <FormField errorText={errorOf('faultTolerance.logMonitoring.lowThroughput.tokensPerSecondBelow')}>
                  <Input
                    value={state.tokensBelow}
                    onChange={text(set, 'tokensBelow')}
                    placeholder="tokens/s"
                    ariaLabel="Tokens per second below"
                  />
                </FormField>
              )}
              {errorOf('faultTolerance.logMonitoring') && (
                <FormField errorText={errorOf('faultTolerance.logMonitoring')} />
              )}
            </>
          )}
          {errorOf('faultTolerance') && <FormField errorText={errorOf('faultTolerance')} />}
        </SpaceBetween>
      </ExpandableSection>
      <ExpandableSection headerText="Elastic size" variant="footer" data-testid="training-elastic">
        <SpaceBetween size="s">
          <Checkbox
            checked={state.elastic}
            onChange={({ detail }) => set({ elastic: detail.checked })}
            description="Grow and shrink between min and max nodes (hyperpodrun jobs; not on spot groups or with tiered checkpointing)."
          >
            Elastic
          </Checkbox>
          {state.elastic && (
            <ColumnLayout columns={2}>
              <FormField label="Min nodes" errorText={errorOf('elastic.minReplicas')}>
                <Input value={state.minReplicas} inputMode="numeric" onChange={text(set, 'minReplicas')} />
              </FormField>
              <FormField label="Max nodes" errorText={errorOf('elastic.maxReplicas')}>
                <Input value={state.maxReplicas} inputMode="numeric" onChange={text(set, 'maxReplicas')} />
              </FormField>
            </ColumnLayout>
          )}
          {errorOf('elastic') && <FormField errorText={errorOf('elastic')} data-testid="training-elastic-error" />}
          {errorOf('checkpointless') && <FormField errorText={errorOf('checkpointless')} />}
        </SpaceBetween>
      </ExpandableSection>
      <SpaceBetween size="xs">
        <Checkbox
          checked={state.saveAsTemplate}
          onChange={({ detail }) => set({ saveAsTemplate: detail.checked })}
          data-testid="training-save-template"
        >
          Save as template of this cluster
        </Checkbox>
        {state.saveAsTemplate && (
          <FormField
            label="Template name"
            errorText={errorOf('saveAsTemplate.name') ?? errorOf('saveAsTemplate')}
            data-testid="training-template-name"
          >
            <Input value={state.templateName} onChange={text(set, 'templateName')} />
          </FormField>
        )}
      </SpaceBetween>
    </SpaceBetween>
  );
}
