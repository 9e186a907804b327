import { z } from 'zod';

/**
 * The fields inference requests are made of (docs/INFERENCE.md): endpoint names, serving engines,
 * service variants, routing strategies and the serving command. Every field carries a description:
 * REST, OpenAPI, the MCP tools and the UI's forms derive from it.
 */

const DNS_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/**
 * Endpoint names become the Deployment, its Service, the router (`<name>-router`), the ScaledObject and, for a
 * managed endpoint, the InferenceEndpointConfig's `modelName` (upstream: ≤ 63, `^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}`).
 * Pod names add a ReplicaSet hash and a suffix (17 characters), so 40 leaves room within 63.
 */
export const EndpointNameSchema = z
  .string('must be an endpoint name')
  .min(1, 'must not be empty')
  .max(40, 'must be at most 40 characters (pod, Service and router names derive from it and must stay within 63)')
  .regex(
    DNS_LABEL,
    'must be a Kubernetes name: lower-case letters, digits and hyphens, starting with a letter and ending with a letter or digit',
  )
  .describe('Endpoint name, unique in its namespace: 1–40 lower-case letters, digits and hyphens.');

export const SERVING_ENGINES = ['vllm', 'sglang', 'custom'] as const;
export const ServingEngineSchema = z
  .enum(SERVING_ENGINES)
  .describe(
    'vllm, sglang or custom (your image and command). The serving container: vllm serve (OpenAI-compatible), python -m sglang.launch_server, or yours.',
  );
export type ServingEngine = z.infer<typeof ServingEngineSchema>;

export const SERVICE_VARIANTS = ['external', 'internal', 'pool'] as const;
export const ServiceVariantSchema = z
  .enum(SERVICE_VARIANTS)
  .describe(
    'How the endpoint is reached: external (a LoadBalancer Service through the AWS Load Balancer Controller, an NLB), ' +
      'internal (a ClusterIP Service, in-cluster DNS only) or pool (warm workers of a model pool, selected by a model label).',
  );
export type ServiceVariant = z.infer<typeof ServiceVariantSchema>;

/** The inference operator's `intelligentRoutingSpec.routingStrategy` (CRD at aws/sagemaker-hyperpod-cli 011ca92). */
export const ROUTING_STRATEGIES = ['prefixaware', 'kvaware', 'session', 'roundrobin'] as const;
export const RoutingStrategySchema = z
  .enum(ROUTING_STRATEGIES)
  .describe(
    'Intelligent routing: prefixaware (default; requests sharing a prompt prefix go to the same worker), kvaware ' +
      '(by the KV cache each worker holds), session (sticky per session) or roundrobin. Cannot be changed once set.',
  );
export type RoutingStrategy = z.infer<typeof RoutingStrategySchema>;

/** The SGLang router's `--policy` (sgl-project/sglang sgl-model-gateway router_args.py). */
export const ROUTER_POLICIES = ['cache_aware', 'round_robin', 'random', 'power_of_two'] as const;
export const RouterPolicySchema = z
  .enum(ROUTER_POLICIES)
  .describe('SGLang router policy (cache_aware: longest prefix match unless the load is unbalanced).');

/** One command-line argument: a list element, never a shell string (no quoting, no expansion). */
export const ArgSchema = z
  .string()
  .max(4096, 'must be at most 4096 characters')
  .refine((a) => !a.includes('\n'), 'must be one argument on one line (give each argument as its own element)');

export const ArgListSchema = z
  .array(ArgSchema)
  .max(128)
  .describe(
    'Arguments, one element each (e.g. ["--max-model-len", "8192"]); they are passed as they are, with no shell in between.',
  );

export const PortSchema = z.number().int().min(1).max(65535);

/** A Secret holding a Hugging Face token: the token itself never reaches a manifest, an answer or a log. */
export const SecretKeyRefSchema = z
  .object({
    name: z
      .string()
      .min(1)
      .max(253)
      .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, 'must be a Kubernetes Secret name')
      .describe('Name of the Secret (in the endpoint namespace).'),
    key: z
      .string()
      .min(1)
      .max(253)
      .regex(/^[-._a-zA-Z0-9]+$/, 'must be a Secret key')
      .default('token')
      .describe('Key in the Secret holding the token. Default: token.'),
  })
  .strict()
  .describe('The Secret holding a Hugging Face token, for gated models. Never the token itself.');

export const HuggingFaceModelIdSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}\/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/,
    'must be a Hugging Face model id such as Qwen/Qwen3-0.6B (organisation/model)',
  )
  .describe('Hugging Face model id (organisation/model), e.g. Qwen/Qwen3-0.6B.');
