import { Component, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';

/** How far below the screen a part starts loading, so that it is there when scrolled to. */
const AHEAD = '0px 0px 200px 0px';

/** What cannot be loaded (offline, a deployment replaced its chunk) is left out of the page. */
class LeftOutOnFailure extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/**
 * A part of a page far below the first screen (issue 18: loaded on demand). It is rendered,
 * and its code loaded when `children` is lazy, once a visitor scrolls within 200 px of it, or
 * at once when the address names an anchor (a link to #faq must find it). Until then it holds
 * `minHeight`, so that what follows does not jump when it comes. A page whose upper part is
 * still loading says so with `ready`: until then everything is near the top of the screen.
 */
export function BelowFold({
  children,
  minHeight,
  ready = true,
}: {
  children: ReactNode;
  minHeight: string;
  ready?: boolean;
}) {
  const place = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(
    () => typeof IntersectionObserver === 'undefined' || window.location.hash !== '',
  );
  useEffect(() => {
    const element = place.current;
    if (near || !ready || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: AHEAD },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, ready]);
  const placeholder = <div ref={place} style={{ minHeight }} data-below-fold="" />;
  if (!near) return placeholder;
  return (
    <LeftOutOnFailure>
      <Suspense fallback={placeholder}>{children}</Suspense>
    </LeftOutOnFailure>
  );
}
