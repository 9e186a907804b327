import { KubeError } from '../errors.js';
import type { KubeObject } from '../types.js';
import { KIND_MESSAGES, type Field, type Message } from './protobuf-schema.js';

/**
 * Request bodies in Kubernetes' protobuf encoding (`application/vnd.kubernetes.protobuf`), which
 * kubectl's typed clients send — `kubectl create namespace|deployment|configmap|secret|service|…`.
 * The body is the `k8s\0` magic and a runtime.Unknown envelope (apiVersion, kind, raw message);
 * the raw message is decoded with the field table of protobuf-schema.ts into the object's JSON
 * form. A non-zero field outside that table is refused (415) rather than dropped.
 */

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

const unsupported = (why: string) =>
  new KubeError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - the sandbox decodes protobuf only for what kubectl create sends (${why}); accepted media types include: application/json, application/yaml`,
  );

interface WireField {
  num: number;
  wire: number;
  /** Varints and fixed numbers as bigint; length-delimited values as bytes. */
  value: bigint | Buffer;
}

function* wireFields(buf: Buffer): Generator<WireField> {
  let pos = 0;
  const varint = (): bigint => {
    let result = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (pos >= buf.length) throw unsupported('truncated message');
      const b = buf[pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return result;
    }
  };
  while (pos < buf.length) {
    const key = Number(varint());
    const num = key >>> 3;
    const wire = key & 7;
    if (wire === 0) yield { num, wire, value: varint() };
    else if (wire === 2) {
      const len = Number(varint());
      if (pos + len > buf.length) throw unsupported('truncated message');
      yield { num, wire, value: buf.subarray(pos, pos + len) };
      pos += len;
    } else if (wire === 1 || wire === 5) {
      const size = wire === 1 ? 8 : 4;
      yield { num, wire, value: size === 8 ? buf.readBigUInt64LE(pos) : BigInt(buf.readUInt32LE(pos)) };
      pos += size;
    } else throw unsupported(`wire type ${wire}`);
  }
}

/** A varint as the signed number it encodes (negative int32/int64 use ten-byte two's complement). */
const signed = (v: bigint) => Number(v >= 1n << 63n ? v - (1n << 64n) : v);
const isZero = (f: WireField) => (Buffer.isBuffer(f.value) ? f.value.length === 0 : f.value === 0n);

function scalar(field: Field, f: WireField): unknown {
  const bytes = Buffer.isBuffer(f.value) ? f.value : undefined;
  switch (field.type) {
    case 'string':
      return bytes?.toString('utf8') ?? '';
    case 'bytes':
      return (bytes ?? Buffer.alloc(0)).toString('base64');
    case 'int':
      return typeof f.value === 'bigint' ? signed(f.value) : 0;
    case 'bool':
      return f.value === 1n;
    case 'time': {
      const t = decodeMessage(bytes ?? Buffer.alloc(0), { 1: { name: 'seconds', type: 'int' } }) as {
        seconds?: number;
      };
      return t.seconds ? new Date(t.seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') : undefined;
    }
    case 'quantity':
      return (
        (decodeMessage(bytes ?? Buffer.alloc(0), { 1: { name: 'string', type: 'string' } }) as { string?: string })
          .string ?? '0'
      );
    case 'intOrString': {
      const v = decodeMessage(bytes ?? Buffer.alloc(0), {
        1: { name: 'type', type: 'int' },
        2: { name: 'intVal', type: 'int', keepZero: true },
        3: { name: 'strVal', type: 'string' },
      }) as { type?: number; intVal?: number; strVal?: string };
      return v.type === 1 ? (v.strVal ?? '') : (v.intVal ?? 0);
    }
    case 'skip':
      return undefined;
    default:
      return decodeMessage(bytes ?? Buffer.alloc(0), field.type);
  }
}

function decodeMessage(buf: Buffer, message: Message): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of wireFields(buf)) {
    const field = message[f.num];
    if (!field) {
      // Go's marshaller writes every non-pointer field, set or not: zero values carry nothing.
      if (isZero(f)) continue;
      throw unsupported(`field ${f.num}`);
    }
    if (field.map) {
      const entry = decodeMessage(Buffer.isBuffer(f.value) ? f.value : Buffer.alloc(0), {
        1: { name: 'key', type: 'string', keepZero: true },
        2: { name: 'value', type: field.map, keepZero: true },
      });
      const map = (out[field.name] ??= {}) as Record<string, unknown>;
      map[String(entry.key ?? '')] =
        entry.value ?? (field.map === 'string' ? '' : field.map === 'bytes' ? '' : undefined);
      continue;
    }
    const value = scalar(field, f);
    if (field.repeated) {
      ((out[field.name] ??= []) as unknown[]).push(value);
      continue;
    }
    // Omitted in JSON unless the Go field is a pointer (then a zero was set on purpose).
    if (value === undefined || (!field.keepZero && typeof field.type === 'string' && isZero(f))) continue;
    out[field.name] = value;
  }
  return out;
}

export function decodeKubeProtobuf(body: Buffer): KubeObject {
  if (body.length < 4 || !body.subarray(0, 4).equals(MAGIC)) throw unsupported('no k8s protobuf envelope');
  const envelope = decodeMessage(body.subarray(4), {
    1: { name: 'typeMeta', type: { 1: { name: 'apiVersion', type: 'string' }, 2: { name: 'kind', type: 'string' } } },
    2: { name: 'raw', type: 'bytes' },
    3: { name: 'contentEncoding', type: 'string' },
    4: { name: 'contentType', type: 'string' },
  }) as { typeMeta?: { apiVersion?: string; kind?: string }; raw?: string; contentEncoding?: string };
  const kind = envelope.typeMeta?.kind ?? '';
  const message = KIND_MESSAGES[kind];
  if (!message) throw unsupported(`kind ${kind || '(none)'}`);
  if (envelope.contentEncoding) throw unsupported(`content encoding ${envelope.contentEncoding}`);
  const obj = decodeMessage(Buffer.from(envelope.raw ?? '', 'base64'), message);
  return { apiVersion: envelope.typeMeta?.apiVersion ?? '', kind, metadata: {}, ...obj } as KubeObject;
}
