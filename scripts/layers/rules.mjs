// The layering rules (ARCHITECTURE.md, AGENTS.md → Rules and Capabilities), as data. Paths are root-relative source
// paths with their extension (`src/domain/names.ts`); packages are matched by their specifier (`@aws-sdk/client-eks`).
// Every import counts, `import type` included: a type import ties the layers together as much as a value does.
//
// A rule forbids the imports whose importing file matches `from` and whose target matches `to`:
//   from.path / from.pathNot — regexps (or strings) on the importing file; in `from.pathNot` `$1`, `$2`… stand for the
//     groups `to.path` captured (so "outside the capability the target is in" can be written);
//   to.path / to.pathNot    — on a target file of the tree;
//   to.package               — on a package specifier; to.builtin: true — any Node built-in (`node:fs`, `path`);
//   to.unlessPure            — a target under `unlessPure.path` is allowed all the same when everything it imports,
//     transitively, is under that path or a package matching `unlessPure.packages`.
// `cycles: { within }` forbids import circles among the files matching `within`.

const PRODUCT = /^(src|web)\//;
/** The browser app: the shell, the kit and each capability's UI folder. */
const UI = /^(web\/src\/|web\/kit\/|src\/capabilities\/[^/]+\/ui\/)/;
/** The parts of src/mcp a capability's tools (and its services, for their reports) may use. */
const MCP_KIT = '(tool-kit|rest-client|operation-report|preflight-text|poll-rest)\\.';

export const rules = [
  {
    name: 'product-never-imports-sandbox',
    comment: 'src/ and web/ reach the sandbox only through AWS_ENDPOINT_URL and kubeconfigs, never by import.',
    from: { path: PRODUCT },
    to: { path: /^sandbox\// },
  },
  {
    name: 'product-never-imports-launcher',
    comment: 'bin/ composes the product and the sandbox; the product does not know it.',
    from: { path: PRODUCT },
    to: { path: /^bin\// },
  },
  {
    name: 'sandbox-never-imports-product',
    comment: 'The sandbox plays AWS; it must not borrow product logic, or tests would prove nothing.',
    from: { path: /^sandbox\// },
    to: { path: PRODUCT },
  },
  {
    name: 'bench-measures-from-outside',
    comment: 'bench/ drives the product over HTTP, MCP and the CLI only, so it measures whatever the internals become.',
    from: { path: /^bench\// },
    to: { path: PRODUCT },
  },
  {
    name: 'only-tests-import-tests',
    comment: 'test/ holds the helpers of the tests; nothing that ships (product, sandbox, launcher) leans on them.',
    from: { path: /^(src|web|sandbox|bin)\// },
    to: { path: /^test\// },
  },
  {
    name: 'domain-is-pure',
    comment: 'src/domain imports nothing of ours outside itself.',
    from: { path: /^src\/domain\// },
    to: { path: /^(src\/(?!domain\/)|sandbox\/|web\/|bin\/)/ },
  },
  {
    name: 'cloud-imports-only-domain',
    comment: 'src/cloud holds the ports and their adapters: it answers in domain terms and knows nothing above it.',
    from: { path: /^src\/cloud\// },
    to: { path: /^src\/(?!cloud\/|domain\/)/ },
  },
  {
    name: 'engine-imports-domain-and-store',
    comment: 'The engine runs operations of phases; it knows the domain and its journal (the store), no capability.',
    from: { path: /^src\/engine\// },
    to: { path: /^src\/(?!engine\/|domain\/|store\/)/ },
  },
  {
    name: 'workflow-kit-imports-engine-cloud-domain',
    comment:
      "src/workflows holds what several capabilities' workflows and read models share (cluster access, group specs, capacity watch, the read cache).",
    from: { path: /^src\/workflows\// },
    to: { path: /^src\/(?!workflows\/|engine\/|cloud\/|domain\/)/ },
  },
  {
    name: 'capability-workflows-use-ports',
    comment:
      "A capability's durable operations use the engine, the cloud ports, the domain, the workflow kit and their capability's own ports (ports.ts: a store, supplied by the composition root) — never HTTP, MCP or the store itself.",
    from: { path: /^src\/capabilities\/[^/]+\/workflows\// },
    to: { path: /^src\/(?!workflows\/|engine\/|cloud\/|domain\/|capabilities\/[^/]+\/(workflows\/|ports\.ts$))/ },
  },
  {
    name: 'capability-routes-parse-call-map',
    comment:
      'Routes parse (src/api, zod schemas), call their service and map the answer: no cloud, engine, store or workflow of their own. They are declared with the capability contract (src/capabilities/capability.ts: RouteContext).',
    from: { path: /^src\/capabilities\/[^/]+\/routes\./ },
    to: { path: /^src\/(?!api\/|domain\/|capabilities\/capability\.ts$|capabilities\/[^/]+\/(service|views|paths)\.)/ },
  },
  {
    name: 'capability-tools-call-rest-only',
    comment: "MCP tools are REST calls: only src/mcp's kit (client, tool kit, reports) and the shared schemas.",
    from: { path: /^src\/capabilities\/[^/]+\/tools\// },
    to: { path: new RegExp(`^src/(?!mcp/${MCP_KIT}|domain/|capabilities/[^/]+/(tools/|paths\\.))`) },
  },
  {
    name: 'capability-services-stay-below-http',
    comment:
      "Services and views hold the rules; HTTP, MCP, the CLI and the store are not theirs to reach. (The capability contract above the folders, src/capabilities/capability.ts, names each face's types.)",
    from: { path: /^src\/capabilities\/[^/]+\// },
    to: {
      path: new RegExp(
        `^src/(api/(?!accepted|problem|route|context|log-follow-socket)|mcp/(?!${MCP_KIT})|cli/|store/)`,
      ),
    },
  },
  {
    name: 'diagnostics-read-only',
    comment:
      "Diagnostics only read (issue 29): their service is built from a read port (read-port.ts, the one file that sees the services' deps and takes only describe/list/get functions out of them). Every other file of the capability imports the domain, its own folder, the capability contract, the MCP tool kit and the route kit — no cloud port, engine, store, workflow kit, other capability or mutating answer (src/api/accepted). test/capabilities/diagnostics-read-only.test.ts checks the calls too.",
    from: { path: /^src\/capabilities\/diagnostics\/(?!read-port\.ts$|ui\/)/ },
    to: {
      path: /^src\/(?!domain\/|capabilities\/diagnostics\/|capabilities\/capability\.ts$|mcp\/(tool-kit|rest-client)\.|api\/(route|problem)\.)/,
    },
  },
  {
    name: 'doctor-read-only',
    comment:
      "The readiness check only reads (issue 30): its service is built from a read port (read-port.ts, the one file that sees the services' deps: who, simulate, describe, list). Every other file of the capability imports the domain, its own folder, the capability contract, the MCP tool kit and the route kit. test/e2e/doctor.test.ts counts its mutating calls: none.",
    from: { path: /^src\/capabilities\/doctor\/(?!read-port\.ts$|ui\/)/ },
    to: {
      path: /^src\/(?!domain\/|capabilities\/doctor\/|capabilities\/capability\.ts$|mcp\/(tool-kit|rest-client)\.|api\/(route|problem)\.)/,
    },
  },
  {
    name: 'store-imports-only-domain',
    comment: 'The store persists domain values; it serves the engine and the capabilities and imports neither.',
    from: { path: /^src\/store\// },
    to: { path: /^src\/(?!store\/|domain\/)/ },
  },
  {
    name: 'api-imports-engine-domain-store',
    comment:
      'The HTTP layer serves the routes of the capabilities it is given (their contract: src/capabilities/capability.ts); it may mount the MCP handler.',
    from: { path: /^src\/api\// },
    to: { path: /^src\/(?!api\/|engine\/|domain\/|store\/|mcp\/|capabilities\/capability\.ts$)/ },
  },
  {
    name: 'mcp-calls-rest-only',
    comment: 'MCP is REST calls: its kit, the shared schemas, and the capability list whose tools it serves.',
    from: { path: /^src\/mcp\// },
    to: { path: /^src\/(?!mcp\/|domain\/|capabilities\/index\.)/ },
  },
  {
    name: 'ui-talks-rest-only',
    comment:
      "The UI talks only to the REST API: of our code it imports the shell (web/src), the kit (web/kit), the capabilities' UI folders and their REST paths (paths.ts, filled by src/domain/api-path.ts), the shared zod schemas (src/domain/schemas) and the pure helpers of src/domain (modules importing only zod and each other: field labels, the instance-type order, names) — never a capability's service, routes or workflows.",
    from: { path: UI },
    to: {
      pathNot:
        /^(web\/src\/|web\/kit\/|src\/capabilities\/[^/]+\/(ui\/|paths\.ts$)|src\/domain\/schemas\/[^/]+\.ts$|src\/domain\/api-path\.ts$)/,
      unlessPure: { path: /^src\/domain\//, packages: /^zod(\/|$)/ },
    },
  },
  {
    name: 'ui-kit-is-below-the-capabilities',
    comment:
      "The UI kit (web/kit, imported as @kit/…: components, hooks, formatting, the typed REST client) is what every capability's UI builds on: it knows neither the shell nor any capability (the shell hands it what it needs through React context).",
    from: { path: /^web\/kit\// },
    to: { path: /^(web\/src\/|src\/capabilities\/)/ },
  },
  {
    name: 'ui-shell-is-above-the-capabilities',
    comment:
      "The app shell (web/src: App, routes, navigation, the cluster page frame) imports the capabilities' UIs; a capability's UI never imports the shell back.",
    from: { path: /^src\/capabilities\/[^/]+\/ui\// },
    to: { path: /^web\/src\// },
  },
  {
    name: 'ui-runs-in-the-browser',
    comment: 'The UI is bundled for the browser: no Node built-in (node:fs, path, child_process…).',
    from: { path: UI },
    to: { builtin: true },
  },
  {
    name: 'capability-is-a-module',
    comment:
      "A capability is reached only through its public surfaces: src/capabilities/<name>/index.ts (the server's) and src/capabilities/<name>/ui/index.tsx (the browser app's; the server index would drag server code into the bundle). test/ is exempt: tests may unit-test a module's internals.",
    from: { pathNot: ['^src/capabilities/$1/', /^test\//] },
    to: { path: /^src\/capabilities\/([^/]+)\/(?!index\.ts$|ui\/index\.tsx$)/ },
  },
  {
    name: 'aws-sdk-stays-in-cloud-aws',
    comment:
      'The AWS SDK (and its @smithy parts) is an adapter detail: ports answer in domain types, so only src/cloud/aws imports it.',
    from: { path: PRODUCT, pathNot: /^src\/cloud\/aws\// },
    to: { package: /^@(aws-sdk|smithy)\// },
  },
  {
    name: 'kubernetes-client-stays-in-cloud-k8s',
    comment:
      "The Kubernetes client is an adapter detail: only src/cloud/k8s imports @kubernetes/client-node — and src/domain/kube/core-schemas.ts, which reads the package's generated model metadata (attribute type maps, not the client) to type the Kubernetes fields embedded in the CRDs the product installs.",
    from: { path: PRODUCT, pathNot: [/^src\/cloud\/k8s\//, /^src\/domain\/kube\/core-schemas\.ts$/] },
    to: { package: /^@kubernetes\/client-node(\/|$)/ },
  },
  {
    name: 'no-cycles',
    comment:
      'No import circles in src/, sandbox/ or web/ (type imports included): a circle makes two modules one, and its load order an accident.',
    cycles: { within: /^(src|sandbox|web)\// },
  },
];
