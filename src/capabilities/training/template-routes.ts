import { z } from 'zod';
import { ClusterRefSchema, RegionSchema } from '../../domain/schemas/common.js';
import { SaveTrainingTemplateRequestSchema, TemplateNameSchema, TrainingTemplateListSchema, TrainingTemplateSchema } from '../../domain/schemas/training.js';
import type { RouteContext } from '../capability.js';
import { TRAINING_PATHS } from './paths.js';
import type { TrainingService } from './service.js';

const ClusterParams = z.object({ name: ClusterRefSchema });
const TemplateParams = z.object({ name: ClusterRefSchema, template: TemplateNameSchema });
const RegionQuery = z.object({ region: RegionSchema.optional() }).strict();
const CreateTemplateSchema = SaveTrainingTemplateRequestSchema.extend({ name: TemplateNameSchema }).strict();
const TAGS = ['training'];

/** A cluster's saved job requests (templates): kept in InstantStart's store per Region and cluster. */
export function registerTemplateRoutes({ app, routes, service, region }: RouteContext<TrainingService>): void {
  routes.define(
    app,
    { method: 'GET', url: TRAINING_PATHS.templates, operationId: 'listTrainingTemplates', tags: TAGS, summary: 'The cluster\'s saved job templates', params: ClusterParams, query: RegionQuery, responses: { 200: { description: 'The templates by name', schema: TrainingTemplateListSchema } } },
    async ({ params, query }) => service().templates.list(region(query.region), params.name),
  );

  routes.define(
    app,
    {
      method: 'POST', url: TRAINING_PATHS.templates, operationId: 'createTrainingTemplate', tags: TAGS,
      summary: 'Save a job request (without a job name) as a template of the cluster; 409 naming name when one of that name exists (replace it with PUT)',
      params: ClusterParams, body: CreateTemplateSchema,
      responses: { 201: { description: 'The template', schema: TrainingTemplateSchema } },
    },
    async ({ params, body }) => service().templates.create(region(body.region), params.name, body.name, body.request, body.description),
  );

  routes.define(
    app,
    { method: 'GET', url: TRAINING_PATHS.template, operationId: 'getTrainingTemplate', tags: TAGS, summary: 'One template', params: TemplateParams, query: RegionQuery, responses: { 200: { description: 'The template', schema: TrainingTemplateSchema } } },
    async ({ params, query }) => service().templates.get(region(query.region), params.name, params.template),
  );

  routes.define(
    app,
    { method: 'PUT', url: TRAINING_PATHS.template, operationId: 'putTrainingTemplate', tags: TAGS, summary: 'Create or replace a template', params: TemplateParams, body: SaveTrainingTemplateRequestSchema, responses: { 200: { description: 'The template', schema: TrainingTemplateSchema } } },
    async ({ params, body }) => service().templates.save(region(body.region), params.name, params.template, body.request, body.description).template,
  );

  routes.define(
    app,
    { method: 'DELETE', url: TRAINING_PATHS.template, operationId: 'deleteTrainingTemplate', tags: TAGS, summary: 'Delete a template', params: TemplateParams, query: RegionQuery, responses: { 200: { description: 'Deleted', schema: z.object({ template: z.string(), deleted: z.boolean() }) } } },
    async ({ params, query }) => ({ template: params.template, deleted: service().templates.delete(region(query.region), params.name, params.template) }),
  );
}
