// Applies the colour scheme before the app loads (same storage key as Mantine's
// localStorageColorSchemeManager), so the page never flashes the wrong scheme.
(() => {
  let value = 'auto';
  try {
    value = window.localStorage.getItem('mantine-color-scheme-value') || 'auto';
  } catch {
    // Storage blocked: follow the system.
  }
  const scheme =
    value === 'auto'
      ? window.matchMedia('(prefers-color-scheme: dark)').matches
        ? 'dark'
        : 'light'
      : value;
  document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
})();
