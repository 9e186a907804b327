import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { call } from '../mcp/client-helpers.js';

export { callMark, mutatingSince } from './call-log.js';

/**
 * The scripted agent of test/e2e/scripted-agent*.test.ts: no model, a script that reads a playbook the server serves
 * as an MCP prompt and follows it step by step. Every tool it calls must be named by the step it is on (or by the
 * previous tool's answer: statusTool, next); every question it asks must be one the playbook allows; a mutating
 * suggestion runs only after the script's user said yes to that exact command.
 */

/** What the script's user answers when nothing in its answers says yes. */
export const NO = 'no';

/** Polls (real time; the sandbox runs at its own speed) until `probe` answers truthy. */
export async function until(probe: () => Promise<unknown>, what: string, seconds = 60): Promise<void> {
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A playbook as served by prompts/get, cut into its `## ` sections and each section's numbered items. */
export interface Playbook {
  text: string;
  section(title: string): string;
  item(section: string, n: number): string;
}

export function parsePlaybook(text: string): Playbook {
  const sections = new Map<string, string>();
  for (const part of text.split(/^## /m).slice(1)) {
    const nl = part.indexOf('\n');
    sections.set(part.slice(0, nl).trim(), part.slice(nl + 1));
  }
  const section = (title: string) => {
    const s = sections.get(title);
    assert.ok(s !== undefined, `the playbook has a "## ${title}" section`);
    return s;
  };
  const item = (title: string, n: number) => {
    const m = new RegExp(`^${n}\\. ([\\s\\S]*?)(?=^\\d+\\. |(?![\\s\\S]))`, 'm').exec(section(title));
    assert.ok(m, `the playbook's ${title} has an item ${n}`);
    return m[1]!;
  };
  return { text, section, item };
}

/** The tools a piece of playbook text names (in backticks), among the server's tools. */
export function toolsNamed(text: string, tools: Map<string, Tool>): Set<string> {
  return new Set([...text.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!).filter((name) => tools.has(name)));
}

/** A suggested MCP command (`tool {json}`, as diagnoses give them) split into the tool and its arguments. */
export function parseCommand(command: string): { tool: string; args: Record<string, unknown> } {
  const m = /^([a-z_]+) (\{.*\})$/s.exec(command);
  assert.ok(m, `a suggested MCP command is "<tool> {json}": ${command}`);
  return { tool: m[1]!, args: JSON.parse(m[2]!) };
}

/** The script: follows one playbook at a time, recording what it called and what it asked. */
export class ScriptedAgent {
  playbook!: Playbook;
  private stepText = '';
  private step = '';
  /** The tool the previous answer named (statusTool, next.tool): the script may always call it. */
  private named: string | undefined;
  readonly calls: Array<{ step: string; tool: string; args: Record<string, unknown> }> = [];
  readonly asked: Array<{ step: string; question: string; answer: string }> = [];

  /**
   * `answers`: what the script's user says, by question (a suggested command is asked by its tool's name).
   * `approvedClient`: the session a command the user said yes to runs in — an agent investigating with a read token
   * gets a yes and an operate token with it (default: the same client).
   */
  constructor(
    private readonly client: Client,
    readonly tools: Map<string, Tool>,
    private readonly answers: Record<string, string> = {},
    private readonly approvedClient: Client = client,
  ) {}

  async open(name: string, request: string): Promise<void> {
    const prompt = await this.client.getPrompt({ name, arguments: { request } });
    const text = prompt.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');
    assert.match(text, new RegExp(`The user asked: ${request}`), 'the request reaches the prompt');
    this.playbook = parsePlaybook(text);
  }

  at(n: number, section = 'Steps'): string {
    this.step = `${section} ${n}`;
    this.stepText = this.playbook.item(section, n);
    return this.stepText;
  }

  /** A tool call, allowed only when the current step (or the previous answer) names the tool. */
  async call(tool: string, args: Record<string, unknown>) {
    assert.ok(
      toolsNamed(this.stepText, this.tools).has(tool) || this.named === tool,
      `${this.step} names ${tool}: ${this.stepText}`,
    );
    return this.send(tool, args);
  }

  private async send(tool: string, args: Record<string, unknown>, client = this.client) {
    this.calls.push({ step: this.step, tool, args });
    const r = await call(client, tool, args);
    assert.ok(!r.isError, `${tool} ${JSON.stringify(args)}: ${r.text}`);
    const data = r.structuredContent as any;
    this.named = data?.statusTool ?? data?.next?.tool;
    return { text: r.text, data };
  }

  /** A question to the user: only one the playbook allows, and only when the request left it open. */
  ask(question: string, allowed: string, given: unknown): string {
    assert.equal(given, undefined, `${this.step}: the request already answers "${question}"; asking it is not allowed`);
    assert.ok(allowed.includes(question), `${this.step}: the playbook does not allow asking "${question}": ${allowed}`);
    const answer = this.answers[question] ?? NO;
    this.asked.push({ step: this.step, question, answer });
    return answer;
  }

  /**
   * Asks the user about one suggested mutating command, word for word; `allowed` (the step or rule that says to ask)
   * must name its tool. The answer is the user's for that tool's name.
   */
  askAbout(command: string, allowed: string): string {
    const { tool } = parseCommand(command);
    assert.ok(
      toolsNamed(allowed, this.tools).has(tool),
      `${this.step}: the playbook does not name ${tool}: ${allowed}`,
    );
    const answer = this.answers[tool] ?? NO;
    this.asked.push({ step: this.step, question: command, answer });
    return answer;
  }

  /** Runs a suggested command exactly as suggested: only after the user said yes to that very command. */
  async runApproved(command: string) {
    assert.ok(
      this.asked.some((a) => a.question === command && a.answer === 'yes'),
      `the user said yes to ${command} (asked: ${JSON.stringify(this.asked)})`,
    );
    const { tool, args } = parseCommand(command);
    return this.send(tool, args, this.approvedClient);
  }

  /** Loops on the tool each answer names until the operation is terminal (create-cluster Rule 1, step 8). */
  async pollFrom(started: { text: string; data: any }): Promise<any> {
    let tool: string = started.data.statusTool;
    let args: Record<string, unknown> = started.data.statusToolArguments;
    assert.ok(started.text.includes(`Call ${tool} with ${JSON.stringify(args)}`), 'the text names it too');
    for (let i = 0; i < 200; i++) {
      const { text, data } = await this.call(tool, args);
      if (data.terminal) return data;
      // What a model reads is the text: its "call <tool> {…}" must be the structured next call.
      const hint = /\bcall (\w+) (\{[^{}]*\})/i.exec(text);
      assert.ok(hint && data.next, `a running operation names the next call: ${text}`);
      assert.deepEqual({ tool: hint[1], arguments: JSON.parse(hint[2]!) }, data.next);
      ({ tool, arguments: args } = data.next);
    }
    throw new Error('the operation did not end');
  }

  /** Every call made since call number `from` only reads (the tool's readOnlyHint). */
  assertReadOnlySince(from = 0): void {
    for (const c of this.calls.slice(from))
      assert.equal(this.tools.get(c.tool)?.annotations?.readOnlyHint, true, `${c.tool} only reads`);
  }
}
