import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { startSandbox } from './server.js';
import { exportLines, sandboxEnvironment } from './environment.js';
import { UsageError } from './usage-error.js';

export { UsageError };

const USAGE = `usage: instantstart sandbox [--port 4566] [--host 127.0.0.1] [--speed N] [--state-dir DIR]

Starts the sandbox cloud: a local AWS endpoint (STS, IAM, EC2, EKS, SageMaker, Service Quotas,
S3, FSx) that speaks AWS's wire protocols. State is kept in --state-dir (default .instantstart/sandbox/cloud,
where \`instantstart serve\` keeps its embedded sandbox's state).
--speed N runs sandbox time N times faster than real time (EKS's ~10 minute create takes 10/N minutes).`;

/** `instantstart sandbox …`: runs until SIGINT/SIGTERM, then saves its state. */
export async function runSandboxCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '4566' },
      host: { type: 'string', default: '127.0.0.1' },
      speed: { type: 'string' },
      'state-dir': { type: 'string', default: '.instantstart/sandbox/cloud' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be an integer 0-65535, got '${values.port}'`);
  const speed = values.speed === undefined ? undefined : Number(values.speed);
  if (speed !== undefined && !(speed > 0))
    throw new UsageError(`--speed must be a number greater than 0, got '${values.speed}'`);

  const stateDir = resolve(values['state-dir']);
  const sandbox = await startSandbox({ port, host: values.host, stateDir, ...(speed !== undefined ? { speed } : {}) });
  process.stdout.write(
    `InstantStart sandbox cloud listening on ${sandbox.url} (state: ${stateDir}, speed ${sandbox.runtime.clock.speed}x)\n` +
      `Point the AWS CLI and SDKs at it:\n\n${exportLines(sandboxEnvironment(sandbox.url))}\n\n` +
      `Admin API: ${sandbox.url}/_sandbox/health, /_sandbox/inventory, /_sandbox/calls (docs/SANDBOX.md)\n`,
  );
  const shutdown = () => {
    sandbox.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}
