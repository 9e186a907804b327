/** Where a port's step-by-step messages go (a phase's log). */
export type Log = (message: string) => void;
