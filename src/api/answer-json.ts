import { isSettledAnswer } from '../domain/settled-answer.js';

/** The JSON text of each settled answer already sent (src/domain/settled-answer.ts). */
const texts = new WeakMap<object, string>();

/**
 * The JSON text of a route's answer. A settled answer, or a plain object whose properties are
 * settled answers (`{ region, clusters: <settled list> }`), is stringified once and its text reused;
 * anything else is left to Fastify (undefined).
 */
export function answerJson(answer: unknown): string | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  if (isSettledAnswer(answer)) return textOf(answer);
  if (Array.isArray(answer) || Object.getPrototypeOf(answer) !== Object.prototype) return undefined;
  const values = Object.values(answer);
  // Nothing settled inside (and nothing JSON.stringify would treat specially): Fastify serializes it.
  if (!values.some(isSettledAnswer) || 'toJSON' in answer) return undefined;
  let out = '';
  for (const [key, value] of Object.entries(answer)) {
    const text = isSettledAnswer(value) ? textOf(value) : JSON.stringify(value);
    if (text === undefined) continue; // undefined, functions, symbols: left out, as JSON.stringify does
    out += `${out ? ',' : '{'}${JSON.stringify(key)}:${text}`;
  }
  return out ? `${out}}` : '{}';
}

function textOf(value: object): string {
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}
