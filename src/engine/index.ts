export * from './engine.js';
export * from './workflow.js';
export { OPERATION_STATUS_TOOL, operationStatusUrl, isTerminal } from './views.js';
export { DEFAULT_POLLING, pollDelayMs, transientBackoffMs, SharedPoller, type PollingOptions } from './poller.js';
export { PollSchedule, samplePointsMs, SAMPLE_FRACTIONS } from './poll-schedule.js';
export { MAX_TRANSIENT_RETRIES, describeFailure } from './failures.js';
