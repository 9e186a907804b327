/**
 * The pinned tool names. Agents, playbooks (agent/skills) and docs/MCP.md hard-code them, so a
 * rename must fail a test (test/mcp/tool-list.test.ts) rather than break a user's agent silently.
 * Which tools mutate and which answer with an operation is read from the tools themselves (their
 * annotations and output schema), never listed twice.
 */
export const TOOL_NAMES = [
  'add_instance_group',
  'add_storage',
  'browse_storage',
  'cancel_operation',
  'check_cluster_request',
  'check_quotas',
  'create_cluster',
  'delete_cluster',
  'delete_instance_group',
  'delete_nodes',
  'download_model',
  'get_active_cluster',
  'get_autoscaling',
  'get_cluster',
  'get_features',
  'get_job_logs',
  'get_node',
  'get_operation',
  'get_operation_logs',
  'get_server_info',
  'list_availability_zones',
  'list_cluster_events',
  'list_clusters',
  'list_instance_groups',
  'list_instance_types',
  'list_model_downloads',
  'list_nodes',
  'list_operations',
  'list_storage',
  'list_training_plans',
  'plan_features',
  'reboot_nodes',
  'remove_storage',
  'replace_nodes',
  'retry_operation_phase',
  'scale_instance_group',
  'set_active_cluster',
  'set_autoscaling',
  'set_features',
  'start_deep_health_check',
  'update_instance_group',
  'wait_for_operation',
] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

