/**
 * Training jobs (docs/TRAINING.md): a recipe or a custom container submitted as a HyperPodPyTorchJob
 * or a RayJob, read back live from Kubernetes as a job view. Validation lives here once: REST,
 * OpenAPI, the MCP tools and the UI's generated forms derive from these schemas, so every field
 * carries a description. Fault tolerance and elastic settings are in training-policies.ts, MLflow
 * tracking servers in mlflow.ts.
 *
 * The schemas live in training/, one file per part; this list is where the rest of the code finds them.
 */

export {
  TRAINING_KINDS,
  TrainingKindSchema,
  TrainingJobNameSchema,
  RecipeIdSchema,
  EnvVarSchema,
  ImageSchema,
  TemplateNameSchema,
} from './training/fields.js';
export type { TrainingKind, EnvVarRequest } from './training/fields.js';
export {
  customScriptOf,
  startsHyperpodrun,
  CustomLaunchSchema,
  CustomContainerSchema,
} from './training/custom-container.js';
export type { CustomContainer } from './training/custom-container.js';
export {
  SubmitTrainingJobShape,
  SubmitTrainingJobRequestSchema,
  TrainingJobListQuerySchema,
  TrainingJobParamsSchema,
  SubmitTrainingJobAnswerSchema,
  ResubmitTrainingJobRequestSchema,
  DeleteTrainingJobQuerySchema,
  DeleteTrainingJobAnswerSchema,
} from './training/job-requests.js';
export type { SubmitTrainingJobRequest } from './training/job-requests.js';
export {
  TrainingPhaseSchema,
  BudgetSchema,
  LastFaultSchema,
  RecoveryBudgetSchema,
  KubeHealthSchema,
  ConditionSchema,
  RankViewSchema,
  JobEventSchema,
  TrainingJobViewSchema,
  TrainingJobListSchema,
} from './training/job-view.js';
export type {
  TrainingPhase,
  Budget,
  LastFault,
  RecoveryBudget,
  RankView,
  TrainingJobView,
  TrainingJobList,
} from './training/job-view.js';
export {
  LogRankSchema,
  TrainingLogsQuerySchema,
  TrainingLogsFollowQuerySchema,
  LogLineSchema,
  TrainingLogsAnswerSchema,
  LogStreamMessageSchema,
} from './training/logs.js';
export type {
  TrainingLogsQuery,
  TrainingLogsFollowQuery,
  LogLine,
  TrainingLogsAnswer,
  LogStreamMessage,
} from './training/logs.js';
export {
  MlflowLinkSchema,
  TrainingMetricsQuerySchema,
  MetricPointSchema,
  TrainingMetricsAnswerSchema,
  ClusterMlflowSchema,
} from './training/mlflow.js';
export type { TrainingMetricsAnswer } from './training/mlflow.js';
export {
  RecipeViewSchema,
  RecipeListSchema,
  TrainingTemplateRequestSchema,
  SaveTrainingTemplateRequestSchema,
  TrainingTemplateSchema,
  TrainingTemplateListSchema,
} from './training/recipes-and-templates.js';
export type { RecipeView, TrainingTemplate } from './training/recipes-and-templates.js';
