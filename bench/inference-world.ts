import { type Kubectl, kubectlFor } from './lib/kubectl.js';
import { http, SandboxAdmin, type Served } from './lib/servers.js';
import { progress } from './lib/stats.js';
import { createThroughRest } from './lib/world.js';

/**
 * What the inference figures (g, h) need: a two-node GPU cluster made through our REST API and one vLLM container
 * endpoint deployed on it through our REST API, Ready. Its pod template then gets the sandbox's
 * `sandbox.instantstart.dev/answer-tokens` annotation (kubectl patch; a sandbox device, docs/SANDBOX.md) so that
 * every answer is `answerTokens` long: the simulated server's own answers are 12–40 tokens.
 */

export const CLUSTER = 'infer';
export const EKS = `${CLUSTER}-eks`;
export const ENDPOINT = 'chat';
export const NAMESPACE = 'default';
export const MODEL = 'Qwen/Qwen3-0.6B';

export interface InferenceWorld {
  admin: SandboxAdmin;
  kubectl: Kubectl;
  /** The one pod serving the endpoint. */
  pod: string;
  answerTokens: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function inferenceWorld(served: Served, dir: string, answerTokens: number): Promise<InferenceWorld> {
  const admin = new SandboxAdmin(served.sandboxUrl);
  // Two one-GPU nodes: the patched pod starts on the second before the first pod goes (a rolling update).
  progress(`(g, h) a two-node ml.g5.xlarge cluster through the REST API`);
  await createThroughRest(served.url, {
    name: CLUSTER,
    availabilityZone: 'us-west-2b',
    instanceType: 'ml.g5.xlarge',
    instanceCount: 2,
    storage: { s3: false },
  });
  const cluster = await http(`${served.url}/api/v1/clusters/${CLUSTER}`);
  const group = cluster.body.instanceGroups[0].name as string;
  progress(`(g, h) a vLLM endpoint ${NAMESPACE}/${ENDPOINT} through the REST API, answers of ${answerTokens} tokens`);
  const deployed = await http(`${served.url}/api/v1/clusters/${CLUSTER}/endpoints/container`, {
    method: 'POST',
    body: {
      name: ENDPOINT,
      engine: 'vllm',
      model: MODEL,
      instanceGroup: group,
      gpus: 1,
      service: { variant: 'internal' },
    },
  });
  if (deployed.status !== 201) throw new Error(`deploy: ${deployed.status} ${deployed.text.slice(0, 800)}`);
  const kubectl = kubectlFor(dir, EKS);
  const annotation = { 'sandbox.instantstart.dev/answer-tokens': String(answerTokens) };
  kubectl([
    'patch',
    'deployment',
    ENDPOINT,
    '-n',
    NAMESPACE,
    '--type',
    'merge',
    '-p',
    JSON.stringify({ spec: { template: { metadata: { annotations: annotation } } } }),
  ]);
  // Until the rolled-out pod (with the annotation) is the only one, Ready, and the endpoint says Ready.
  const deadline = Date.now() + 5 * 60_000;
  while (Date.now() < deadline) {
    const pods = JSON.parse(
      kubectl(['get', 'pods', '-n', NAMESPACE, '-l', `instantstart.io/endpoint=${ENDPOINT}`, '-o', 'json']),
    ).items as any[];
    const view = await http(`${served.url}/api/v1/clusters/${CLUSTER}/endpoints/${NAMESPACE}/${ENDPOINT}`);
    const pod = pods[0];
    if (
      pods.length === 1 &&
      !pod.metadata.deletionTimestamp &&
      pod.metadata.annotations?.['sandbox.instantstart.dev/answer-tokens'] === String(answerTokens) &&
      pod.status.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True') &&
      view.body?.state === 'Ready'
    )
      return { admin, kubectl, pod: pod.metadata.name, answerTokens };
    await admin.advance(5);
    await sleep(200);
  }
  throw new Error(`endpoint ${ENDPOINT} not Ready with the annotated pod within 5 minutes`);
}
