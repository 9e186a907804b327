import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loggableUrl, requestLevel } from '../../src/api/request-log.js';
import { createServerLogger, flushLogger, type LogFormat } from '../../src/cli/logger.js';

function capture(format: LogFormat, level = 'info') {
  const lines: string[] = [];
  const logger = createServerLogger({
    format,
    level,
    color: false,
    destination: { write: (line: string) => void lines.push(line) },
  });
  return { logger, lines };
}

describe('server log', () => {
  it('pretty (the default): one short line per entry, a request as method, URL, status and duration', () => {
    const { logger, lines } = capture('pretty');
    logger
      .child({ reqId: 'req-1' })
      .info({ method: 'POST', url: '/api/v1/clusters', status: 202, ms: 35 }, 'request completed');
    logger
      .child({ component: 'engine' })
      .warn({ operationId: 'op-1', code: 'Throttling' }, 'transient cloud error, retrying');
    logger.error({ err: new Error('disk on fire') }, 'the journal failed');
    assert.match(lines[0]!, /^\d\d:\d\d:\d\d\.\d{3} INFO {2}POST \/api\/v1\/clusters 202 35 ms {2}reqId=req-1\n$/);
    assert.match(
      lines[1]!,
      /WARN {2}\[engine\] transient cloud error, retrying {2}operationId=op-1 code=Throttling\n$/,
    );
    assert.match(
      lines[2]!,
      /ERROR the journal failed {2}err="disk on fire"\n {4}at /,
      'an error carries its stack on the lines after',
    );
    assert.equal(lines.length, 3);
  });

  it('json: one JSON object per line', () => {
    const { logger, lines } = capture('json');
    logger.info({ method: 'GET', url: '/api/v1/operations', status: 200, ms: 3 }, 'request completed');
    const entry = JSON.parse(lines[0]!) as Record<string, unknown>;
    assert.deepEqual([entry.level, entry.msg, entry.method, entry.status], [30, 'request completed', 'GET', 200]);
  });

  for (const format of ['pretty', 'json'] as const) {
    it(`${format}: credentials never reach the log`, () => {
      const { logger, lines } = capture(format);
      logger.info(
        {
          token: 'tok-secret',
          req: { headers: { authorization: 'Bearer tok-secret' } },
          creds: { secretAccessKey: 'aws-secret' },
        },
        'hello',
      );
      assert.equal(lines.length, 1);
      assert.doesNotMatch(lines[0]!, /tok-secret|aws-secret/);
      assert.match(lines[0]!, /\[redacted\]/);
    });
  }

  it('redacts a credential under any name, by pattern: query parameters, log fields and nested fields', () => {
    const names = [
      'token',
      'hf_token',
      'HF_TOKEN',
      'hfToken',
      'access-token',
      'X-Api-Key',
      'client_secret',
      'Password',
      'auth',
      'aws_credentials',
    ];
    const url = loggableUrl(
      `/api/v1/models?${names.map((n, i) => `${encodeURIComponent(n)}=s3cr3t-${i}`).join('&')}&revision=main&hf%5Ftoken=s3cr3t-x`,
    );
    assert.doesNotMatch(url, /s3cr3t/, url);
    assert.match(url, /revision=main/, 'other parameters are kept');
    assert.match(url, /HF_TOKEN=\[redacted\]&hfToken=\[redacted\]&access-token=\[redacted\]/);
    for (const format of ['pretty', 'json'] as const) {
      const { logger, lines } = capture(format);
      logger.child({ component: 'downloads' }).warn(
        {
          request: {
            HF_TOKEN: 's3cr3t-a',
            headers: { 'x-api-key': 's3cr3t-b' },
            list: [{ 'access-token': 's3cr3t-c' }],
          },
          hf_token: 's3cr3t-d',
          model: 'Qwen/Qwen2.5-0.5B',
        },
        'download',
      );
      assert.equal(lines.length, 1);
      assert.doesNotMatch(lines[0]!, /s3cr3t/, lines[0]);
      assert.match(lines[0]!, /Qwen\/Qwen2\.5-0\.5B/, 'the rest is logged');
    }
  });

  it('a warning or an error reaches a file at once, with the lines before it: a kill -9 right after loses none of them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'instantstart-log-'));
    try {
      const file = join(dir, 'server.log');
      const logger = fileURLToPath(new URL('../../src/cli/logger.js', import.meta.url));
      // The server's logger on stdout (a file here, as with `instantstart serve > server.log`): info lines, then an
      // error; the child then says so on stderr and waits to be killed, as a crashing server would be.
      const script = `
        const { createServerLogger } = await import(${JSON.stringify(logger)});
        const log = createServerLogger({ format: process.argv[1], level: 'info', color: false });
        for (let i = 0; i < 3; i++) log.info({ n: i }, 'before the crash');
        log.error({ code: 'EIO' }, 'the journal failed');
        process.stderr.write('logged\\n');
        setInterval(() => {}, 1000);`;
      for (const format of ['pretty', 'json'] as const) {
        const out = openSync(file, 'w');
        const child = spawn(process.execPath, ['--input-type=module', '-e', script, format], {
          stdio: ['ignore', out, 'pipe'],
        });
        await new Promise<void>((resolve, reject) => {
          child.stderr!.on('data', (d: Buffer) => (String(d).includes('logged') ? resolve() : undefined));
          child.once('exit', (code) => reject(new Error(`the child exited (${code}) before logging`)));
        });
        child.kill('SIGKILL');
        await new Promise((r) => child.once('exit', r));
        const written = readFileSync(file, 'utf8').trim().split('\n');
        assert.equal(written.length, 4, `${format}: ${JSON.stringify(written)}`);
        assert.match(written[3]!, /the journal failed/);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('quiet at info: reads are debug; changes, answers >= 400 and slow requests are info; failures are error', () => {
    assert.equal(requestLevel('GET', '/healthz', 200, 1), 'debug');
    assert.equal(requestLevel('GET', '/api/v1/clusters', 200, 12), 'debug');
    assert.equal(requestLevel('POST', '/api/v1/clusters', 202, 30), 'info');
    assert.equal(requestLevel('DELETE', '/api/v1/clusters/demo?confirm=true', 202, 30), 'info');
    assert.equal(requestLevel('GET', '/api/v1/clusters/nope', 404, 2), 'info');
    assert.equal(requestLevel('GET', '/api/v1/clusters', 503, 2), 'error');
    assert.equal(requestLevel('GET', '/api/v1/clusters', 200, 200, new Error('x')), 'error');
    assert.equal(requestLevel('GET', '/api/v1/clusters', 200, 2500), 'info', 'slow');
    // Long by design: a wait, the WebSocket and MCP exchanges (their REST calls log themselves).
    assert.equal(requestLevel('GET', '/api/v1/operations/op-1/wait?timeoutSeconds=50', 200, 50_000), 'debug');
    assert.equal(requestLevel('GET', '/api/v1/ws?token=x', 200, 90_000), 'debug');
    assert.equal(
      requestLevel('GET', '/api/v1/clusters/demo/jobs/default/llama/logs/follow?rank=all', 200, 90_000),
      'debug',
      'a job log follow',
    );
    assert.equal(
      requestLevel('GET', '/api/v1/clusters/demo/jobs/default/llama/logs?format=text', 200, 2500),
      'info',
      'a slow tail is slow',
    );
    assert.equal(requestLevel('POST', '/mcp', 200, 40_000), 'debug');
    assert.equal(requestLevel('POST', '/mcp', 401, 1), 'info');
  });

  it('stdout is written asynchronously, and what is buffered is written at flush and when the process exits', () => {
    const logger = fileURLToPath(new URL('../../src/cli/logger.js', import.meta.url));
    const script = `
      const { createServerLogger, flushLogger } = await import(${JSON.stringify(logger)});
      const log = createServerLogger({ format: process.argv[1], level: 'info', color: false });
      log.info({ n: 1 }, 'first');
      if (process.argv[2] === 'flush') await flushLogger(log);
      log.info({ n: 2 }, 'last words');
      process.exit(0);`;
    for (const format of ['pretty', 'json'] as const) {
      for (const mode of ['flush', 'exit']) {
        const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, format, mode], {
          encoding: 'utf8',
        });
        assert.equal(run.status, 0, run.stderr);
        const lines = run.stdout.trim().split('\n');
        assert.equal(lines.length, 2, `${format}/${mode}: ${run.stdout}`);
        assert.match(lines[1]!, /last words/);
      }
    }
  });

  it('flushLogger resolves for a synchronous destination too', async () => {
    const { logger, lines } = capture('json');
    logger.info('x');
    await flushLogger(logger);
    assert.equal(lines.length, 1);
  });
});
