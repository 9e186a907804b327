import { findFileSystem } from '../../services/fsx/state.js';
import type { SandboxState } from '../../core/store.js';
import { listEksAddons } from '../../services/eks/public.js';
import { actAsRole } from '../../services/iam/public.js';
import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { recordEvent } from './events.js';
import { runInferenceEndpoints } from './inference-endpoints.js';
import { rfc3339, save, type Any } from './util.js';

/**
 * The HyperPod inference operator's SageMaker endpoint registrations, as far as IAM decides them.
 * A SageMakerEndpointRegistration's `executionRole` is "an IAM role that will be used to create model,
 * endpoint config, and the endpoint" (the CRD at aws/sagemaker-hyperpod-cli 011ca92): the operator —
 * running as the execution role its add-on's configuration values name — passes that role to SageMaker
 * in CreateModel. IAM evaluates the pass against the operator role's own policies
 * (AmazonSageMakerHyperPodInferenceAccess passes only `SageMakerHyperPodInference*` roles, only to
 * sagemaker.amazonaws.com), and the CreateModel with the operator's `CreatedBy=HyperPodInference` tag.
 * A refusal fails the registration (`CreationFailed`, a condition and a Warning event carrying AWS's
 * error), tried again on later passes as a controller requeues it. Assumed (the sandbox hosts no
 * SageMaker endpoints): an allowed registration stays `CreationInProgress`, saying so; registrations
 * are reconciled only while the add-on runs. The endpoints themselves (InferenceEndpointConfig,
 * JumpStartModel) are reconciled by inference-endpoints.ts, in the same pass and on the same terms.
 */

const INFERENCE = 'amazon-sagemaker-hyperpod-inference';
const REPORTER = 'hyperpod-inference-operator';
const LIVE = new Set(['ACTIVE', 'DEGRADED', 'UPDATING']);

function operatorRole(state: SandboxState, cluster: KubeCluster): string | undefined {
  const addon = listEksAddons(state, cluster.region, cluster.name).find(
    (a) => a.name === INFERENCE && LIVE.has(a.status),
  );
  if (!addon?.configurationValues) return undefined;
  try {
    const role = (JSON.parse(addon.configurationValues) as Any).executionRoleArn;
    return typeof role === 'string' ? role : undefined;
  } catch {
    return undefined;
  }
}

/** AWS's SDK error for a refused call of SageMaker's CreateModel. */
const createModelError = (message: string) =>
  `operation error SageMaker: CreateModel, https response error StatusCode: 400, api error AccessDeniedException: ${message}`;

/** Why SageMaker would refuse the registration's CreateModel for the operator, or undefined when IAM allows it. */
function refusal(state: SandboxState, role: string, registration: KubeObject, region: string): string | undefined {
  const spec = (registration.spec ?? {}) as Any;
  const passed = String(spec.executionRole ?? '');
  const pass = actAsRole(state, role, {
    action: 'iam:PassRole',
    resource: passed,
    context: { 'iam:PassedToService': 'sagemaker.amazonaws.com' },
    sessionName: REPORTER,
  });
  if (!pass.allowed) return createModelError(pass.message);
  const account = /:iam::(\d{12}):/.exec(role)?.[1] ?? '';
  const model = `arn:aws:sagemaker:${region}:${account}:model/${String(spec.name ?? registration.metadata.name)}`;
  const create = actAsRole(state, role, {
    action: 'sagemaker:CreateModel',
    resource: model,
    context: { 'aws:RequestTag/CreatedBy': 'HyperPodInference' },
    sessionName: REPORTER,
  });
  return create.allowed ? undefined : createModelError(create.message);
}

export function runInferenceOperator(cluster: KubeCluster, state: SandboxState): void {
  const role = operatorRole(state, cluster);
  if (!role) return;
  // An endpoint's SageMaker endpoint is created as a registration's is: the operator passes its own execution role.
  runInferenceEndpoints(cluster, {
    sageMakerRefusal: (endpointName) =>
      refusal(
        state,
        role,
        {
          apiVersion: 'v1',
          kind: 'Endpoint',
          metadata: { name: endpointName },
          spec: { executionRole: role, name: endpointName },
        },
        cluster.region,
      ),
    fileSystem: (id) => {
      const fs = findFileSystem(state, cluster.region, id);
      if (!fs || fs.lifecycle === 'DELETING')
        return {
          error: `FSx file system ${id} was not found in ${cluster.region} (fsx:DescribeFileSystems: FileSystemNotFound)`,
        };
      return { dnsName: fs.dnsName, mountName: fs.lustre.mountName };
    },
  });
  const type = cluster.findType('inference.sagemaker.aws.amazon.com', 'v1', 'sagemakerendpointregistrations');
  if (!type) return;
  const registrations = cluster.objects.list(type);
  if (registrations.length === 0) return;
  const now = cluster.now();
  for (const r of registrations) {
    if (r.metadata.deletionTimestamp) continue;
    const st = (r.status ?? {}) as Any;
    // A refused registration is tried again (a controller requeues it): a role's policies may change meanwhile.
    if (st.state === 'CreationInProgress' && st.observedGeneration === r.metadata.generation) continue;
    const refused = refusal(state, role, r, cluster.region);
    const condition = refused
      ? { type: 'CreationFailed', status: 'True', reason: 'AccessDenied', message: refused }
      : {
          type: 'CreationInProgress',
          status: 'True',
          reason: 'SandboxHasNoEndpoints',
          message:
            'The operator may create the model, endpoint configuration and endpoint; the sandbox does not host SageMaker endpoints.',
        };
    const same = st.conditions?.[0]?.type === condition.type && st.conditions[0].message === condition.message;
    const since = same ? st.conditions[0].lastTransitionTime : rfc3339(now);
    const status = {
      ...st,
      state: refused ? 'CreationFailed' : 'CreationInProgress',
      observedGeneration: r.metadata.generation,
      conditions: [{ ...condition, lastTransitionTime: since, observedGeneration: r.metadata.generation }],
    };
    save(cluster, type, r, { ...r, status });
    if (refused) recordEvent(cluster, r, 'Warning', 'CreationFailed', refused, REPORTER, { minIntervalMs: 60_000 });
  }
}
