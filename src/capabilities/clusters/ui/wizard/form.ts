import { CreateClusterRequestSchema } from '@domain/schemas/clusters.js';
import type { CreateClusterInput } from '@kit/api/types.js';

/** The wizard's editable state: strings where the user types, converted by `toRequest`. */
export interface WizardForm {
  name: string;
  region: string;
  availabilityZone: string;
  /** '' = the server's default (a version both EKS and HyperPod support). */
  kubernetesVersion: string;
  instanceType: string;
  capacityType: 'on-demand' | 'spot' | 'training-plan';
  trainingPlanArn: string;
  instanceCount: string;
  /** 'none' = ENA only; EFA modes only for an EFA-capable type (the catalogue's efaSupported). */
  networkInterface: 'none' | 'efa' | 'efa-only';
  deepHealthChecks: boolean;
  s3: boolean;
  fsx: boolean;
  fsxCapacityGiB: string;
}

export type FieldName = keyof WizardForm;
export type FieldErrors = Partial<Record<FieldName, string>>;

export const initialForm = (region = ''): WizardForm => ({
  name: '',
  region,
  availabilityZone: '',
  kubernetesVersion: '',
  instanceType: '',
  capacityType: 'on-demand',
  trainingPlanArn: '',
  instanceCount: '1',
  networkInterface: 'none',
  deepHealthChecks: false,
  s3: true,
  fsx: false,
  fsxCapacityGiB: '1200',
});

/** Which fields each wizard step owns (Review owns none). */
export const STEP_FIELDS: FieldName[][] = [
  ['name', 'region', 'availabilityZone', 'kubernetesVersion'],
  ['instanceType', 'capacityType', 'trainingPlanArn', 'instanceCount', 'networkInterface', 'deepHealthChecks'],
  ['s3', 'fsx', 'fsxCapacityGiB'],
  [],
];

const toNumber = (s: string) => (s.trim() === '' ? Number.NaN : Number(s));

export function toRequest(form: WizardForm): CreateClusterInput {
  return {
    name: form.name.trim(),
    ...(form.region ? { region: form.region } : {}),
    availabilityZone: form.availabilityZone,
    ...(form.kubernetesVersion ? { kubernetesVersion: form.kubernetesVersion } : {}),
    instanceType: form.instanceType,
    capacityType: form.capacityType,
    ...(form.capacityType === 'training-plan' && form.trainingPlanArn ? { trainingPlanArn: form.trainingPlanArn } : {}),
    instanceCount: toNumber(form.instanceCount),
    ...(form.networkInterface !== 'none' ? { networkInterface: form.networkInterface } : {}),
    deepHealthChecks: form.deepHealthChecks,
    storage: { s3: form.s3, ...(form.fsx ? { fsxLustre: { storageCapacityGiB: toNumber(form.fsxCapacityGiB) } } : {}) },
  };
}

/** Request paths (as the backend names them in problems) → the wizard field that edits them. */
export function fieldForPath(path: string): FieldName | undefined {
  if (path.startsWith('storage.fsxLustre')) return 'fsxCapacityGiB';
  if (path.startsWith('storage')) return 's3';
  const head = path.split(/[.[]/)[0] as FieldName;
  return head in initialForm() ? head : undefined;
}

/**
 * Validates with the backend's own zod schema, so the messages are the ones the API would answer.
 * Numbers left empty get a sentence of ours instead of zod's "expected number, received NaN".
 */
export function validate(form: WizardForm): FieldErrors {
  const errors: FieldErrors = {};
  if (!form.availabilityZone) errors.availabilityZone = 'Choose an Availability Zone.';
  if (!form.instanceType) errors.instanceType = 'Choose an instance type.';
  if (form.capacityType === 'training-plan' && !form.trainingPlanArn)
    errors.trainingPlanArn = 'Choose a training plan.';
  if (!/^\d+$/.test(form.instanceCount.trim())) errors.instanceCount = 'Enter a whole number of instances (1–1000).';
  if (form.fsx && !/^\d+$/.test(form.fsxCapacityGiB.trim()))
    errors.fsxCapacityGiB = 'Enter the capacity in GiB: 1200, 2400, 4800, …';
  const parsed = CreateClusterRequestSchema.safeParse(toRequest(form));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldForPath(issue.path.join('.'));
      if (field && !errors[field]) errors[field] = capitalize(issue.message);
    }
  }
  return errors;
}

const capitalize = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

export function stepErrors(errors: FieldErrors, step: number): FieldErrors {
  const out: FieldErrors = {};
  for (const f of STEP_FIELDS[step] ?? []) if (errors[f]) out[f] = errors[f];
  return out;
}

/** FNV-1a: a short stable digest of the request, so one wizard session + one body = one key. */
export function digest(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}
