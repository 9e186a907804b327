/**
 * Inference endpoints (docs/INFERENCE.md): managed (the HyperPod inference operator) and container (our
 * Deployment and Service), model pools, the SGLang router and KEDA scaling. The schemas live in inference/, one
 * file per part; this list is where the rest of the code finds them.
 */
export * from './inference/fields.js';
export * from './inference/requests.js';
export * from './inference/views.js';
