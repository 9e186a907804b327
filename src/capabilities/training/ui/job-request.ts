import type { TrainingTemplate } from '@domain/schemas/training.js';
import type { SubmitJobInput } from './api.js';
import { type FormFieldSpec, type FormValues, paramsOf, valuesFromParams } from './schema-form.js';

/**
 * The submit form's state apart from the recipe's own parameters, and how it becomes a
 * SubmitTrainingJobRequest. Inputs keep what was typed (strings); the server's schema is the judge,
 * this only leaves empty optional parts out and reads numbers.
 */
export interface CommonState {
  name: string;
  namespace: string;
  instanceGroup: string;
  nodes: string;
  storage: string;
  image: string;
  retries: string;
  jobStart: boolean;
  jobStartCutoff: string;
  hang: boolean;
  hangGap: string;
  lowThroughput: boolean;
  tokensBelow: string;
  elastic: boolean;
  minReplicas: string;
  maxReplicas: string;
  mlflow: string;
  customImage: string;
  customCommand: string;
  customArgs: string;
  /** hyperpodrun: the command is a training script InstantStart starts through the elastic agent; as-is: run as written. */
  customLaunch: 'hyperpodrun' | 'as-is';
  saveAsTemplate: boolean;
  templateName: string;
}

export const EMPTY_COMMON: CommonState = {
  name: '',
  namespace: 'default',
  instanceGroup: '',
  nodes: '1',
  storage: '',
  image: '',
  retries: '',
  jobStart: false,
  jobStartCutoff: '',
  hang: false,
  hangGap: '',
  lowThroughput: false,
  tokensBelow: '',
  elastic: false,
  minReplicas: '',
  maxReplicas: '',
  mlflow: '',
  customImage: '',
  customCommand: '',
  customArgs: '',
  customLaunch: 'hyperpodrun',
  saveAsTemplate: false,
  templateName: '',
};

/** What is submitted: a recipe (by id) or a custom container. */
export type Source = { recipe: string; kind: 'HyperPodPyTorchJob' | 'RayJob' } | { custom: true };

const lines = (s: string) =>
  s
    .split('\n')
    .map((x) => x.trim())
    .filter(Boolean);
const num = (s: string) => (s.trim() === '' ? undefined : Number(s.trim()));

function faultToleranceOf(c: CommonState, ray: boolean): SubmitJobInput['faultTolerance'] {
  const logMonitoring = ray
    ? undefined
    : {
        ...(c.jobStart
          ? { jobStart: { ...(num(c.jobStartCutoff) !== undefined ? { cutoffSeconds: num(c.jobStartCutoff) } : {}) } }
          : {}),
        ...(c.hang ? { hang: { ...(num(c.hangGap) !== undefined ? { gapSeconds: num(c.hangGap) } : {}) } } : {}),
        ...(c.lowThroughput ? { lowThroughput: { tokensPerSecondBelow: num(c.tokensBelow) ?? Number.NaN } } : {}),
      };
  const hasRules = logMonitoring && Object.keys(logMonitoring).length > 0;
  if (num(c.retries) === undefined && !hasRules) return undefined;
  return {
    ...(num(c.retries) !== undefined ? { jobMaxRetryCount: num(c.retries) } : {}),
    ...(hasRules ? { logMonitoring } : {}),
  };
}

/** The request the form stands for, and the problems found before sending (by field path, like the server's). */
export function requestOf(
  source: Source,
  c: CommonState,
  fields: readonly FormFieldSpec[],
  values: FormValues,
): { body: SubmitJobInput; problems: Map<string, string> } {
  const { params, problems: paramProblems } = paramsOf(fields, values);
  const problems = new Map([...paramProblems].map(([k, v]) => [`params.${k}`, v] as [string, string]));
  const ray = 'recipe' in source && source.kind === 'RayJob';
  const ft = faultToleranceOf(c, ray);
  const body: SubmitJobInput = {
    name: c.name.trim(),
    namespace: c.namespace.trim() || 'default',
    instanceGroup: c.instanceGroup,
    nodes: num(c.nodes) ?? 1,
    storage: c.storage,
    ...('recipe' in source
      ? { recipe: source.recipe, params, ...(c.image.trim() ? { image: c.image.trim() } : {}) }
      : {
          custom: {
            image: c.customImage.trim(),
            command: lines(c.customCommand),
            args: lines(c.customArgs),
            launch: c.customLaunch,
          },
        }),
    ...(ft ? { faultTolerance: ft } : {}),
    ...(c.elastic
      ? { elastic: { minReplicas: num(c.minReplicas) ?? Number.NaN, maxReplicas: num(c.maxReplicas) ?? Number.NaN } }
      : {}),
    ...(c.mlflow ? { mlflow: { trackingServerArn: c.mlflow } } : {}),
    ...(c.saveAsTemplate ? { saveAsTemplate: { name: c.templateName.trim() } } : {}),
  };
  if (!body.name) problems.set('name', 'is required');
  if (!body.instanceGroup) problems.set('instanceGroup', 'choose the instance group the pods run on');
  if (!body.storage) problems.set('storage', 'choose the storage mounted at /data');
  if (c.saveAsTemplate && !c.templateName.trim()) problems.set('saveAsTemplate.name', 'is required to save a template');
  if (c.elastic && num(c.minReplicas) === undefined)
    problems.set('elastic.minReplicas', 'is required for an elastic job');
  if (c.elastic && num(c.maxReplicas) === undefined)
    problems.set('elastic.maxReplicas', 'is required for an elastic job');
  if (c.lowThroughput && !ray && num(c.tokensBelow) === undefined)
    problems.set(
      'faultTolerance.logMonitoring.lowThroughput.tokensPerSecondBelow',
      'is required for a throughput floor',
    );
  if ('custom' in source && !c.customImage.trim()) problems.set('custom.image', 'is required');
  if ('custom' in source && lines(c.customCommand).length === 0)
    problems.set('custom.command', 'is required: the program to run, one part per line');
  return { body, problems };
}

/** A saved template back into the form (its request has no job name: the person gives a new one). */
export function stateFromTemplate(
  t: TrainingTemplate,
  fields: readonly FormFieldSpec[],
): { common: CommonState; values: Map<string, string | boolean> } {
  const r = t.request;
  const ft = r.faultTolerance;
  const lm = ft?.logMonitoring;
  const common: CommonState = {
    ...EMPTY_COMMON,
    namespace: r.namespace,
    instanceGroup: r.instanceGroup,
    nodes: String(r.nodes),
    storage: r.storage,
    image: r.image ?? '',
    retries: ft ? String(ft.jobMaxRetryCount) : '',
    jobStart: !!lm?.jobStart,
    jobStartCutoff: lm?.jobStart ? String(lm.jobStart.cutoffSeconds) : '',
    hang: !!lm?.hang,
    hangGap: lm?.hang ? String(lm.hang.gapSeconds) : '',
    lowThroughput: !!lm?.lowThroughput,
    tokensBelow: lm?.lowThroughput ? String(lm.lowThroughput.tokensPerSecondBelow) : '',
    elastic: !!r.elastic,
    minReplicas: r.elastic ? String(r.elastic.minReplicas) : '',
    maxReplicas: r.elastic ? String(r.elastic.maxReplicas) : '',
    mlflow: r.mlflow?.trackingServerArn ?? '',
    customImage: r.custom?.image ?? '',
    customCommand: r.custom?.command.join('\n') ?? '',
    customArgs: r.custom?.args.join('\n') ?? '',
    customLaunch: r.custom?.launch ?? 'hyperpodrun',
  };
  return { common, values: valuesFromParams(fields, r.params) };
}

/** A name for a job run again: `<job>-r2`, then `-r3`…, within the 40 characters a job name may have. */
export function resubmitName(job: string): string {
  const m = /^(.*?)-r(\d+)$/.exec(job);
  const base = (m ? m[1]! : job).slice(0, 36);
  return `${base}-r${m ? Number(m[2]) + 1 : 2}`;
}
