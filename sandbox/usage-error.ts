/** A command line that cannot be run as given: the CLI prints the message and the usage, and exits 2. */
export class UsageError extends Error {}
