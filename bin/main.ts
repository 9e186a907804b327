import { UsageError } from '../sandbox/usage-error.js';

/**
 * The `instantstart` command. It lives outside `src/` because it composes the product with the
 * sandbox (which `src/` must never import).
 */
const USAGE = `usage: instantstart <command> [options]

commands:
  serve       serve the web UI, REST API and MCP (on the embedded sandbox cloud unless --cloud aws)
  mcp         MCP server over stdio that calls a running server's REST API
  doctor      is the account ready? credentials, permissions, quotas, versions (asks a running server)
  sandbox     start the local sandbox cloud (AWS wire protocols on 127.0.0.1:4566)
  kubeconfig  print a kubeconfig for an EKS cluster (sandbox or real AWS)
  token       print an EKS token as an ExecCredential (for kubeconfig exec plugins)

Run 'instantstart <command> --help' for a command's options.`;

// The SDK's notice about future Node.js support would otherwise print on every kubectl call that
// runs `instantstart token` as its credential plugin; the lockfile pins SDK versions that support Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

// Each command loads only its own modules: kubectl runs `instantstart token` before every call, and loading the
// server, the sandbox and every SDK client for it took seconds of CPU where the token needs a fraction of one.
async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      await (await import('./serve-command.js')).runServeCommand(rest);
      return;
    case 'mcp':
      await (await import('./mcp-command.js')).runMcpCommand(rest);
      return;
    case 'doctor':
      await (await import('./doctor-command.js')).runDoctorCommand(rest);
      return;
    case 'sandbox':
      await (await import('../sandbox/cli.js')).runSandboxCommand(rest);
      return;
    case 'kubeconfig':
      await (await import('./kube-commands.js')).runKubeconfigCommand(rest);
      return;
    case 'token':
      await (await import('./kube-commands.js')).runTokenCommand(rest);
      return;
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(`${USAGE}\n`);
      return;
    default:
      throw new UsageError(`unknown command '${command}'`);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (
    err instanceof UsageError ||
    (err instanceof Error && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS'))
  ) {
    process.stderr.write(`instantstart: ${err.message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(`instantstart: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
