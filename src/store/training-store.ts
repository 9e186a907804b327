import type { Database } from './database.js';
import { guardWrite } from './store-failures.js';

/**
 * What InstantStart itself keeps for training (never the jobs: those are read live from
 * Kubernetes): saved job requests per cluster (templates) and the tracking server a cluster's jobs
 * report to by default. Rows are keyed by Region, cluster and name in SQL, never by a user's name
 * as an object key.
 *
 * @example
 * const training = new TrainingStore(db);
 * training.putTemplate({ region: 'us-west-2', cluster: 'demo', name: 'sft', request: { recipe: 'llama-factory-sft', … }
 * });
 * training.template('us-west-2', 'demo', 'sft'); // → { name: 'sft', request: {…}, createdAt, updatedAt }
 */
export interface StoredTemplate {
  name: string;
  description?: string;
  request: unknown;
  createdAt: string;
  updatedAt: string;
}

export class TrainingStore {
  private readonly sql: ReturnType<typeof prepare>;

  constructor(
    private readonly db: Database,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.sql = prepare(db);
  }

  templates(region: string, cluster: string): StoredTemplate[] {
    return (this.sql.templates.all(region, cluster) as TemplateRow[]).map(templateOf);
  }

  template(region: string, cluster: string, name: string): StoredTemplate | undefined {
    const row = this.sql.template.get(region, cluster, name) as TemplateRow | undefined;
    return row ? templateOf(row) : undefined;
  }

  /** Creates or replaces the template (its creation time kept); whether it existed before. */
  putTemplate(t: { region: string; cluster: string; name: string; description?: string; request: unknown }): {
    replaced: boolean;
  } {
    const at = this.now().toISOString();
    return guardWrite(this.db.name, () => {
      const replaced = this.sql.template.get(t.region, t.cluster, t.name) !== undefined;
      this.sql.putTemplate.run(t.region, t.cluster, t.name, t.description ?? null, JSON.stringify(t.request), at, at);
      return { replaced };
    });
  }

  deleteTemplate(region: string, cluster: string, name: string): boolean {
    return guardWrite(this.db.name, () => this.sql.deleteTemplate.run(region, cluster, name).changes > 0);
  }

  clusterMlflow(region: string, cluster: string): string | undefined {
    const row = this.sql.mlflow.get(region, cluster) as { tracking_server_arn: string } | undefined;
    return row?.tracking_server_arn;
  }

  /** Links (or, with undefined, unlinks) the cluster's default tracking server. */
  setClusterMlflow(region: string, cluster: string, trackingServerArn: string | undefined): void {
    guardWrite(this.db.name, () =>
      trackingServerArn === undefined
        ? this.sql.unlinkMlflow.run(region, cluster)
        : this.sql.linkMlflow.run(region, cluster, trackingServerArn, this.now().toISOString()),
    );
  }

  /** Unlinks a tracking server from every cluster that had it as default (it is being deleted); those clusters, by name. */
  unlinkServer(trackingServerArn: string): Array<{ region: string; cluster: string }> {
    return guardWrite(
      this.db.name,
      () => this.sql.unlinkServer.all(trackingServerArn) as Array<{ region: string; cluster: string }>,
    );
  }
}

interface TemplateRow {
  name: string;
  description: string | null;
  request: string;
  created_at: string;
  updated_at: string;
}

const templateOf = (r: TemplateRow): StoredTemplate => ({
  name: r.name,
  ...(r.description !== null ? { description: r.description } : {}),
  request: JSON.parse(r.request) as unknown,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

function prepare(db: Database) {
  return {
    templates: db.prepare(
      'SELECT name, description, request, created_at, updated_at FROM training_templates WHERE region = ? AND cluster = ? ORDER BY name',
    ),
    template: db.prepare(
      'SELECT name, description, request, created_at, updated_at FROM training_templates WHERE region = ? AND cluster = ? AND name = ?',
    ),
    putTemplate: db.prepare(
      `INSERT INTO training_templates (region, cluster, name, description, request, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (region, cluster, name) DO UPDATE SET description = excluded.description, request = excluded.request, updated_at = excluded.updated_at`,
    ),
    deleteTemplate: db.prepare('DELETE FROM training_templates WHERE region = ? AND cluster = ? AND name = ?'),
    mlflow: db.prepare('SELECT tracking_server_arn FROM cluster_mlflow WHERE region = ? AND cluster = ?'),
    linkMlflow: db.prepare(
      `INSERT INTO cluster_mlflow (region, cluster, tracking_server_arn, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (region, cluster) DO UPDATE SET tracking_server_arn = excluded.tracking_server_arn, updated_at = excluded.updated_at`,
    ),
    unlinkMlflow: db.prepare('DELETE FROM cluster_mlflow WHERE region = ? AND cluster = ?'),
    unlinkServer: db.prepare('DELETE FROM cluster_mlflow WHERE tracking_server_arn = ? RETURNING region, cluster'),
  };
}
