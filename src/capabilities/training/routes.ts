import { z } from 'zod';
import { ClusterRefSchema, RegionSchema } from '../../domain/schemas/common.js';
import {
  SaveTrainingTemplateRequestSchema,
  TemplateNameSchema,
  TrainingTemplateListSchema,
  TrainingTemplateSchema,
  ClusterMlflowSchema,
  DeleteTrainingJobAnswerSchema,
  DeleteTrainingJobQuerySchema,
  RecipeIdSchema,
  RecipeListSchema,
  RecipeViewSchema,
  ResubmitTrainingJobRequestSchema,
  SubmitTrainingJobAnswerSchema,
  SubmitTrainingJobRequestSchema,
  TrainingJobListQuerySchema,
  TrainingJobListSchema,
  TrainingJobParamsSchema,
  TrainingJobViewSchema,
  TrainingMetricsAnswerSchema,
  TrainingMetricsQuerySchema,
} from '../../domain/schemas/training.js';
import {
  CreateMlflowServerRequestSchema,
  DeleteMlflowServerAnswerSchema,
  DeleteMlflowServerQuerySchema,
  LinkMlflowServerRequestSchema,
  MlflowServerListSchema,
  MlflowTrackingServerNameSchema,
  MlflowTrackingServerViewSchema,
} from '../../domain/schemas/mlflow.js';
import { idempotencyKey, keyedCall } from '../../api/accepted.js';
import type { RouteContext } from '../capability.js';
import { TRAINING_PATHS } from './paths.js';
import type { TrainingService } from './service.js';

const ClusterParams = z.object({ name: ClusterRefSchema });
const RegionQuery = z.object({ region: RegionSchema.optional() }).strict();
const TemplateParams = z.object({ name: ClusterRefSchema, template: TemplateNameSchema });
const CreateTemplateSchema = SaveTrainingTemplateRequestSchema.extend({ name: TemplateNameSchema }).strict();
const TAGS = ['training'];

/** Recipes, jobs (submit, list, get, delete, re-submit, metrics), MLflow servers and a cluster's default, templates. */
export function registerTrainingRoutes(ctx: RouteContext<TrainingService>): void {
  const { app, routes, service, region } = ctx;

  routes.define(
    app,
    {
      method: 'GET',
      url: TRAINING_PATHS.recipes,
      operationId: 'listRecipes',
      tags: TAGS,
      summary:
        'The training recipes: each with its kind, pinned image and parameters as JSON Schema (what a form is generated from)',
      responses: { 200: { description: 'The recipes', schema: RecipeListSchema } },
    },
    async () => service().recipes(),
  );

  routes.define(
    app,
    {
      method: 'GET',
      url: TRAINING_PATHS.recipe,
      operationId: 'getRecipe',
      tags: TAGS,
      summary: 'One training recipe',
      params: z.object({ recipe: RecipeIdSchema }),
      responses: { 200: { description: 'The recipe', schema: RecipeViewSchema } },
    },
    async ({ params }) => service().recipe(params.recipe),
  );

  routes.define(
    app,
    {
      method: 'GET',
      url: TRAINING_PATHS.jobs,
      operationId: 'listTrainingJobs',
      tags: TAGS,
      summary:
        "The cluster's training jobs (HyperPodPyTorchJobs and RayJobs), read live from Kubernetes: phase, recovery budget, health",
      description:
        'A kind whose operator is off is named in notServed (turn the training-operator or kuberay-operator feature on).',
      params: ClusterParams,
      query: TrainingJobListQuerySchema,
      responses: { 200: { description: 'The jobs, newest first', schema: TrainingJobListSchema } },
    },
    async ({ params, query }) => service().list(region(query.region), params.name, query.namespace),
  );

  routes.define(
    app,
    {
      method: 'POST',
      url: TRAINING_PATHS.jobs,
      operationId: 'submitTrainingJob',
      tags: TAGS,
      summary:
        'Submit a training job (a recipe with its parameters, or a custom container): created at once as a HyperPodPyTorchJob or RayJob',
      description:
        "Refused before anything is created: bad input 400 naming the field (params.<field> for a recipe's parameters); a name already used in the namespace by a job of either kind 409 naming name; " +
        "the kind's operator off 422 naming the feature (training-operator / kuberay-operator, turned on with PATCH /api/v1/clusters/{name}/features); elastic on a spot group or with managed tiered checkpointing on 422 naming elastic; " +
        "an unknown group, storage or MLflow server 422 naming instanceGroup, storage or mlflow.trackingServerArn. With mlflow (or the cluster's default server), the job's pods get a pod identity allowed sagemaker-mlflow:* on that server.",
      params: ClusterParams,
      body: SubmitTrainingJobRequestSchema,
      responses: { 201: { description: 'The job as created', schema: SubmitTrainingJobAnswerSchema } },
    },
    async ({ params, body, request }) =>
      service().submit(region(body.region), params.name, body, idempotencyKey(request)),
  );

  routes.define(
    app,
    {
      method: 'GET',
      url: TRAINING_PATHS.job,
      operationId: 'getTrainingJob',
      tags: TAGS,
      summary:
        'One training job: phase, conditions, recovery budget, ranks (pod, node, instance, health) and recent events, newest first',
      params: TrainingJobParamsSchema,
      query: RegionQuery,
      responses: { 200: { description: 'The job', schema: TrainingJobViewSchema } },
    },
    async ({ params, query }) => service().get(region(query.region), params.name, params.namespace, params.job),
  );

  routes.define(
    app,
    {
      method: 'DELETE',
      url: TRAINING_PATHS.job,
      operationId: 'deleteTrainingJob',
      tags: TAGS,
      summary:
        "Delete a training job and its pods (a RayJob's Ray cluster too); confirm=true required. Checkpoints and outputs under /data stay",
      params: TrainingJobParamsSchema,
      query: DeleteTrainingJobQuerySchema,
      responses: { 200: { description: 'Deleted', schema: DeleteTrainingJobAnswerSchema } },
    },
    async ({ params, query, request }) =>
      service().delete(region(query.region), params.name, params.namespace, params.job, keyedCall(request)),
  );

  routes.define(
    app,
    {
      method: 'POST',
      url: TRAINING_PATHS.jobResubmit,
      operationId: 'resubmitTrainingJob',
      tags: TAGS,
      summary: 'Run a job again under a new name, from the request it was submitted with',
      params: TrainingJobParamsSchema,
      body: ResubmitTrainingJobRequestSchema,
      responses: { 201: { description: 'The new job as created', schema: SubmitTrainingJobAnswerSchema } },
    },
    async ({ params, body, request }) =>
      service().resubmit(
        region(body.region),
        params.name,
        params.namespace,
        params.job,
        body.name,
        idempotencyKey(request),
      ),
  );

  routes.define(
    app,
    {
      method: 'GET',
      url: TRAINING_PATHS.jobMetrics,
      operationId: 'getTrainingJobMetrics',
      tags: TAGS,
      summary:
        "A job's metric series (loss, throughput, learning rate by step) from its MLflow run, every page of the history read, thinned to maxPoints",
      params: TrainingJobParamsSchema,
      query: TrainingMetricsQuerySchema,
      responses: { 200: { description: 'The series', schema: TrainingMetricsAnswerSchema } },
    },
    async ({ params, query }) =>
      service().metrics(region(query.region), params.name, params.namespace, params.job, query),
  );

  routes.define(
    app,
    {
      method: 'GET',
      url: TRAINING_PATHS.mlflowServers,
      operationId: 'listMlflowServers',
      tags: TAGS,
      summary: "The Region's SageMaker managed MLflow tracking servers with their status",
      query: RegionQuery,
      responses: { 200: { description: 'The servers, newest first', schema: MlflowServerListSchema } },
    },
    async ({ query }) => service().listMlflowServers(region(query.region)),
  );

  routes.define(
    app,
    {
      method: 'POST',
      url: TRAINING_PATHS.mlflowServers,
      operationId: 'createMlflowServer',
      tags: TAGS,
      summary:
        'Create a SageMaker managed MLflow tracking server (one AWS call; the server is Creating for up to ~25 minutes — follow its status with GET)',
      description:
        "Without roleArn, InstantStart makes the role SageMaker assumes (trusting sagemaker.amazonaws.com, read/write on the artifact store's bucket prefix).",
      body: CreateMlflowServerRequestSchema,
      responses: {
        201: {
          description: 'The server as SageMaker describes it now (Creating)',
          schema: MlflowTrackingServerViewSchema,
        },
      },
    },
    async ({ body, request }) => service().createMlflowServer(region(body.region), body, idempotencyKey(request)),
  );

  routes.define(
    app,
    {
      method: 'GET',
      url: TRAINING_PATHS.mlflowServer,
      operationId: 'getMlflowServer',
      tags: TAGS,
      summary: 'One MLflow tracking server',
      params: z.object({ server: MlflowTrackingServerNameSchema }),
      query: RegionQuery,
      responses: { 200: { description: 'The server', schema: MlflowTrackingServerViewSchema } },
    },
    async ({ params, query }) => service().getMlflowServer(region(query.region), params.server),
  );

  routes.define(
    app,
    {
      method: 'DELETE',
      url: TRAINING_PATHS.mlflowServer,
      operationId: 'deleteMlflowServer',
      tags: TAGS,
      summary:
        'Delete an MLflow tracking server (confirm=true): its experiments, runs and metrics go; its S3 artifacts stay. Clusters linked to it are unlinked; the role InstantStart made for it is deleted',
      params: z.object({ server: MlflowTrackingServerNameSchema }),
      query: DeleteMlflowServerQuerySchema,
      responses: {
        200: {
          description: 'The server, Deleting (or deleted: false when there was none)',
          schema: DeleteMlflowServerAnswerSchema,
        },
      },
    },
    async ({ params, query }) => service().deleteMlflowServer(region(query.region), params.server),
  );

  routes.define(
    app,
    {
      method: 'GET',
      url: TRAINING_PATHS.clusterMlflow,
      operationId: 'getClusterMlflow',
      tags: TAGS,
      summary: "The tracking server a cluster's jobs report to when a submit names none",
      params: ClusterParams,
      query: RegionQuery,
      responses: { 200: { description: 'The link', schema: ClusterMlflowSchema } },
    },
    async ({ params, query }) => service().clusterMlflow(region(query.region), params.name),
  );

  routes.define(
    app,
    {
      method: 'PUT',
      url: TRAINING_PATHS.clusterMlflow,
      operationId: 'linkClusterMlflow',
      tags: TAGS,
      summary: "Link (or with null unlink) the cluster's default tracking server",
      params: ClusterParams,
      body: LinkMlflowServerRequestSchema,
      responses: { 200: { description: 'The link', schema: ClusterMlflowSchema } },
    },
    async ({ params, body }) => service().linkMlflow(region(body.region), params.name, body.trackingServerArn),
  );

  registerTemplateRoutes(ctx);
}

/** A cluster's saved job requests (templates): kept in InstantStart's store per Region and cluster. */
function registerTemplateRoutes({ app, routes, service, region }: RouteContext<TrainingService>): void {
  routes.define(
    app,
    {
      method: 'GET',
      url: TRAINING_PATHS.templates,
      operationId: 'listTrainingTemplates',
      tags: TAGS,
      summary: "The cluster's saved job templates",
      params: ClusterParams,
      query: RegionQuery,
      responses: { 200: { description: 'The templates by name', schema: TrainingTemplateListSchema } },
    },
    async ({ params, query }) => service().templates.list(region(query.region), params.name),
  );

  routes.define(
    app,
    {
      method: 'POST',
      url: TRAINING_PATHS.templates,
      operationId: 'createTrainingTemplate',
      tags: TAGS,
      summary:
        'Save a job request (without a job name) as a template of the cluster; 409 naming name when one of that name exists (replace it with PUT)',
      params: ClusterParams,
      body: CreateTemplateSchema,
      responses: { 201: { description: 'The template', schema: TrainingTemplateSchema } },
    },
    async ({ params, body, request }) =>
      service().templates.create(
        region(body.region),
        params.name,
        body.name,
        body.request,
        body.description,
        keyedCall(request),
      ),
  );

  routes.define(
    app,
    {
      method: 'GET',
      url: TRAINING_PATHS.template,
      operationId: 'getTrainingTemplate',
      tags: TAGS,
      summary: 'One template',
      params: TemplateParams,
      query: RegionQuery,
      responses: { 200: { description: 'The template', schema: TrainingTemplateSchema } },
    },
    async ({ params, query }) => service().templates.get(region(query.region), params.name, params.template),
  );

  routes.define(
    app,
    {
      method: 'PUT',
      url: TRAINING_PATHS.template,
      operationId: 'putTrainingTemplate',
      tags: TAGS,
      summary: 'Create or replace a template',
      params: TemplateParams,
      body: SaveTrainingTemplateRequestSchema,
      // It overwrites the template of that name, which is lost: admin tokens only (POST templates creates).
      destructive: true,
      responses: { 200: { description: 'The template', schema: TrainingTemplateSchema } },
    },
    async ({ params, body }) =>
      service().templates.save(region(body.region), params.name, params.template, body.request, body.description)
        .template,
  );

  routes.define(
    app,
    {
      method: 'DELETE',
      url: TRAINING_PATHS.template,
      operationId: 'deleteTrainingTemplate',
      tags: TAGS,
      summary: 'Delete a template',
      params: TemplateParams,
      query: RegionQuery,
      responses: { 200: { description: 'Deleted', schema: z.object({ template: z.string(), deleted: z.boolean() }) } },
    },
    async ({ params, query }) => ({
      template: params.template,
      deleted: service().templates.delete(region(query.region), params.name, params.template),
    }),
  );
}
