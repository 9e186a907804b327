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
      name: 'workflows-import-engine-cloud-domain',
      severity: 'error',
      from: { path: '(^|/)src/workflows/' },
      to: { path: '(^|/)src/(?!workflows/|engine/|cloud/|domain/)' },
    },
    {
      name: 'store-imports-only-domain',
      severity: 'error',
      from: { path: '(^|/)src/store/' },
      to: { path: '(^|/)src/(?!store/|domain/)' },
    },
    {
      name: 'api-imports-workflows-engine-domain-store',
      comment: 'The HTTP layer reaches the cloud only through workflows; it may mount the MCP handler.',
      severity: 'error',
      from: { path: '(^|/)src/api/' },
      to: { path: '(^|/)src/(?!api/|workflows/|engine/|domain/|store/|mcp/)' },
    },
    {
      name: 'mcp-calls-rest-only',
      comment: 'MCP tools are REST calls: only their client and the shared schemas.',
      severity: 'error',
      from: { path: '(^|/)src/mcp/' },
      to: { path: '(^|/)src/(?!mcp/|domain/)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.map$' },
  },
};
