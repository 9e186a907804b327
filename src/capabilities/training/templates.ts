import { canonicalJson } from '../../domain/canonical-json.js';
import { ConflictError, InputError, NotFoundError } from '../../domain/errors.js';
import type { KeyedCall } from '../../domain/keyed-call.js';
import { TrainingTemplateRequestSchema, type TrainingTemplate } from '../../domain/schemas/training.js';
import { recipeById } from '../../domain/training/recipes/index.js';
import type { TrainingRecordsPort, TrainingTemplateRecord } from './ports.js';

/**
 * Saved job requests of a cluster (templates): kept in the server's store by Region, cluster and
 * name (one cluster's templates never mix with another's, nor with a same-named cluster in another
 * Region). A template is a submit request without the job's name; re-submitting one is a submit
 * with a name. A stored request that no longer parses (a schema that grew stricter) is shown as it
 * parses now, or left out of the list, never served half-valid to a submit.
 */
export class TrainingTemplates {
  constructor(private readonly records: TrainingRecordsPort) {}

  list(region: string, cluster: string): { cluster: string; templates: TrainingTemplate[] } {
    const templates = this.records.templates(region, cluster).flatMap((r) => {
      const t = templateOf(cluster, r);
      return t ? [t] : [];
    });
    return { cluster, templates };
  }

  get(region: string, cluster: string, name: string): TrainingTemplate {
    const record = this.records.template(region, cluster, name);
    const t = record ? templateOf(cluster, record) : undefined;
    if (!t)
      throw new NotFoundError({
        resource: 'training template',
        id: name,
        message: `Cluster ${cluster} has no training template '${name}' in ${region} (list them with GET …/training-templates).`,
      });
    return t;
  }

  /** Saves (creates or replaces) a template; the recipe must exist (400 naming request.recipe). */
  save(
    region: string,
    cluster: string,
    name: string,
    request: unknown,
    description?: string,
  ): { template: TrainingTemplate; replaced: boolean } {
    const parsed = TrainingTemplateRequestSchema.parse(request);
    if (parsed.recipe !== undefined && !recipeById(parsed.recipe))
      throw InputError.field('request.recipe', `'${parsed.recipe}' is not a recipe; list them with list_recipes`);
    const { replaced } = this.records.putTemplate({
      region,
      cluster,
      name,
      request: parsed,
      ...(description !== undefined ? { description } : {}),
    });
    return { template: this.get(region, cluster, name), replaced };
  }

  /**
   * Saves a new template; 409 naming name when the cluster has one of that name — but the retry of a
   * create a crash interrupted after the save (the same key and body) answers the template it saved.
   */
  create(
    region: string,
    cluster: string,
    name: string,
    request: unknown,
    description?: string,
    keyed?: KeyedCall,
  ): TrainingTemplate {
    const existing = this.records.template(region, cluster, name);
    if (existing && keyed?.interrupted && sameTemplate(existing, request, description))
      return this.get(region, cluster, name);
    if (existing)
      throw new ConflictError({
        message: `name: cluster ${cluster} already has a template '${name}'; replace it with PUT …/training-templates/${name} or choose another name.`,
        field: 'name',
      });
    return this.save(region, cluster, name, request, description).template;
  }

  delete(region: string, cluster: string, name: string): boolean {
    const gone = this.records.deleteTemplate(region, cluster, name);
    if (!gone)
      throw new NotFoundError({
        resource: 'training template',
        id: name,
        message: `Cluster ${cluster} has no training template '${name}' in ${region}.`,
      });
    return gone;
  }
}

/** Whether the stored template is what this request would save (its request as parsed, and its description). */
function sameTemplate(stored: TrainingTemplateRecord, request: unknown, description: string | undefined): boolean {
  const parsed = TrainingTemplateRequestSchema.safeParse(request);
  return (
    parsed.success && canonicalJson(stored.request) === canonicalJson(parsed.data) && stored.description === description
  );
}

function templateOf(cluster: string, r: TrainingTemplateRecord): TrainingTemplate | undefined {
  const request = TrainingTemplateRequestSchema.safeParse(r.request);
  if (!request.success) return undefined;
  return {
    name: r.name,
    cluster,
    ...(r.description !== undefined ? { description: r.description } : {}),
    request: request.data,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}
