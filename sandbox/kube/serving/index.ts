/**
 * What pods serve over HTTP in the sandbox (model servers, the SGLang router), reached through
 * `servePod`. Importing this module registers both kinds of server.
 */
import './model-server.js';
import './router.js';

export { servePod, Unreachable, type PodHttpRequest, type PodHttpResponse } from './pod-http.js';
export { servingSpecOf, type ServingSpec } from './servers.js';
