import { PreconditionError } from '../errors.js';
import type { KubeObject } from '../kube-object.js';
import { REQUEST_ANNOTATION } from '../kube/kind.js';
import { TrainingTemplateRequestSchema, type SubmitTrainingJobRequest } from '../schemas/training.js';

/**
 * Re-submit: a job keeps the request it was made from (without its name) in an annotation, so a
 * finished job can run again under a new name exactly as it was asked for. The request holds no
 * secrets (env literals are refused when they look like one, EnvVarSchema), so it may be read by
 * anyone who can read the job. Templates keep the same shape (TrainingTemplateRequestSchema).
 */

export type SavedRequest = ReturnType<typeof TrainingTemplateRequestSchema.parse>;

/** The request as it is saved: without the job's name, its Region and the template to save. */
export function savedRequest(req: SubmitTrainingJobRequest): SavedRequest {
  const { name: _name, region: _region, saveAsTemplate: _template, ...rest } = req;
  return TrainingTemplateRequestSchema.parse(rest);
}

/** The manifest with the request annotation added (the manifest is otherwise unchanged). */
export function withSavedRequest(manifest: KubeObject, req: SubmitTrainingJobRequest): KubeObject {
  return {
    ...manifest,
    metadata: {
      ...manifest.metadata,
      annotations: { ...manifest.metadata.annotations, [REQUEST_ANNOTATION]: JSON.stringify(savedRequest(req)) },
    },
  };
}

/**
 * The request a job was submitted with, from its annotations; a 422 naming `job` when the job was
 * not submitted by InstantStart (or its annotation was changed into something that does not parse).
 */
export function savedRequestOf(job: string, annotations: Readonly<Record<string, string>>): SavedRequest {
  const text = annotations[REQUEST_ANNOTATION];
  const refuse = (why: string) =>
    new PreconditionError({
      message: `job: ${job} cannot be re-submitted: ${why}`,
      problems: [{ path: 'job', message: `cannot be re-submitted: ${why}` }],
      remedy: 'Submit it anew with submit_training_job (POST …/jobs) and the full request.',
    });
  if (!text) throw refuse(`it has no ${REQUEST_ANNOTATION} annotation (it was not submitted through InstantStart)`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw refuse(`its ${REQUEST_ANNOTATION} annotation is not JSON`);
  }
  const parsed = TrainingTemplateRequestSchema.safeParse(raw);
  if (!parsed.success)
    throw refuse(
      `its ${REQUEST_ANNOTATION} annotation is not a valid request (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`,
    );
  return parsed.data;
}
