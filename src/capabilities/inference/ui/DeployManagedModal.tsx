import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Link from '@cloudscape-design/components/link';
import Modal from '@cloudscape-design/components/modal';
import Multiselect from '@cloudscape-design/components/multiselect';
import SegmentedControl from '@cloudscape-design/components/segmented-control';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useFollow } from '@kit/hooks/use-follow.js';
import { clusterPath } from '@kit/lib/format.js';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useInstanceGroups } from '../../instance-groups/ui/index.js';
import { useStorageList } from '../../storage/ui/index.js';
import { useDeployManaged } from './api.js';
import { SelectField } from '@kit/components/SelectField.js';
import { fieldErrors, newIdempotencyKey, option, pick } from '@kit/lib/form-kit.js';
import { EMPTY_MANAGED, type ManagedState, managedRequestOf } from './managed-request.js';

interface Props {
  cluster: string;
  region: string;
  /** Whether the inference operator is on (the list answer says); undefined while unknown. */
  operatorOn: boolean | undefined;
  onDismiss(): void;
  onDeployed(ref: { namespace: string; name: string }): void;
}

/** The inputs on screen: the request path each owns (a refusal shows under it) → its label, which the message names. */
const LABELS = {
  name: 'Endpoint name',
  namespace: 'Namespace',
  model: 'Model source',
  'model.storage': 'Storage',
  'model.path': 'Path',
  'model.modelId': 'Model id',
  'model.revision': 'Revision',
  'model.tokenSecret': 'Token Secret',
  'model.modelVersion': 'Model version',
  'model.acceptEula': 'Licence acceptance',
  instanceTypes: 'Instance types',
  replicas: 'Replicas',
  worker: 'Model server',
  'worker.image': 'Image',
  'worker.args': 'Arguments',
  'worker.port': 'Port',
  'worker.gpus': 'GPUs per replica',
  'worker.cpu': 'CPU',
  'worker.memory': 'Memory',
  kvCache: 'KV cache',
  'kvCache.l2.url': 'Redis URL',
  routing: 'Intelligent routing',
  'autoscaling.min': 'Fewest replicas',
  'autoscaling.max': 'Most replicas',
  'autoscaling.trigger': 'Trigger',
  'autoscaling.trigger.targetValue': 'Target per replica',
  loadBalancer: 'Load balancer',
};

const STRATEGIES = [
  option('prefixaware', 'Prefix-aware', 'Requests sharing a prompt prefix go to the same worker'),
  option('kvaware', 'KV-aware', 'By the KV cache each worker holds'),
  option('session', 'Session', 'Sticky per session'),
  option('roundrobin', 'Round robin'),
];
const L2_OPTIONS = [
  option('', 'None', 'L1 only'),
  option('tieredstorage', 'Managed tiered storage', 'HyperPod managed, shared by the workers'),
  option('redis', 'Redis', 'Your Redis'),
];
const LB_ALGORITHMS = [
  option('least_outstanding_requests', 'Least outstanding requests'),
  option('round_robin', 'Round robin'),
];

/**
 * Deploy a model through the HyperPod inference operator: where the model comes from (a storage of the cluster,
 * Hugging Face, or SageMaker JumpStart with its licence accepted explicitly), the instance types the cluster's groups
 * offer, the model server, KV cache, intelligent routing (fixed once deployed), autoscaling and the load balancer.
 */
export function DeployManagedModal({ cluster, region, operatorOn, onDismiss, onDeployed }: Props) {
  const [s, setState] = useState<ManagedState>(EMPTY_MANAGED);
  const set = (patch: Partial<ManagedState>) => setState((x) => ({ ...x, ...patch }));
  const key = useMemo(() => newIdempotencyKey('deploy-managed'), []);
  const deploy = useDeployManaged(cluster, region, key);
  const groups = useInstanceGroups(cluster, region);
  const storages = useStorageList(cluster, region);
  const follow = useFollow();
  const urlRegion = useSearchParams()[0].get('region') ?? undefined;
  const { errorOf, alert } = fieldErrors(deploy.error, LABELS);
  const jumpstart = s.source === 'jumpstart';
  const text =
    (k: keyof ManagedState) =>
    ({ detail }: { detail: { value: string } }) =>
      set({ [k]: detail.value });

  // The instance types the cluster's groups run: the operator places replicas on nodes of these types.
  const typeOptions = [...new Map((groups.data ?? []).map((g) => [g.instanceType, g])).values()].map((g) =>
    option(
      g.instanceType,
      g.instanceType,
      `${(groups.data ?? [])
        .filter((x) => x.instanceType === g.instanceType)
        .map((x) => `${x.name} (${x.currentCount} nodes)`)
        .join(', ')}`,
    ),
  );
  const storageOptions = (storages.data?.storages ?? [])
    .filter((x) => x.namespace === (s.namespace.trim() || 'default'))
    .map((x) => option(x.name, x.name, x.kind === 's3' ? `S3 · ${x.bucket ?? ''}` : `FSx · ${x.fileSystemId ?? ''}`));

  const send = () => {
    const body = managedRequestOf(s);
    deploy.mutate(body, { onSuccess: () => onDeployed({ namespace: body.namespace ?? 'default', name: body.name }) });
  };

  const off = operatorOn === false;
  return (
    <Modal
      visible
      size="large"
      onDismiss={onDismiss}
      header={`Deploy a managed endpoint on ${cluster}`}
      data-testid="inference-managed-modal"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss}>
              Cancel
            </Button>
            <Button
              variant="primary"
              disabled={off}
              loading={deploy.isPending}
              onClick={send}
              data-testid="inference-managed-deploy"
            >
              Deploy
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <Form>
        <SpaceBetween size="l">
          {off && (
            <Alert type="warning" header="The HyperPod inference operator is off" data-testid="inference-operator-off">
              Managed endpoints are deployed by the HyperPod inference operator: turn it on in the{' '}
              <Link href={clusterPath(cluster, urlRegion, 'features')} onFollow={follow}>
                Features tab
              </Link>
              , then deploy here. A container endpoint needs no operator.
            </Alert>
          )}
          <ColumnLayout columns={2}>
            <FormField label="Endpoint name" errorText={errorOf('name')} data-testid="inference-managed-name">
              <Input value={s.name} onChange={text('name')} placeholder="my-model" />
            </FormField>
            <FormField label="Namespace" errorText={errorOf('namespace')} data-testid="inference-managed-namespace">
              <Input value={s.namespace} onChange={text('namespace')} />
            </FormField>
          </ColumnLayout>
          <FormField label="Model source" errorText={errorOf('model')} data-testid="inference-managed-source">
            <SegmentedControl
              selectedId={s.source}
              onChange={({ detail }) => set({ source: detail.selectedId as ManagedState['source'] })}
              options={[
                { id: 'huggingface', text: 'Hugging Face' },
                { id: 'storage', text: 'Cluster storage (S3 or FSx)' },
                { id: 'jumpstart', text: 'SageMaker JumpStart' },
              ]}
            />
          </FormField>
          {s.source === 'storage' && (
            <ColumnLayout columns={2}>
              <SelectField
                label="Storage"
                errorText={
                  errorOf('model.storage') ??
                  (storages.data && storageOptions.length === 0
                    ? `No storage in namespace ${s.namespace || 'default'}: add one on the Storage tab.`
                    : undefined)
                }
                testId="inference-managed-storage"
                options={storageOptions}
                value={s.storage}
                onChange={(v) => set({ storage: v })}
                placeholder="Choose a storage"
                loading={storages.isLoading}
              />
              <FormField
                label="Path in the storage"
                constraintText="Optional"
                errorText={errorOf('model.path')}
                data-testid="inference-managed-path"
              >
                <Input value={s.storagePath} onChange={text('storagePath')} placeholder="models/Qwen3-0.6B" />
              </FormField>
            </ColumnLayout>
          )}
          {s.source === 'huggingface' && (
            <ColumnLayout columns={3}>
              <FormField label="Model id" errorText={errorOf('model.modelId')} data-testid="inference-managed-hf-model">
                <Input value={s.hfModelId} onChange={text('hfModelId')} placeholder="Qwen/Qwen3-0.6B" />
              </FormField>
              <FormField label="Revision" constraintText="Optional: a commit SHA" errorText={errorOf('model.revision')}>
                <Input value={s.hfRevision} onChange={text('hfRevision')} />
              </FormField>
              <FormField
                label="Token Secret"
                description="For gated models: a Secret with the token under key token."
                constraintText="Optional"
                errorText={errorOf('model.tokenSecret')}
              >
                <Input value={s.hfTokenSecret} onChange={text('hfTokenSecret')} placeholder="hf-token" />
              </FormField>
            </ColumnLayout>
          )}
          {jumpstart && (
            <SpaceBetween size="m">
              <ColumnLayout columns={2}>
                <FormField
                  label="JumpStart model id"
                  errorText={errorOf('model.modelId')}
                  data-testid="inference-managed-js-model"
                >
                  <Input
                    value={s.jsModelId}
                    onChange={text('jsModelId')}
                    placeholder="deepseek-llm-r1-distill-qwen-1-5b"
                  />
                </FormField>
                <FormField
                  label="Model version"
                  constraintText="Optional: newest"
                  errorText={errorOf('model.modelVersion')}
                >
                  <Input value={s.jsVersion} onChange={text('jsVersion')} placeholder="1.0.0" />
                </FormField>
              </ColumnLayout>
              <FormField errorText={errorOf('model.acceptEula')} data-testid="inference-managed-eula">
                <Checkbox checked={s.acceptEula} onChange={({ detail }) => set({ acceptEula: detail.checked })}>
                  I have read and accept the model's end-user licence agreement. Models that have one deploy only with
                  this ticked.
                </Checkbox>
              </FormField>
            </SpaceBetween>
          )}
          <ColumnLayout columns={2}>
            <FormField
              label="Instance types"
              description={
                jumpstart ? 'One type for a JumpStart model.' : 'In order of preference; the groups of this cluster.'
              }
              errorText={
                errorOf('instanceTypes') ??
                (groups.data && typeOptions.length === 0 ? 'The cluster has no instance group yet.' : undefined)
              }
              data-testid="inference-managed-types"
            >
              <Multiselect
                selectedOptions={s.instanceTypes.map((t) => pick(typeOptions, t) ?? option(t))}
                options={typeOptions}
                onChange={({ detail }) => set({ instanceTypes: detail.selectedOptions.map((o) => o.value ?? '') })}
                placeholder="Choose instance types"
                statusType={groups.isLoading ? 'loading' : 'finished'}
              />
            </FormField>
            <FormField label="Replicas" errorText={errorOf('replicas')} data-testid="inference-managed-replicas">
              <Input value={s.replicas} inputMode="numeric" onChange={text('replicas')} />
            </FormField>
          </ColumnLayout>
          {!jumpstart && (
            <ExpandableSection headerText="Model server" defaultExpanded variant="container">
              <ColumnLayout columns={2}>
                <FormField
                  label="Image"
                  description="A vLLM, SGLang or other OpenAI-compatible server image your account can pull."
                  errorText={errorOf('worker.image') ?? errorOf('worker')}
                  data-testid="inference-managed-image"
                >
                  <Input value={s.image} onChange={text('image')} placeholder="registry/repository:tag" />
                </FormField>
                <FormField
                  label="Arguments"
                  description="One per line, passed as they are (no shell)."
                  errorText={errorOf('worker.args')}
                  data-testid="inference-managed-args"
                >
                  <Textarea value={s.args} onChange={text('args')} rows={3} placeholder={'--max-model-len\n8192'} />
                </FormField>
                <FormField label="Port" errorText={errorOf('worker.port')}>
                  <Input value={s.port} inputMode="numeric" onChange={text('port')} />
                </FormField>
                <FormField
                  label="GPUs per replica"
                  errorText={errorOf('worker.gpus')}
                  data-testid="inference-managed-gpus"
                >
                  <Input value={s.gpus} inputMode="numeric" onChange={text('gpus')} />
                </FormField>
                <FormField label="CPU" constraintText="Optional, e.g. 8" errorText={errorOf('worker.cpu')}>
                  <Input value={s.cpu} onChange={text('cpu')} />
                </FormField>
                <FormField label="Memory" constraintText="Optional, e.g. 32Gi" errorText={errorOf('worker.memory')}>
                  <Input value={s.memory} onChange={text('memory')} />
                </FormField>
              </ColumnLayout>
            </ExpandableSection>
          )}
          <ExpandableSection headerText="KV cache and routing" variant="container">
            <SpaceBetween size="m">
              <FormField errorText={errorOf('kvCache')} data-testid="inference-managed-kv">
                <Checkbox checked={s.kvCache} onChange={({ detail }) => set({ kvCache: detail.checked })}>
                  Managed tiered KV cache
                </Checkbox>
              </FormField>
              {s.kvCache && (
                <ColumnLayout columns={3}>
                  <Checkbox checked={s.l1} onChange={({ detail }) => set({ l1: detail.checked })}>
                    L1: CPU memory on each worker
                  </Checkbox>
                  <FormField label="L2: shared cache" data-testid="inference-managed-l2">
                    <Select
                      selectedOption={pick(L2_OPTIONS, s.l2)}
                      options={L2_OPTIONS}
                      onChange={({ detail }) => set({ l2: (detail.selectedOption.value ?? '') as ManagedState['l2'] })}
                    />
                  </FormField>
                  {s.l2 === 'redis' && (
                    <FormField label="Redis URL" errorText={errorOf('kvCache.l2.url')}>
                      <Input value={s.redisUrl} onChange={text('redisUrl')} placeholder="redis://redis:6379" />
                    </FormField>
                  )}
                </ColumnLayout>
              )}
              <FormField errorText={errorOf('routing')} data-testid="inference-managed-routing">
                <Checkbox checked={s.routing} onChange={({ detail }) => set({ routing: detail.checked })}>
                  Intelligent routing
                </Checkbox>
              </FormField>
              {s.routing && (
                <SpaceBetween size="s">
                  <FormField label="Routing strategy">
                    <Select
                      selectedOption={pick(STRATEGIES, s.strategy)}
                      options={STRATEGIES}
                      onChange={({ detail }) =>
                        set({ strategy: detail.selectedOption.value as ManagedState['strategy'] })
                      }
                    />
                  </FormField>
                  <Alert type="warning" data-testid="inference-routing-permanent">
                    The routing strategy is fixed when the endpoint is deployed: it cannot be added, removed or changed
                    later (delete and deploy again to change it).
                  </Alert>
                </SpaceBetween>
              )}
            </SpaceBetween>
          </ExpandableSection>
          <ExpandableSection headerText="Autoscaling, load balancer and metrics" variant="container">
            <SpaceBetween size="m">
              <Checkbox checked={s.autoscaling} onChange={({ detail }) => set({ autoscaling: detail.checked })}>
                Autoscaling
              </Checkbox>
              {s.autoscaling && (
                <ColumnLayout columns={3}>
                  <FormField label="Fewest replicas" errorText={errorOf('autoscaling.min')}>
                    <Input value={s.min} inputMode="numeric" onChange={text('min')} />
                  </FormField>
                  <FormField label="Most replicas" errorText={errorOf('autoscaling.max')}>
                    <Input value={s.max} inputMode="numeric" onChange={text('max')} />
                  </FormField>
                  <FormField label="Trigger" errorText={errorOf('autoscaling.trigger')}>
                    <Select
                      selectedOption={pick(
                        [option('cloudwatch', 'CloudWatch metric'), option('prometheus', 'Managed Prometheus query')],
                        s.trigger,
                      )}
                      options={[
                        option('cloudwatch', 'CloudWatch metric'),
                        option('prometheus', 'Managed Prometheus query'),
                      ]}
                      onChange={({ detail }) =>
                        set({ trigger: detail.selectedOption.value as ManagedState['trigger'] })
                      }
                    />
                  </FormField>
                  {s.trigger === 'cloudwatch' ? (
                    <>
                      <FormField label="Metric name">
                        <Input value={s.cwMetric} onChange={text('cwMetric')} placeholder="Invocations" />
                      </FormField>
                      <FormField label="Metric namespace">
                        <Input value={s.cwNamespace} onChange={text('cwNamespace')} />
                      </FormField>
                    </>
                  ) : (
                    <>
                      <FormField label="Workspace URL">
                        <Input
                          value={s.promServer}
                          onChange={text('promServer')}
                          placeholder="https://aps-workspaces.us-west-2.amazonaws.com/workspaces/ws-…"
                        />
                      </FormField>
                      <FormField label="Query">
                        <Input value={s.promQuery} onChange={text('promQuery')} />
                      </FormField>
                    </>
                  )}
                  <FormField label="Target per replica" errorText={errorOf('autoscaling.trigger.targetValue')}>
                    <Input value={s.target} inputMode="decimal" onChange={text('target')} />
                  </FormField>
                </ColumnLayout>
              )}
              <Checkbox checked={s.loadBalancer} onChange={({ detail }) => set({ loadBalancer: detail.checked })}>
                Application Load Balancer in front
              </Checkbox>
              {s.loadBalancer && (
                <ColumnLayout columns={2}>
                  <FormField label="Health check path" errorText={errorOf('loadBalancer')}>
                    <Input value={s.healthCheckPath} onChange={text('healthCheckPath')} />
                  </FormField>
                  <FormField label="Algorithm">
                    <Select
                      selectedOption={pick(LB_ALGORITHMS, s.lbAlgorithm)}
                      options={LB_ALGORITHMS}
                      onChange={({ detail }) =>
                        set({ lbAlgorithm: detail.selectedOption.value as ManagedState['lbAlgorithm'] })
                      }
                    />
                  </FormField>
                </ColumnLayout>
              )}
              <Checkbox checked={s.metrics} onChange={({ detail }) => set({ metrics: detail.checked })}>
                Model metrics scraped by the operator
              </Checkbox>
            </SpaceBetween>
          </ExpandableSection>
          {alert && (
            <Alert type="error" header="The endpoint was not deployed" data-testid="inference-managed-error">
              <ProblemText error={deploy.error} />
            </Alert>
          )}
        </SpaceBetween>
      </Form>
    </Modal>
  );
}
