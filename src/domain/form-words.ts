/**
 * A form's own words for the request fields a server message names: the server speaks to every client
 * (`set createBucket: true`), a form speaks of what its user sees ("choose “A new bucket”"). Longest first.
 *
 * @example
 * inFormWords("'x' does not exist: check the name, or set createBucket: true to make it", { 'set createBucket: true': 'choose “A new bucket”' })
 */
export type FormWords = Readonly<Record<string, string>>;
export function inFormWords(text: string, words: FormWords | undefined): string {
  if (!words) return text;
  return Object.keys(words)
    .sort((a, b) => b.length - a.length)
    .reduce((t, api) => t.split(api).join(words[api]!), text);
}
