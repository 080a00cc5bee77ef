import { VisuallyHidden } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { DELAYS_MS, PRODUCT_NAME } from '@parla/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './page-loader.module.css';

const FADE_MS = 300;

/** The jumping bars on a full-screen cover; also the router's fallback while a page loads. */
export function PageLoader({ fading = false }: { fading?: boolean }) {
  const { t } = useTranslation();
  return (
    <div
      className={fading ? `${classes.overlay} ${classes.fading}` : classes.overlay}
      role="status"
      aria-live="polite"
      data-testid="page-loader"
      data-loader
    >
      <div className={classes.bars} aria-hidden="true">
        <span className={classes.bar} />
        <span className={classes.bar} />
        <span className={classes.bar} />
        <span className={classes.bar} />
      </div>
      {/* Before the first page's words have loaded, the product's name alone. */}
      <VisuallyHidden>
        {t('layout.loading', { product: PRODUCT_NAME, defaultValue: PRODUCT_NAME })}
      </VisuallyHidden>
    </div>
  );
}

/**
 * SPEC §2 "Global": the full-screen loader shown when the app starts, fading out once the page
 * has loaded (DELAYS_MS.loader, about 1 s). With reduced motion it neither jumps nor fades.
 */
export function StartupLoader() {
  const reduceMotion = useReducedMotion();
  const [phase, setPhase] = useState<'shown' | 'fading' | 'gone'>('shown');

  useEffect(() => {
    const fade = window.setTimeout(() => setPhase('fading'), DELAYS_MS.loader);
    const gone = window.setTimeout(
      () => setPhase('gone'),
      DELAYS_MS.loader + (reduceMotion ? 0 : FADE_MS),
    );
    return () => {
      window.clearTimeout(fade);
      window.clearTimeout(gone);
    };
  }, [reduceMotion]);

  if (phase === 'gone') return null;
  return <PageLoader fading={phase === 'fading'} />;
}
