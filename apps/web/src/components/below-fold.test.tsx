import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { lazy } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BelowFold } from './below-fold';

/**
 * happy-dom's IntersectionObserver never reports anything; this one reports what the test says
 * the browser saw, for the elements it observes.
 */
class ScrolledObserver {
  static all: ScrolledObserver[] = [];
  readonly observed = new Set<Element>();
  constructor(
    private readonly report: IntersectionObserverCallback,
    readonly options?: IntersectionObserverInit,
  ) {
    ScrolledObserver.all.push(this);
  }
  observe(element: Element) {
    this.observed.add(element);
  }
  unobserve(element: Element) {
    this.observed.delete(element);
  }
  disconnect() {
    this.observed.clear();
  }
  takeRecords() {
    return [];
  }
  /** The observed elements come (or not) within the root's margin. */
  see(isIntersecting: boolean) {
    const entries = [...this.observed].map(
      (target) => ({ target, isIntersecting }) as IntersectionObserverEntry,
    );
    this.report(entries, this as unknown as IntersectionObserver);
  }
}

afterEach(() => {
  cleanup();
  ScrolledObserver.all = [];
  vi.unstubAllGlobals();
  window.location.hash = '';
});

const Lazy = lazy(async () => ({ default: () => <h2>Frequently asked questions</h2> }));

describe('BelowFold', () => {
  it('holds its place until a visitor scrolls near, then renders what it holds', async () => {
    vi.stubGlobal('IntersectionObserver', ScrolledObserver);
    const { container } = render(
      <BelowFold minHeight="100vh">
        <Lazy />
      </BelowFold>,
    );
    const place = container.querySelector<HTMLElement>('[data-below-fold]');
    expect(place?.style.minHeight).toBe('100vh');
    expect(screen.queryByRole('heading')).toBeNull();

    const [observer] = ScrolledObserver.all;
    expect(observer?.options?.rootMargin).toBe('0px 0px 200px 0px');
    expect(observer?.observed.has(place as Element)).toBe(true);
    act(() => observer?.see(false));
    expect(screen.queryByRole('heading')).toBeNull();

    act(() => observer?.see(true));
    expect(await screen.findByRole('heading', { name: 'Frequently asked questions' })).toBeTruthy();
    expect(container.querySelector('[data-below-fold]')).toBeNull();
    // Once shown, it stays: the observer is gone.
    expect(observer?.observed.size).toBe(0);
  });

  it('waits for the page above it to be ready before it looks', async () => {
    vi.stubGlobal('IntersectionObserver', ScrolledObserver);
    const view = render(
      <BelowFold minHeight="100vh" ready={false}>
        <Lazy />
      </BelowFold>,
    );
    expect(ScrolledObserver.all).toHaveLength(0);
    view.rerender(
      <BelowFold minHeight="100vh" ready>
        <Lazy />
      </BelowFold>,
    );
    expect(ScrolledObserver.all).toHaveLength(1);
    act(() => ScrolledObserver.all[0]?.see(true));
    expect(await screen.findByRole('heading', { name: 'Frequently asked questions' })).toBeTruthy();
  });

  it('renders at once when the address names an anchor, which must be found', async () => {
    vi.stubGlobal('IntersectionObserver', ScrolledObserver);
    window.location.hash = '#faq';
    render(
      <BelowFold minHeight="100vh">
        <Lazy />
      </BelowFold>,
    );
    expect(await screen.findByRole('heading', { name: 'Frequently asked questions' })).toBeTruthy();
    expect(ScrolledObserver.all).toHaveLength(0);
  });

  it('leaves out what cannot be loaded, and the rest of the page stays', async () => {
    vi.stubGlobal('IntersectionObserver', ScrolledObserver);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const Broken = lazy(() =>
      Promise.reject(new Error('Failed to fetch dynamically imported module')),
    );
    const { container } = render(
      <main>
        <p>Above</p>
        <BelowFold minHeight="100vh">
          <Broken />
        </BelowFold>
      </main>,
    );
    act(() => ScrolledObserver.all[0]?.see(true));
    await waitFor(() => expect(container.querySelector('[data-below-fold]')).toBeNull());
    expect(screen.getByText('Above')).toBeTruthy();
    expect(container.querySelector('main')?.children).toHaveLength(1);
  });
});
