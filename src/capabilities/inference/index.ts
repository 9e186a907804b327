import { defineCapability } from '../capability.js';
import type { InferencePorts } from './ports.js';
import { registerInferenceRoutes } from './routes.js';
import { InferenceService } from './service.js';
import {
  registerDeleteEndpointTool,
  registerDeployRouterTool,
  registerScaleEndpointTool,
  registerSetEndpointAutoscalingTool,
} from './tools/change-endpoints.js';
import { registerDeployContainerEndpointTool, registerDeployManagedEndpointTool } from './tools/deploy-endpoints.js';
import { registerInvokeEndpointTool } from './tools/invoke-endpoint.js';
import { registerAssignPoolWorkerTool, registerListModelPoolTool } from './tools/pools.js';
import { registerGetEndpointTool, registerListEndpointsTool } from './tools/read-endpoints.js';

/**
 * Inference endpoints (docs/INFERENCE.md): managed ones through the HyperPod inference operator
 * (InferenceEndpointConfig, JumpStartModel) and container ones (vLLM, SGLang or custom as a Deployment and Service,
 * external, internal or a model pool, the SGLang router, KEDA scaling); a chat completion through the service proxy.
 * No workflows: a deploy is one server-side apply of its objects, and what follows is read live.
 */
export const inference = defineCapability<InferenceService, InferencePorts>({
  name: 'inference',
  ports: { catalog: "the catalogue's instance types, which bound a replica's GPUs" },
  service: (deps) => new InferenceService(deps),
  routes: registerInferenceRoutes,
  tools: [
    registerDeployManagedEndpointTool,
    registerDeployContainerEndpointTool,
    registerListEndpointsTool,
    registerGetEndpointTool,
    registerScaleEndpointTool,
    registerSetEndpointAutoscalingTool,
    registerDeleteEndpointTool,
    registerInvokeEndpointTool,
    registerListModelPoolTool,
    registerAssignPoolWorkerTool,
    registerDeployRouterTool,
  ],
});

export type { InferencePorts } from './ports.js';
