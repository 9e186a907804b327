import type {
  CreateMlflowServerRequestSchema,
  DeleteMlflowServerAnswer,
  MlflowServerListSchema,
  MlflowTrackingServerView,
} from '@domain/schemas/mlflow.js';
import type {
  RecipeListSchema,
  SubmitTrainingJobAnswerSchema,
  SubmitTrainingJobRequestSchema,
  TrainingJobList,
  TrainingJobView,
  TrainingMetricsAnswer,
  TrainingTemplateListSchema,
} from '@domain/schemas/training.js';
import { rest } from '@kit/api/rest.js';
import { useLiveStatus } from '@kit/hooks/live-context.js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { z } from 'zod';
import { TRAINING_PATHS } from '../paths.js';

/** The training REST calls the UI makes and their queries (paths from the capability's paths.ts). */

export type SubmitJobInput = z.input<typeof SubmitTrainingJobRequestSchema>;
export type SubmitJobAnswer = z.infer<typeof SubmitTrainingJobAnswerSchema>;
export type CreateMlflowServerInput = z.input<typeof CreateMlflowServerRequestSchema>;

export interface JobRef {
  namespace: string;
  job: string;
}

// Jobs are under 'training', not 'clusters': they change without our operations and follow their own poll.
export const trainingKeys = {
  recipes: ['training', 'recipes'] as const,
  jobs: (cluster: string, region: string) => ['training', 'jobs', cluster, region] as const,
  job: (cluster: string, region: string, ref: JobRef) =>
    ['training', 'jobs', cluster, region, ref.namespace, ref.job] as const,
  metrics: (cluster: string, region: string, ref: JobRef) =>
    ['training', 'metrics', cluster, region, ref.namespace, ref.job] as const,
  templates: (cluster: string, region: string) => ['training', 'templates', cluster, region] as const,
  mlflowServers: (region: string) => ['training', 'mlflow-servers', region] as const,
};

/** A job's path parameters: its cluster, namespace and name. */
const jobParams = (cluster: string, ref: JobRef) => ({ name: cluster, namespace: ref.namespace, job: ref.job });

export const listRecipes = () => rest(TRAINING_PATHS.recipes).get<z.infer<typeof RecipeListSchema>>();
export const listJobs = (cluster: string, region: string) =>
  rest(TRAINING_PATHS.jobs, { name: cluster }).get<TrainingJobList>({ region });
export const getJob = (cluster: string, region: string, ref: JobRef) =>
  rest(TRAINING_PATHS.job, jobParams(cluster, ref)).get<TrainingJobView>({ region });
export const deleteJob = (cluster: string, region: string, ref: JobRef) =>
  rest(TRAINING_PATHS.job, jobParams(cluster, ref)).delete<unknown>({ query: { region, confirm: 'true' } });
export const submitJob = (cluster: string, region: string, body: SubmitJobInput) =>
  rest(TRAINING_PATHS.jobs, { name: cluster }).post<SubmitJobAnswer>({ body: { ...body, region } });
export const resubmitJob = (cluster: string, region: string, ref: JobRef, name: string) =>
  rest(TRAINING_PATHS.jobResubmit, jobParams(cluster, ref)).post<SubmitJobAnswer>({ body: { region, name } });
/** The whole log as a text download (one rank or all merged, `[rank N] …`), streamed by the server. */
export const jobLogsDownloadUrl = (cluster: string, region: string, ref: JobRef, rank: 'all' | number) =>
  rest(TRAINING_PATHS.jobLogs, jobParams(cluster, ref)).url({ region, rank: String(rank), format: 'text' });
export const getJobMetrics = (cluster: string, region: string, ref: JobRef) =>
  rest(TRAINING_PATHS.jobMetrics, jobParams(cluster, ref)).get<TrainingMetricsAnswer>({ region });
export const listTemplates = (cluster: string, region: string) =>
  rest(TRAINING_PATHS.templates, { name: cluster }).get<z.infer<typeof TrainingTemplateListSchema>>({ region });
export const listMlflowServers = (region: string) =>
  rest(TRAINING_PATHS.mlflowServers).get<z.infer<typeof MlflowServerListSchema>>({ region });
export const createMlflowServer = (body: CreateMlflowServerInput) =>
  rest(TRAINING_PATHS.mlflowServers).post<unknown>({ body });
export const deleteMlflowServer = (region: string, server: string) =>
  rest(TRAINING_PATHS.mlflowServer, { server }).delete<DeleteMlflowServerAnswer>({
    query: { region, confirm: 'true' },
  });

/** Phases a job leaves on its own: while one is in them the table and detail refresh every 3 s. */
const SETTLED = new Set(['Succeeded', 'Failed', 'Suspended']);
const moving = (jobs: readonly TrainingJobView[]) => jobs.some((j) => !SETTLED.has(j.phase));

export function useRecipes() {
  return useQuery({ queryKey: trainingKeys.recipes, queryFn: listRecipes, staleTime: 10 * 60_000 });
}

/** The cluster's jobs: polled (Kubernetes moves them, not our operations), faster while one runs. */
export function useJobs(cluster: string, region: string) {
  return useQuery({
    queryKey: trainingKeys.jobs(cluster, region),
    queryFn: () => listJobs(cluster, region),
    refetchInterval: (q) => (q.state.data && moving(q.state.data.jobs) ? 3000 : 15_000),
  });
}

export function useJob(cluster: string, region: string, ref: JobRef) {
  return useQuery({
    queryKey: trainingKeys.job(cluster, region, ref),
    queryFn: () => getJob(cluster, region, ref),
    refetchInterval: (q) => (q.state.data && SETTLED.has(q.state.data.phase) ? 15_000 : 3000),
  });
}

/** Metrics of a running job grow with each step: refreshed every 10 s until it settles. */
export function useJobMetrics(cluster: string, region: string, ref: JobRef, settled: boolean) {
  const query = useQuery({
    queryKey: trainingKeys.metrics(cluster, region, ref),
    queryFn: () => getJobMetrics(cluster, region, ref),
    refetchInterval: settled ? false : 10_000,
  });
  // Once more when the job ends: its last steps were logged after the previous read.
  const { refetch } = query;
  const wasSettled = useRef(settled);
  useEffect(() => {
    if (settled && !wasSettled.current) void refetch();
    wasSettled.current = settled;
  }, [settled, refetch]);
  return query;
}

export function useTemplates(cluster: string, region: string) {
  return useQuery({
    queryKey: trainingKeys.templates(cluster, region),
    queryFn: () => listTemplates(cluster, region),
    retry: false,
  });
}

/** Tracking servers take minutes to create: polled every 5 s while one is changing. */
export function useMlflowServers(region: string) {
  const poll = useLiveStatus().connected ? 30_000 : 15_000;
  return useQuery({
    queryKey: trainingKeys.mlflowServers(region),
    queryFn: () => listMlflowServers(region),
    refetchInterval: (q) =>
      q.state.data?.servers.some((s: MlflowTrackingServerView) => /ing$/.test(s.status)) ? 5000 : poll,
  });
}

export function useSubmitJob(cluster: string, region: string, onSubmitted: (a: SubmitJobAnswer) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SubmitJobInput) => submitJob(cluster, region, body),
    onSuccess: (answer) => {
      void qc.invalidateQueries({ queryKey: trainingKeys.jobs(cluster, region) });
      if (answer.template) void qc.invalidateQueries({ queryKey: trainingKeys.templates(cluster, region) });
      onSubmitted(answer);
    },
  });
}

export function useResubmitJob(
  cluster: string,
  region: string,
  ref: JobRef,
  onSubmitted: (a: SubmitJobAnswer) => void,
) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => resubmitJob(cluster, region, ref, name),
    onSuccess: (answer) => {
      void qc.invalidateQueries({ queryKey: trainingKeys.jobs(cluster, region) });
      onSubmitted(answer);
    },
  });
}

export function useDeleteJob(cluster: string, region: string, ref: JobRef, onDeleted: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => deleteJob(cluster, region, ref),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: trainingKeys.jobs(cluster, region) });
      onDeleted();
    },
  });
}

export function useCreateMlflowServer(region: string, onCreated: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateMlflowServerInput) => createMlflowServer({ ...body, region }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: trainingKeys.mlflowServers(region) });
      onCreated();
    },
  });
}

export function useDeleteMlflowServer(region: string, onDeleted: (answer: DeleteMlflowServerAnswer) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (server: string) => deleteMlflowServer(region, server),
    onSuccess: (answer) => {
      void qc.invalidateQueries({ queryKey: trainingKeys.mlflowServers(region) });
      onDeleted(answer);
    },
  });
}
