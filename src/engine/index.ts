export * from './engine.js';
export * from './workflow.js';
export { isTerminal } from './views.js';
export { SharedPoller } from './poller.js';
export { DEFAULT_POLLING, pollDelayMs, transientBackoffMs, type PollingOptions } from './polling.js';
export { PollSchedule, samplePointsMs, SAMPLE_FRACTIONS } from './poll-schedule.js';
export { MAX_TRANSIENT_RETRIES, describeFailure } from './failures.js';
export { currentCallScope, inCallScope, type CallScope } from './call-scope.js';
