export * from './engine.js';
export * from './workflow.js';
export { OPERATION_STATUS_TOOL, operationStatusUrl, isTerminal } from './views.js';
export { DEFAULT_POLLING, nominalPollIntervalMs, pollDelayMs, transientBackoffMs, SharedPoller, type PollingOptions } from './poller.js';
export { MAX_TRANSIENT_RETRIES, describeFailure } from './failures.js';
