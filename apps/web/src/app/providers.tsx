import { DirectionProvider, MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { onUnauthorized } from '../lib/api-client';
import { clearSession } from '../lib/auth';
import { rootI18n } from '../lib/i18n';
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
          {/* English until the layout gives the route language (docs/decisions/015). */}
          <I18nextProvider i18n={rootI18n}>
            <SignedOutOn401 queryClient={queryClient} />
            {children}
          </I18nextProvider>
        </QueryClientProvider>
      </MantineProvider>
    </DirectionProvider>
  );
}
