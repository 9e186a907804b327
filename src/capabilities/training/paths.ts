/**
 * The REST paths of the training capability, written once (routes, MCP tools and the UI use these).
 * A job is named by cluster, namespace and name (one name per namespace across both kinds).
 */
export const TRAINING_PATHS = {
  /** GET: the recipe catalogue (each recipe's parameters as JSON Schema). */
  recipes: '/api/v1/training/recipes',
  /** GET: one recipe. */
  recipe: '/api/v1/training/recipes/{recipe}',
  /** GET: the cluster's training jobs (?namespace=); POST: submit one (a recipe or a custom container). */
  jobs: '/api/v1/clusters/{name}/jobs',
  /** GET: one job with its ranks, conditions, recovery budget and events; DELETE: delete it (?confirm=true). */
  job: '/api/v1/clusters/{name}/jobs/{namespace}/{job}',
  /** POST: run the job again under a new name, from the request it was submitted with. */
  jobResubmit: '/api/v1/clusters/{name}/jobs/{namespace}/{job}/resubmit',
  /** GET: the capped tail of one rank's or all ranks' logs (rank, tailLines, sinceSeconds, limitBytes, grep, previous). */
  jobLogs: '/api/v1/clusters/{name}/jobs/{namespace}/{job}/logs',
  /** WebSocket (GET with Upgrade, ?token= like /api/v1/ws): the same tail, then new lines as they come; one stream per socket. */
  jobLogsFollow: '/api/v1/clusters/{name}/jobs/{namespace}/{job}/logs/follow',
  /** GET: the job's metric series from its MLflow run. */
  jobMetrics: '/api/v1/clusters/{name}/jobs/{namespace}/{job}/metrics',
  /** GET: the cluster's saved job templates; POST: save one. */
  templates: '/api/v1/clusters/{name}/training-templates',
  /** GET / PUT / DELETE: one template. */
  template: '/api/v1/clusters/{name}/training-templates/{template}',
  /** GET: the region's SageMaker managed MLflow tracking servers; POST: create one. */
  mlflowServers: '/api/v1/mlflow/tracking-servers',
  /** GET: one tracking server. */
  mlflowServer: '/api/v1/mlflow/tracking-servers/{server}',
  /** GET / PUT: the tracking server a cluster's jobs report to by default. */
  clusterMlflow: '/api/v1/clusters/{name}/mlflow',
} as const;
