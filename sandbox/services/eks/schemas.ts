import { z } from 'zod';
import type { LogSetup } from './state.js';

/** Input pieces several EKS operations share. */
export const AUTH_MODES = ['API', 'API_AND_CONFIG_MAP', 'CONFIG_MAP'] as const;
export const LOG_TYPES = ['api', 'audit', 'authenticator', 'controllerManager', 'scheduler'] as const;

export const CLUSTER_NAME_PATTERN = /^[0-9A-Za-z][A-Za-z0-9\-_]*$/;
export const clusterName = z.string().min(1).max(100).regex(CLUSTER_NAME_PATTERN);

export const loggingSchema = z.object({
  clusterLogging: z
    .array(z.object({ types: z.array(z.enum(LOG_TYPES)).optional(), enabled: z.boolean().optional() }))
    .optional(),
});

/**
 * AWS answers logging as two groups, the enabled types and the disabled ones, whatever the
 * request looked like; later entries win for a type named twice.
 */
export function normaliseLogging(current: LogSetup[], request: z.infer<typeof loggingSchema> | undefined): LogSetup[] {
  const enabled = new Set(current.filter((s) => s.enabled).flatMap((s) => s.types));
  for (const setup of request?.clusterLogging ?? []) {
    for (const t of setup.types ?? []) {
      if (setup.enabled) enabled.add(t);
      else enabled.delete(t);
    }
  }
  const on = LOG_TYPES.filter((t) => enabled.has(t));
  const off = LOG_TYPES.filter((t) => !enabled.has(t));
  return [
    ...(on.length ? [{ types: [...on], enabled: true }] : []),
    ...(off.length ? [{ types: [...off], enabled: false }] : []),
  ];
}

/** IAM role ARN (the form EKS asks for in roleArn / serviceAccountRoleArn). */
export const ROLE_ARN_PATTERN = /^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@\/-]+$/;

/** Kubernetes DNS-1123 names (namespaces, service accounts). */
export const k8sName = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/);
