import type { ToolName } from './tool-list.js';

/**
 * The MCP tool that decides completion of any operation: every answer that names an operation (a 202, a 409
 * because another one runs) tells an agent to call it with the operation's id.
 */
export const OPERATION_STATUS_TOOL: ToolName = 'wait_for_operation';
