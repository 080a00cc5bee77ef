import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { AppProviders, createQueryClient } from '../app/providers';
import { RouteLanguageProvider } from '../components/layout/app-layout';

/**
 * Renders a piece of the app at a path with the real providers (Mantine, TanStack Query) and a
 * memory router; other paths render their path as text, so a test can see where it went. A
 * language-prefixed path speaks its language once it is loaded (`loadLanguage`; the app's
 * route loader does that before a page shows).
 */
export function renderAt(path: string, pattern: string, element: ReactNode) {
  const router = createMemoryRouter(
    [
      { path: pattern, element: <RouteLanguageProvider>{element}</RouteLanguageProvider> },
      { path: '*', element: <p data-testid="elsewhere">elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  const queryClient = createQueryClient();
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient };
}

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** Undoes interceptFetch (other spies, such as the console.error guard, stay). */
export function restoreFetch(): void {
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
}

export interface RecordedCall {
  method: string;
  url: string;
  body: unknown;
}

/**
 * Intercepts fetch at the network boundary: each request is answered by `answer` (by method
 * and path) and recorded.
 */
export function interceptFetch(answer: (call: RecordedCall) => Response | Promise<Response>) {
  const calls: RecordedCall[] = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const text = typeof init?.body === 'string' ? init.body : undefined;
    const call: RecordedCall = {
      method: init?.method ?? 'GET',
      url,
      body: text ? (JSON.parse(text) as unknown) : undefined,
    };
    calls.push(call);
    return answer(call);
  });
  return { calls, spy };
}
