import Alert from '@cloudscape-design/components/alert';
import Autosuggest from '@cloudscape-design/components/autosuggest';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import RadioGroup from '@cloudscape-design/components/radio-group';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useMemo, useState } from 'react';
import { useInstanceGroups } from '../../instance-groups/ui/index.js';
import { useStorageList } from '../../storage/ui/index.js';
import { useDeployContainer, usePools } from './api.js';
import { AUTOSCALING_LABELS, AutoscalingFields } from './AutoscalingFields.js';
import { type ContainerState, containerRequestOf, EMPTY_CONTAINER } from './container-request.js';
import { SelectField } from '@kit/components/SelectField.js';
import { fieldErrors, newIdempotencyKey, option, pick } from '@kit/lib/form-kit.js';
import { ROUTER_POLICIES } from './RouterPanel.js';

interface Props {
  cluster: string;
  region: string;
  onDismiss(): void;
  onDeployed(ref: { namespace: string; name: string }): void;
}

/** The inputs on screen: the request path each owns (a refusal shows under it) → its label, which the message names. */
const LABELS = {
  name: 'Endpoint name',
  namespace: 'Namespace',
  engine: 'Engine',
  image: 'Image',
  model: 'Model',
  storage: 'Storage',
  hfTokenSecret: 'Token Secret',
  command: 'Command',
  args: 'Engine arguments',
  instanceGroup: 'Instance group',
  gpus: 'GPUs per replica',
  replicas: 'Replicas',
  port: 'Port',
  service: 'How it is reached',
  'service.pool': 'Model pool',
  router: 'SGLang router',
  ...AUTOSCALING_LABELS,
};

const ENGINES = [
  option('vllm', 'vLLM', 'vllm serve, OpenAI-compatible'),
  option('sglang', 'SGLang', 'python3 -m sglang.launch_server'),
  option('custom', 'Custom', 'Your image and command'),
];
const VARIANTS = [
  { value: 'internal', label: 'Cluster-internal', description: 'A ClusterIP Service: reached by in-cluster DNS only.' },
  {
    value: 'external',
    label: 'Load balancer',
    description: 'A LoadBalancer Service: the AWS Load Balancer Controller puts a Network Load Balancer in front.',
  },
  {
    value: 'pool',
    label: 'Model pool',
    description: 'Warm GPU workers of a pool, selected by their model label; reassign workers on the pool table.',
  },
];

/**
 * Deploy a serving container: vLLM, SGLang or a custom image as a Deployment and Service, on one instance group,
 * reached through a load balancer, a cluster-internal Service or a model pool; the SGLang router in front of a
 * multi-replica SGLang; KEDA autoscaling with a preview of the scaler.
 */
export function DeployContainerModal({ cluster, region, onDismiss, onDeployed }: Props) {
  const [s, setState] = useState<ContainerState>(EMPTY_CONTAINER);
  const set = (patch: Partial<ContainerState>) => setState((x) => ({ ...x, ...patch }));
  const key = useMemo(() => newIdempotencyKey('deploy-container'), []);
  const deploy = useDeployContainer(cluster, region, key);
  const groups = useInstanceGroups(cluster, region);
  const storages = useStorageList(cluster, region);
  const pools = usePools(cluster, region);
  const { errorOf, alert } = fieldErrors(deploy.error, LABELS);
  const namespace = s.namespace.trim() || 'default';
  const text =
    (k: keyof ContainerState) =>
    ({ detail }: { detail: { value: string } }) =>
      set({ [k]: detail.value });

  const groupOptions = (groups.data ?? []).map((g) =>
    option(g.name, g.name, `${g.instanceType} · ${g.currentCount} nodes`),
  );
  const storageOptions = [
    option('', 'None', 'The model comes from Hugging Face'),
    ...(storages.data?.storages ?? [])
      .filter((x) => x.namespace === namespace)
      .map((x) => option(x.name, x.name, `${x.kind === 's3' ? 'S3' : 'FSx'} · mounted at /data`)),
  ];
  const poolNames = (pools.data ?? []).filter((p) => p.namespace === namespace).map((p) => ({ value: p.name }));

  const send = () => {
    const body = containerRequestOf(s);
    deploy.mutate(body, { onSuccess: () => onDeployed({ namespace: body.namespace ?? 'default', name: body.name }) });
  };

  return (
    <Modal
      visible
      size="large"
      onDismiss={onDismiss}
      header={`Deploy a container endpoint on ${cluster}`}
      data-testid="inference-container-modal"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss}>
              Cancel
            </Button>
            <Button
              variant="primary"
              loading={deploy.isPending}
              onClick={send}
              data-testid="inference-container-deploy"
            >
              Deploy
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <Form>
        <SpaceBetween size="l">
          <ColumnLayout columns={3}>
            <FormField label="Endpoint name" errorText={errorOf('name')} data-testid="inference-container-name">
              <Input value={s.name} onChange={text('name')} placeholder="my-model" />
            </FormField>
            <FormField label="Namespace" errorText={errorOf('namespace')} data-testid="inference-container-namespace">
              <Input value={s.namespace} onChange={text('namespace')} />
            </FormField>
            <SelectField
              label="Engine"
              errorText={errorOf('engine')}
              testId="inference-container-engine"
              options={ENGINES}
              value={s.engine}
              onChange={(v) => set({ engine: v as ContainerState['engine'] })}
            />
          </ColumnLayout>
          <ColumnLayout columns={2}>
            <FormField
              label="Model"
              description="A Hugging Face model id, or a path under /data in the storage."
              errorText={errorOf('model')}
              data-testid="inference-container-model"
            >
              <Input value={s.model} onChange={text('model')} placeholder="Qwen/Qwen3-0.6B" />
            </FormField>
            <SelectField
              label="Storage"
              description="Mounted at /data (models you downloaded)."
              errorText={errorOf('storage')}
              testId="inference-container-storage"
              options={storageOptions}
              value={s.storage}
              onChange={(v) => set({ storage: v })}
              loading={storages.isLoading}
            />
            <FormField
              label="Image"
              description={s.engine === 'custom' ? 'Your serving image.' : 'Leave empty for the pinned engine image.'}
              constraintText={s.engine === 'custom' ? undefined : 'Optional'}
              errorText={errorOf('image')}
              data-testid="inference-container-image"
            >
              <Input value={s.image} onChange={text('image')} placeholder="registry/repository:tag" />
            </FormField>
            <FormField
              label="Hugging Face token Secret"
              description="For gated models: a Secret in the namespace with the token under key token."
              constraintText="Optional"
              errorText={errorOf('hfTokenSecret')}
              data-testid="inference-container-token"
            >
              <Input value={s.tokenSecret} onChange={text('tokenSecret')} placeholder="hf-token" />
            </FormField>
          </ColumnLayout>
          <ColumnLayout columns={4}>
            <SelectField
              label="Instance group"
              errorText={
                errorOf('instanceGroup') ??
                (groups.data && groupOptions.length === 0 ? 'The cluster has no instance group yet.' : undefined)
              }
              testId="inference-container-group"
              options={groupOptions}
              value={s.instanceGroup}
              onChange={(v) => set({ instanceGroup: v })}
              placeholder="Choose a group"
              loading={groups.isLoading}
            />
            <FormField
              label="GPUs per replica"
              description="Tensor parallel size for vLLM and SGLang."
              errorText={errorOf('gpus')}
              data-testid="inference-container-gpus"
            >
              <Input value={s.gpus} inputMode="numeric" onChange={text('gpus')} />
            </FormField>
            <FormField label="Replicas" errorText={errorOf('replicas')} data-testid="inference-container-replicas">
              <Input value={s.replicas} inputMode="numeric" onChange={text('replicas')} />
            </FormField>
            <FormField label="Port" constraintText="Default 8000" errorText={errorOf('port')}>
              <Input value={s.port} inputMode="numeric" onChange={text('port')} placeholder="8000" />
            </FormField>
          </ColumnLayout>
          <FormField label="How it is reached" errorText={errorOf('service')} data-testid="inference-container-variant">
            <RadioGroup
              value={s.variant}
              onChange={({ detail }) => set({ variant: detail.value as ContainerState['variant'] })}
              items={VARIANTS}
            />
          </FormField>
          {s.variant === 'pool' && (
            <FormField
              label="Model pool"
              description="The pool whose warm workers serve this endpoint."
              errorText={errorOf('service.pool')}
              data-testid="inference-container-pool"
            >
              <Autosuggest
                value={s.pool}
                options={poolNames}
                onChange={({ detail }) => set({ pool: detail.value })}
                enteredTextLabel={(v) => `Use "${v}"`}
                placeholder="pool name"
                empty="No pool in this namespace yet"
              />
            </FormField>
          )}
          {s.engine === 'sglang' && (
            <SpaceBetween size="s">
              <FormField errorText={errorOf('router')} data-testid="inference-container-router">
                <Checkbox checked={s.router} onChange={({ detail }) => set({ router: detail.checked })}>
                  SGLang router in front of the replicas (its own Service; finds the servers by their labels)
                </Checkbox>
              </FormField>
              {s.router && (
                <FormField label="Router policy">
                  <Select
                    selectedOption={pick(ROUTER_POLICIES, s.routerPolicy)}
                    options={ROUTER_POLICIES}
                    onChange={({ detail }) =>
                      set({ routerPolicy: detail.selectedOption.value as ContainerState['routerPolicy'] })
                    }
                  />
                </FormField>
              )}
            </SpaceBetween>
          )}
          <ExpandableSection
            headerText="Command and arguments"
            variant="container"
            defaultExpanded={s.engine === 'custom'}
          >
            <ColumnLayout columns={2}>
              {s.engine === 'custom' && (
                <FormField
                  label="Command"
                  description="The entrypoint, one part per line."
                  errorText={errorOf('command')}
                  data-testid="inference-container-command"
                >
                  <Textarea
                    value={s.command}
                    onChange={text('command')}
                    rows={3}
                    placeholder={'python3\n-m\nmy_server'}
                  />
                </FormField>
              )}
              <FormField
                label="Engine arguments"
                description="One per line, passed as they are (no shell)."
                errorText={errorOf('args')}
                data-testid="inference-container-args"
              >
                <Textarea value={s.args} onChange={text('args')} rows={3} placeholder={'--max-model-len\n8192'} />
              </FormField>
            </ColumnLayout>
          </ExpandableSection>
          <ExpandableSection headerText="Autoscaling" variant="container" defaultExpanded={s.autoscaling}>
            <SpaceBetween size="m">
              <FormField errorText={errorOf('autoscaling')} data-testid="inference-container-autoscaling">
                <Checkbox checked={s.autoscaling} onChange={({ detail }) => set({ autoscaling: detail.checked })}>
                  Scale the replicas with KEDA from a Prometheus metric
                </Checkbox>
              </FormField>
              {s.autoscaling && (
                <AutoscalingFields
                  cluster={cluster}
                  region={region}
                  endpoint={{ namespace, endpoint: s.name.trim() }}
                  state={s.scaling}
                  set={(patch) => setState((x) => ({ ...x, scaling: { ...x.scaling, ...patch } }))}
                  errorOf={errorOf}
                  deployed={false}
                />
              )}
            </SpaceBetween>
          </ExpandableSection>
          {alert && (
            <Alert type="error" header="The endpoint was not deployed" data-testid="inference-container-error">
              <ProblemText error={deploy.error} />
            </Alert>
          )}
        </SpaceBetween>
      </Form>
    </Modal>
  );
}
