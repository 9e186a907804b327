import type { KubePort } from '../../cloud/ports.js';
import { PreconditionError } from '../../domain/errors.js';
import { serverName } from '../../domain/inference/names.js';
import { viewOf, type FoundEndpoint } from './endpoints.js';
import { servedModel, type InvokeTarget } from './invoke.js';

/**
 * Where a chat completion goes: a container endpoint's Service `E` (port 80; with a router, Service `E` reaches
 * the router), or the Service the operator made for a managed endpoint (found by owner reference; the one named for
 * the endpoint when there are several, on its first port) — and the model name its server answers to: what the
 * endpoint serves, or, where the view cannot know it (a pool's workers, a model the operator mounted), what the
 * server lists at `GET /v1/models`.
 */
export async function invokeTargetOf(kube: KubePort, found: FoundEndpoint): Promise<InvokeTarget> {
  const view = viewOf(found);
  const { namespace, name, invocationPath } = view;
  if (found.kind === 'container') {
    const target = { namespace, service: serverName(name), port: 80, invocationPath };
    const model = view.variant === 'pool' ? await servedModel(kube, target) : view.model;
    return { ...target, model: model ?? view.model };
  }
  const services = found.made.services;
  const svc = services.find((s) => s.metadata.name === name) ?? services[0];
  if (!svc)
    throw new PreconditionError({
      message: `Endpoint ${namespace}/${name} has no Service yet: the inference operator makes it once it deploys the model (state ${view.state}).`,
      remedy: 'Wait until get_endpoint shows it Ready, then try again.',
    });
  const target = { namespace, service: svc.metadata.name, port: svc.spec.ports[0]?.port ?? 80, invocationPath };
  return { ...target, model: (await servedModel(kube, target)) ?? view.model };
}
