import { DELAYS_MS } from '@parla/contract';
import { useEffect, useState } from 'react';

/**
 * SPEC §2 "Account": each field shows a placeholder skeleton for about 1 second after the
 * profile loads. Answers true once `loaded` has held for `delay` ms; it stays true after.
 */
export function useSkeletonDelay(loaded: boolean, delay: number = DELAYS_MS.skeleton): boolean {
  const [done, setDone] = useState(false);
  useEffect(() => {
    if (!loaded || done) return;
    const timer = window.setTimeout(() => setDone(true), delay);
    return () => window.clearTimeout(timer);
  }, [loaded, done, delay]);
  return done;
}
