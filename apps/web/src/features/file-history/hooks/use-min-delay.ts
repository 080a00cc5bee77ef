import { DELAYS_MS } from '@parla/contract';
import { useEffect, useState } from 'react';

/** True once `delay` ms have passed since mount (SPEC §9: skeletons for about 1000 ms). */
export function useMinDelay(delay: number = DELAYS_MS.skeleton): boolean {
  const [done, setDone] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setDone(true), delay);
    return () => window.clearTimeout(timer);
  }, [delay]);
  return done;
}
