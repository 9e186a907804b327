/** What a form's text inputs become in a request: numbers, and lists typed one element per line. */

/** A number typed, or undefined when the input is empty (the server's default applies). */
export const num = (s: string): number | undefined => (s.trim() === '' ? undefined : Number(s.trim()));

/** One element per non-empty line: arguments and commands are lists, never a shell string. */
export const lines = (s: string): string[] =>
  s
    .split('\n')
    .map((x) => x.trim())
    .filter(Boolean);
