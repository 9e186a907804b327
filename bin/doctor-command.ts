import { parseArgs } from 'node:util';
import { DOCTOR_PATHS } from '../src/capabilities/doctor/index.js';
import { doctorText } from '../src/domain/doctor-text.js';
import type { DoctorReport } from '../src/domain/schemas/doctor.js';
import { RestClient, RestApiError, RestUnreachableError } from '../src/mcp/rest-client.js';

const USAGE = `usage: instantstart doctor [--url http://127.0.0.1:3099] [--token TOKEN] [--region REGION]
                          [--instance-types ml.g5.8xlarge,ml.p5.48xlarge] [--principal-arn ARN] [--cluster NAME] [--json]

Is the account and Region the running server acts in ready for InstantStart? Read-only: credentials, every IAM
permission the product needs (simulated for the server's identity, or --principal-arn), the instance types' quotas,
the Region's Kubernetes versions, Elastic IP headroom, and with --cluster that cluster's add-ons. Prints one line per check with its fix.
Exit status: 0 when every line is ok, 1 otherwise, 2 on bad usage.`;

/**
 * `instantstart doctor`: asks a running server (GET /api/v1/doctor), as `instantstart mcp` does. The server is what
 * will act in the account — its credentials, its Region — so its answer is the one that counts; and the CLI then needs
 * no AWS SDK or credentials of its own (a read token is enough).
 */
export async function runDoctorCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: 'string', default: process.env.INSTANTSTART_URL ?? 'http://127.0.0.1:3099' },
      token: { type: 'string', default: process.env.INSTANTSTART_API_TOKEN },
      region: { type: 'string' },
      'instance-types': { type: 'string' },
      'principal-arn': { type: 'string' },
      cluster: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  // The whole report may simulate ~50 IAM questions: more than the MCP client's default per-call limit.
  const api = new RestClient({ baseUrl: values.url, token: values.token, timeoutMs: 120_000 });
  let report: DoctorReport;
  try {
    report = await api.get<DoctorReport>(DOCTOR_PATHS.check, {
      query: {
        region: values.region,
        instanceTypes: values['instance-types'],
        principalArn: values['principal-arn'],
        cluster: values.cluster,
      },
    });
  } catch (err) {
    if (err instanceof RestApiError || err instanceof RestUnreachableError) {
      process.stderr.write(`instantstart doctor: ${err.message}\n`);
      process.exitCode = err instanceof RestApiError && err.status === 400 ? 2 : 1;
      return;
    }
    throw err;
  }
  process.stdout.write(`${values.json ? JSON.stringify(report, null, 2) : doctorText(report)}\n`);
  process.exitCode = report.ok ? 0 : 1;
}
