import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { problemType, type Problem } from './problem.js';

/**
 * Bytes that are not an HTTP/1.1 request never reach Fastify's routing, so they never meet its error
 * handler: Node's parser refuses them (a Content-Length that is not a number or comes twice, a body
 * cut short by the client's FIN, bytes past the announced body that are no request) and Node — or
 * Fastify's default `clientErrorHandler` — answers a bare `400` in its own JSON. Here they are answered
 * as every other refusal is: problem+json saying what was wrong, then the connection is closed (the
 * bytes after a framing error cannot be trusted to start a request).
 */
const WHY: Record<string, string> = {
  HPE_INVALID_EOF_STATE: 'the connection ended before the body its Content-Length announced',
  HPE_INVALID_CONTENT_LENGTH: 'its Content-Length is not a length',
  HPE_UNEXPECTED_CONTENT_LENGTH:
    'it gives its length twice (two Content-Length headers, or Content-Length with Transfer-Encoding)',
  HPE_INVALID_METHOD: 'bytes after its body do not start a request (a Content-Length shorter than the body sent?)',
  HPE_INVALID_TRANSFER_ENCODING: 'its Transfer-Encoding is not valid',
  HPE_INVALID_CHUNK_SIZE: 'a chunk size of its chunked body is not valid',
  HPE_HEADER_OVERFLOW: 'its headers are larger than the server accepts',
  ERR_HTTP_REQUEST_TIMEOUT: 'it was not received in time',
};

/** The status of a malformed request: a timeout and oversized headers have their own; everything else is 400. */
function statusOf(code: string | undefined): [number, string] {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'Request Timeout'];
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'Request Header Fields Too Large'];
  return [400, 'Bad Request'];
}

/** Fastify's `clientErrorHandler`: answers a request Node could not parse as problem+json, then closes its connection. */
export function answerClientError(this: FastifyInstance, err: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, title] = statusOf(err.code);
  const why = (err.code && WHY[err.code]) ?? `it is not valid HTTP/1.1 (${err.code ?? err.message})`;
  const problem: Problem = {
    type: problemType('input'),
    title,
    status,
    detail: `The request could not be read: ${why}.`,
  };
  const body = JSON.stringify(problem);
  this.log.debug({ code: err.code }, 'malformed request refused');
  if (!socket.writable) return void socket.destroy();
  const head = [
    `HTTP/1.1 ${status} ${title}`,
    'Content-Type: application/problem+json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'X-Content-Type-Options: nosniff',
    "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'",
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  // A client that keeps the connection open after the answer is not waited for.
  setTimeout(() => socket.destroy(), 1000).unref();
}
