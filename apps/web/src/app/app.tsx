import { useState } from 'react';
import { RouterProvider } from 'react-router/dom';
import { AppProviders, createQueryClient } from './providers';
import { createRouter } from './router';

export function App() {
  const [queryClient] = useState(createQueryClient);
  // The router's loaders start the first page's requests in the app's query client.
  const [router] = useState(() => createRouter(queryClient));
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
