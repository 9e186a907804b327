/**
 * A form's own words for the request fields a server message names: the server speaks to every client
 * (`set createBucket: true`), a form speaks of what its user sees ("choose “A new bucket”"). Longest first.
 *
 * @example
 * inFormWords("'x' does not exist: check the name, or set createBucket: true to make it", { 'set createBucket: true':
 * 'choose “A new bucket”' })
 */
export type FormWords = Readonly<Record<string, string>>;
export function inFormWords(text: string, words: FormWords | undefined): string {
  const said = withoutApiPointers(text);
  if (!words) return said;
  return Object.keys(words)
    .sort((a, b) => b.length - a.length)
    .reduce((t, api) => t.split(api).join(words[api]!), said);
}

/**
 * One pointer to the API in a server message: an MCP tool name (`list_training_plans`, `MCP retry_operation_phase`)
 * or a REST call (`GET /api/v1/training-plans?region=…`), as API and MCP clients need them.
 */
const POINTER = String.raw`(?:MCP\s+)?[a-z]+(?:_[a-z]+)+|(?:GET|POST|PUT|PATCH|DELETE)\s+\/api\/[^\s()]*`;
/** A parenthesis that holds only such pointers, joined by `/`, `;`, `,` or "or". */
const POINTERS_IN_PARENTHESES = new RegExp(
  String.raw`\s*\(\s*(?:${POINTER})(?:\s*(?:[/;,]|\bor\b)\s*(?:${POINTER}))*\s*\)`,
  'g',
);

/**
 * A server message as a screen shows it: the message's pointers to the API's tools and paths are left out, since
 * the screen the user is on is how they act (the message itself keeps them for API and MCP clients).
 *
 * @example
 * withoutApiPointers('or buy more reserved capacity (list_training_plans / GET
 * /api/v1/training-plans?region=us-west-2).')
 * // 'or buy more reserved capacity.'
 */
export function withoutApiPointers(text: string): string {
  return text.replace(POINTERS_IN_PARENTHESES, '');
}
