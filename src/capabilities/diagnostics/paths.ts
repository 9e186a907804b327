/**
 * The REST paths of the diagnostics capability (issue 29): GETs only — a diagnostic reads and never acts.
 */
export const DIAGNOSTICS_PATHS = {
  /** GET: why a cluster's create failed (?operationId=; default: its latest create-cluster operation). */
  clusterCreation: '/api/v1/clusters/{name}/diagnostics/creation',
  /** GET: a node's health, where it stands on investigate → reboot → replace, and why. */
  node: '/api/v1/clusters/{name}/diagnostics/nodes/{node}',
  /** GET: NCCL/EFA evidence for a training job (its ranks' logs, settings, devices, security group, placement). */
  nccl: '/api/v1/clusters/{name}/diagnostics/jobs/{namespace}/{job}/nccl',
} as const;
