/**
 * Layering rules of ARCHITECTURE.md, checked on the compiled tree (dist/src, dist/sandbox, …)
 * or on any tree with the same folder names. Paths are matched wherever the tree is rooted.
 */
const layer = (name) => `(^|/)${name}/`;

module.exports = {
  forbidden: [
    {
      name: 'product-never-imports-sandbox',
      comment: 'src/ and web/ reach the sandbox only through AWS_ENDPOINT_URL and kubeconfigs, never by import.',
      severity: 'error',
      from: { path: '(^|/)(src|web)/' },
      to: { path: layer('sandbox') },
    },
    {
      name: 'product-never-imports-launcher',
      severity: 'error',
      from: { path: '(^|/)(src|web)/' },
      to: { path: '(^|/)bin/' },
    },
    {
      name: 'sandbox-never-imports-product',
      comment: 'The sandbox plays AWS; it must not borrow product logic, or tests would prove nothing.',
      severity: 'error',
      from: { path: layer('sandbox') },
      to: { path: '(^|/)(src|web)/' },
    },
    {
      name: 'bench-measures-from-outside',
      comment:
        'bench/ drives the product over HTTP, MCP and the CLI only, so it measures whatever the internals become.',
      severity: 'error',
      from: { path: layer('bench') },
      to: { path: '(^|/)(src|web)/' },
    },
    {
      name: 'domain-is-pure',
      comment: 'src/domain imports nothing of ours outside itself.',
      severity: 'error',
      from: { path: '(^|/)src/domain/' },
      to: { path: '(^|/)(src/(?!domain/)|sandbox/|web/|bin/)' },
    },
    {
      name: 'cloud-imports-only-domain',
      severity: 'error',
      from: { path: '(^|/)src/cloud/' },
      to: { path: '(^|/)src/(?!cloud/|domain/)' },
    },
    {
      name: 'engine-imports-domain-and-store',
      severity: 'error',
      from: { path: '(^|/)src/engine/' },
      to: { path: '(^|/)src/(?!engine/|domain/|store/)' },
    },
    {
      name: 'workflow-kit-imports-engine-cloud-domain',
      comment:
        "src/workflows holds what several capabilities' workflows and read models share (cluster access, group specs, capacity watch, the read cache).",
      severity: 'error',
      from: { path: '(^|/)src/workflows/' },
      to: { path: '(^|/)src/(?!workflows/|engine/|cloud/|domain/)' },
    },
    {
      name: 'capability-workflows-use-ports',
      comment:
        "A capability's durable operations use the engine, the cloud ports, the domain and the workflow kit — never HTTP, MCP or the store.",
      severity: 'error',
      from: { path: '(^|/)src/capabilities/[^/]+/workflows/' },
      to: { path: '(^|/)src/(?!workflows/|engine/|cloud/|domain/|capabilities/[^/]+/workflows/)' },
    },
    {
      name: 'capability-routes-parse-call-map',
      comment:
        'Routes parse (src/api, zod schemas), call their service and map the answer: no cloud, engine, store or workflow of their own.',
      severity: 'error',
      from: { path: '(^|/)src/capabilities/[^/]+/routes\\.' },
      to: { path: '(^|/)src/(?!api/|domain/|capabilities/[^/]+/(service|views|paths)\\.)' },
    },
    {
      name: 'capability-tools-call-rest-only',
      comment: "MCP tools are REST calls: only src/mcp's kit (client, tool kit, reports) and the shared schemas.",
      severity: 'error',
      from: { path: '(^|/)src/capabilities/[^/]+/tools/' },
      to: {
        path: '(^|/)src/(?!mcp/(tool-kit|rest-client|operation-report|preflight-text|poll-rest)\\.|domain/|capabilities/[^/]+/(tools/|paths\\.))',
      },
    },
    {
      name: 'capability-services-stay-below-http',
      comment: 'Services and views hold the rules; HTTP, MCP, the CLI and the store are not theirs to reach.',
      severity: 'error',
      from: { path: '(^|/)src/capabilities/' },
      to: {
        path: '(^|/)src/(api/(?!accepted|problem|route|context)|mcp/(?!tool-kit|rest-client|operation-report|preflight-text|poll-rest)|cli/|store/)',
      },
    },
    {
      name: 'store-imports-only-domain',
      severity: 'error',
      from: { path: '(^|/)src/store/' },
      to: { path: '(^|/)src/(?!store/|domain/)' },
    },
    {
      name: 'api-imports-engine-domain-store',
      comment: 'The HTTP layer serves the routes of the capabilities it is given; it may mount the MCP handler.',
      severity: 'error',
      from: { path: '(^|/)src/api/' },
      to: { path: '(^|/)src/(?!api/|engine/|domain/|store/|mcp/)' },
    },
    {
      name: 'mcp-calls-rest-only',
      comment: 'MCP is REST calls: its kit, the shared schemas, and the capability list whose tools it serves.',
      severity: 'error',
      from: { path: '(^|/)src/mcp/' },
      to: { path: '(^|/)src/(?!mcp/|domain/|capabilities/index\\.)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.map$' },
  },
};
