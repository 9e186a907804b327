import { z } from 'zod';

/**
 * Kubernetes label and taint syntax, checked as the API server checks it (apimachinery
 * validation: qualified names and label values), so a group's KubernetesConfig never fails inside
 * a long UpdateCluster. Messages say which part is wrong, not just "invalid".
 */

/** Label and taint count limits of HyperPod's KubernetesConfig (hyperpod-apis.md §1.1: map ≤ 50, list ≤ 50). */
export const MAX_GROUP_LABELS = 50;
export const MAX_GROUP_TAINTS = 50;

const NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * HyperPod's agents own `sagemaker.amazonaws.com/*`: a group label such as node-health-status
 * would ask HyperPod to reboot or replace every node of the group.
 */
const RESERVED_PREFIX = /(^|\.)sagemaker\.amazonaws\.com$/;

/**
 * Why `key` is not a valid label or taint key, or undefined when it is.
 *
 * @example
 * labelKeyProblem('team'); // undefined
 * labelKeyProblem('Example.com/team'); // 'prefix "Example.com" must be a lower-case DNS subdomain …'
 */
export function labelKeyProblem(key: string): string | undefined {
  const slash = key.indexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined) {
    if (prefix.length === 0) return 'has an empty prefix before "/"';
    if (prefix.length > 253) return `prefix must be at most 253 characters (it has ${prefix.length})`;
    if (!DNS_SUBDOMAIN.test(prefix)) return `prefix "${prefix}" must be a lower-case DNS subdomain such as example.com`;
    if (RESERVED_PREFIX.test(prefix))
      return `prefix "${prefix}" is reserved for HyperPod, whose agents manage these labels (node health, instance group)`;
  }
  if (name.length === 0) return 'must have a name (the part after any "prefix/")';
  if (name.length > 63) return `name part must be at most 63 characters (it has ${name.length})`;
  if (!NAME.test(name))
    return `name part "${name}" must use letters, digits, "-", "_" and ".", starting and ending with a letter or digit`;
  return undefined;
}

/** Why `value` is not a valid label (or taint) value, or undefined when it is. Empty is allowed. */
export function labelValueProblem(value: string): string | undefined {
  if (value.length === 0) return undefined;
  if (value.length > 63) return `must be at most 63 characters (it has ${value.length})`;
  if (!NAME.test(value))
    return 'must use letters, digits, "-", "_" and ".", starting and ending with a letter or digit';
  return undefined;
}

export const LabelKeySchema = z
  .string()
  .superRefine((key, ctx) => {
    const problem = labelKeyProblem(key);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe(
    'Kubernetes label key: optional DNS-subdomain prefix and "/", then a name of ≤ 63 letters, digits, "-", "_", "."; the sagemaker.amazonaws.com prefix is HyperPod\'s.',
  );

export const LabelValueSchema = z
  .string()
  .superRefine((value, ctx) => {
    const problem = labelValueProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe(
    'Kubernetes label value: empty, or ≤ 63 letters, digits, "-", "_", ".", starting and ending with a letter or digit.',
  );

/** Labels as a record whose problems point at the offending key (`labels.<key>`), which z.record would not. */
export const LabelsSchema = z
  .record(z.string(), z.string('must be a string'))
  .superRefine((labels, ctx) => {
    const keys = Object.keys(labels);
    if (keys.length > MAX_GROUP_LABELS)
      ctx.addIssue({
        code: 'custom',
        message: `must have at most ${MAX_GROUP_LABELS} labels (HyperPod's limit); it has ${keys.length}`,
      });
    for (const key of keys) {
      const keyProblem = labelKeyProblem(key);
      const valueProblem = keyProblem ? undefined : labelValueProblem(labels[key]!);
      if (keyProblem) ctx.addIssue({ code: 'custom', path: [key], message: `key ${keyProblem}` });
      if (valueProblem) ctx.addIssue({ code: 'custom', path: [key], message: `value ${valueProblem}` });
    }
  })
  .describe(`Kubernetes labels HyperPod keeps on the group's nodes (at most ${MAX_GROUP_LABELS}).`);

export const TaintSchema = z
  .object({
    key: LabelKeySchema.describe('Taint key, with the same syntax as a label key.'),
    value: LabelValueSchema.optional().describe('Taint value, with the same syntax as a label value; may be left out.'),
    effect: z
      .enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute'], 'must be NoSchedule, PreferNoSchedule or NoExecute')
      .describe(
        'NoSchedule: new pods without a toleration stay off; PreferNoSchedule: avoided if possible; NoExecute: running pods without a toleration are evicted too.',
      ),
  })
  .strict()
  .describe("A Kubernetes taint HyperPod keeps on the group's nodes.");

/** Kubernetes refuses two taints with the same key and effect on one node. */
export const TaintsSchema = z
  .array(TaintSchema)
  .max(MAX_GROUP_TAINTS, `must have at most ${MAX_GROUP_TAINTS} taints (HyperPod's limit)`)
  .superRefine((taints, ctx) => {
    const seen = new Set<string>();
    taints.forEach((t, i) => {
      const id = `${t.key}:${t.effect}`;
      if (seen.has(id))
        ctx.addIssue({
          code: 'custom',
          path: [i],
          message: `repeats key ${t.key} with effect ${t.effect}; Kubernetes allows one taint per key and effect`,
        });
      seen.add(id);
    });
  })
  .describe(
    `Taints HyperPod keeps on the group's nodes. At most ${MAX_GROUP_TAINTS}; pods need a matching toleration.`,
  );
