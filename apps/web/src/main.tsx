// The render-blocking CSS (issue 33 item 9): Mantine's base, its variables, the startup
// loader's hidden text and the static shell's rules; every other component's styles come with the first page
// (app/mantine-styles.ts). Mantine's rules are layered, so the app's own CSS always wins.
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import '@mantine/core/styles/VisuallyHidden.layer.css';
import './app/global.css';
import './app/static-shell.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
