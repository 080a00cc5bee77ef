import { loadLanguage } from '../lib/i18n';

// The app's root loader loads the words of a page's language before it shows; components
// rendered alone in tests speak English, so its words are loaded once before them.
await loadLanguage('en');
