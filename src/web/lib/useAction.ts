import { useState } from 'react';
import { errorText } from './api.ts';

// One action of a screen that is not a dialog form (turn a switch, sign a session out, confirm
// a code): busy while it runs, and the message of what it threw, cleared when it runs again.
// `key` tells several buttons of one list apart ("which one is busy").

export const useAction = () => {
  const [busyKey, setBusyKey] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** Runs the action; true when it went through. `message` reads what it threw (default errorText). */
  const run = async (
    action: () => Promise<unknown>,
    { key = 'busy', message = errorText }: { key?: string; message?: (error: unknown) => string } = {},
  ) => {
    setBusyKey(key);
    setError(null);
    try {
      await action();
      return true;
    } catch (e) {
      setError(message(e));
      return false;
    } finally {
      setBusyKey(null);
    }
  };
  return { busy: busyKey !== null, busyKey, error, setError, run };
};
