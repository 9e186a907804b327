import { z } from 'zod';
import { accepted, idempotencyKey } from '../../api/accepted.js';
import { ClusterRefSchema, RegionSchema } from '../../domain/schemas/common.js';
import {
  FeatureChangesSchema,
  FeaturePlanAnswerSchema,
  FeaturesAnswerSchema,
  FeaturesUnchangedSchema,
  type FeatureChanges,
} from '../../domain/schemas/features.js';
import { AcceptedSchema } from '../../domain/schemas/operations.js';
import type { RouteContext } from '../capability.js';
import { FEATURES_PATHS } from './paths.js';
import type { FeaturesService } from './service.js';

const ClusterParams = z.object({ name: ClusterRefSchema });
const RegionQuery = z.object({ region: RegionSchema.optional() }).strict();

const DIFF_CONTRACT =
  'Send only the features you changed (true turns one on with its defaults, false off, an object turns it on with those settings); features not named are never touched. ' +
  'What a feature needs is installed first; turning off what an enabled feature still needs is refused (422 naming both).';

export function registerFeaturesRoutes({ app, routes, service, region }: RouteContext<FeaturesService>): void {
  routes.define(
    app,
    {
      method: 'GET',
      url: FEATURES_PATHS.list,
      operationId: 'getFeatures',
      tags: ['features'],
      summary:
        'The managed features of a cluster as the cluster has them: state, version, health, settings, what each needs and what needs it, its IAM identities',
      description:
        "Read live from AWS (EKS add-ons, the HyperPod cluster's settings, IAM) and Kubernetes (the manifests' objects), never from InstantStart's store.",
      params: ClusterParams,
      query: RegionQuery,
      responses: { 200: { description: 'Every feature, in registry order', schema: FeaturesAnswerSchema } },
    },
    async ({ params, query }) => service().get(region(query.region), params.name),
  );

  routes.define(
    app,
    {
      method: 'POST',
      url: FEATURES_PATHS.plan,
      operationId: 'planFeatures',
      readOnly: true,
      tags: ['features'],
      summary: 'What a change of features would do, before anything happens (dry run)',
      description: `${DIFF_CONTRACT} The answer lists the installs in order (with what each also needs and the objects each creates), the removals (with the objects each deletes), the features already as asked, and the refusals. Nothing is changed.`,
      params: ClusterParams,
      query: RegionQuery,
      body: FeatureChangesSchema,
      responses: { 200: { description: 'The plan', schema: FeaturePlanAnswerSchema } },
    },
    async ({ params, query, body }) =>
      (await service().plan(region(query.region), params.name, body as FeatureChanges)).answer,
  );

  routes.define(
    app,
    {
      method: 'PATCH',
      url: FEATURES_PATHS.list,
      operationId: 'setFeatures',
      tags: ['features'],
      summary: 'Turn managed features on or off (only the features you changed)',
      description:
        `${DIFF_CONTRACT} When every feature named already is as asked, the answer is 200 saying so and no operation starts (nothing is changed). ` +
        'Otherwise 202 with the set-features operation: plan, remove (dependents first), install (needs first), autoscaling.',
      params: ClusterParams,
      query: RegionQuery,
      body: FeatureChangesSchema,
      responses: {
        200: { description: 'Nothing to do: no operation started', schema: FeaturesUnchangedSchema },
        202: { description: 'Operation accepted', schema: AcceptedSchema },
      },
    },
    async ({ params, query, body, request, reply }) => {
      const out = await service().set(
        region(query.region),
        params.name,
        body as FeatureChanges,
        idempotencyKey(request),
      );
      if ('unchanged' in out) return out.unchanged;
      reply.code(202);
      return accepted(out.started);
    },
  );
}
