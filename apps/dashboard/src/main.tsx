import './styles.css';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';

import { ApiError } from './api/api-error.js';
import { App } from './app.js';
import { SessionProvider } from './auth/session-context.js';
import { AnnouncerProvider } from './ui/announcer.js';
import { HeadingFocusProvider } from './ui/heading-focus.js';

/** A refusal (4xx) will not change by asking again; a network or server failure might. */
const MAX_READ_RETRIES = 2;

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      retry: (failures, error) =>
        !(error instanceof ApiError && error.status >= 400 && error.status < 500) &&
        failures < MAX_READ_RETRIES,
    },
    mutations: { retry: false },
  },
});

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <SessionProvider>
          <AnnouncerProvider>
            <HeadingFocusProvider>
              <App />
            </HeadingFocusProvider>
          </AnnouncerProvider>
        </SessionProvider>
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
