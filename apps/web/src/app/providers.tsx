import { DirectionProvider, MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { onUnauthorized } from '../lib/api-client';
import { clearSession } from '../lib/auth';
import { cssVariablesResolver, theme } from '../lib/theme';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { refetchOnWindowFocus: false, retry: 1 },
    },
  });
}

/** A 401 from the API means the token is no longer good: forget it (CONVENTIONS §11). */
function SignedOutOn401({ queryClient }: { queryClient: QueryClient }) {
  useEffect(() => onUnauthorized(() => clearSession(queryClient)), [queryClient]);
  return null;
}

export function AppProviders({
  children,
  queryClient: givenClient,
}: {
  children: ReactNode;
  queryClient?: QueryClient;
}) {
  const [queryClient] = useState(() => givenClient ?? createQueryClient());
  return (
    <DirectionProvider>
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        defaultColorScheme="auto"
      >
        <QueryClientProvider client={queryClient}>
          <SignedOutOn401 queryClient={queryClient} />
          {children}
        </QueryClientProvider>
      </MantineProvider>
    </DirectionProvider>
  );
}
