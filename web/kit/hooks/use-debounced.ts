import { useEffect, useState } from 'react';

/** `value`, once it has stayed the same for `delayMs`: a check runs for what the user settled on, not for every keystroke. */
export function useDebounced<T>(value: T, delayMs = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
